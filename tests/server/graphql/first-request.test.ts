// The GraphQL engine is built on the endpoint's first request (server/graphql/plugin.ts): requests
// that arrive together before it exists all wait for the same one and are answered, none fails.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { postGraphQL } from '../support/graphql.ts';

let foyer: TestFoyer;
beforeAll(async () => {
  foyer = await startFoyer();
});
afterAll(() => foyer?.close());

it('answers every one of the first requests that arrive at once, valid or refused by the schema', async () => {
  const getApp = { query: 'query GetAppAnonymous { getAppAnonymous { id name } }' };
  const unknownField = { query: '{ noSuchField }' };
  const answers = await Promise.all([
    ...Array.from({ length: 6 }, () => postGraphQL(foyer.urls.api, getApp, { 'x-app-id': foyer.demo.appId })),
    postGraphQL(foyer.urls.api, unknownField, { 'x-app-id': foyer.demo.appId }),
  ]);
  const unknown = answers.pop()!;
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.getAppAnonymous).toEqual({ id: foyer.demo.appId, name: 'Demo app' });
  }
  expect(unknown.status).toBe(400);
  expect(unknown.body.errors?.[0]?.message).toMatch(/noSuchField/);
});
