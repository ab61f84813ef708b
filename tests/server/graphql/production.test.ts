// FOYER_ENV=production turns the development conveniences of /graphql off: introspection, GraphiQL
// and "Did you mean" hints that would spell out the schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { errorCodes, postGraphQL } from '../support/graphql.ts';

let foyer: TestFoyer;
beforeAll(async () => {
  foyer = await startFoyer({ env: 'production' });
});
afterAll(() => foyer?.close());

describe('in production', () => {
  it.each(['{ __schema { queryType { name } } }', '{ __type(name: "User") { name } }'])('refuses introspection: %s', async (query) => {
    const answer = await postGraphQL(foyer.urls.api, { query }, { 'x-app-id': foyer.demo.appId });
    expect(answer.status).toBe(400);
    expect(new Set(errorCodes(answer))).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
  });

  it('still answers __typename and ordinary operations', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ __typename getAppAnonymous { name } }' },
      { 'x-app-id': foyer.demo.appId },
    );
    expect(answer.body.data).toEqual({ __typename: 'Query', getAppAnonymous: { name: 'Demo app' } });
  });

  it('serves no GraphiQL page', async () => {
    const response = await fetch(`${foyer.urls.api}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(405);
  });

  it('gives no field suggestions', async () => {
    const answer = await postGraphQL(foyer.urls.api, { query: '{ getAppAnonymous { nam } }' }, { 'x-app-id': foyer.demo.appId });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.message).toBe('Cannot query field "nam" on type "App".');
  });
});
