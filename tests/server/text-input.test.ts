// Text PostgreSQL cannot store (NUL) or that is not Unicode (a lone surrogate) is refused with one
// 400 on every listener, whether it comes in a JSON body, a query string or a path, instead of
// failing in SQL with a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../server/testing.ts';
import { postGraphQL } from './support/graphql.ts';

let foyer: TestFoyer;
beforeAll(async () => {
  foyer = await startFoyer();
});
afterAll(() => foyer?.close());

const REFUSED = { statusCode: 400, error: 'INVALID_TEXT', message: 'Text must not contain NUL characters or unpaired surrogates' };
// JSON.stringify writes a lone surrogate as the escape \udXXX, which is valid JSON.
const hostile = ['a\u0000b@demo.foyer.test', 'a\ud800b@demo.foyer.test'];

function postJson(url: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
    body: JSON.stringify(body),
  });
}

describe.each(hostile)('text %j', (text) => {
  it('in a JSON body of the auth service', async () => {
    for (const [path, body] of [
      ['/auth/credentialsConfig', { username: text }],
      ['/auth/authenticate', { username: text, password: 'x' }],
      ['/auth/password', { username: text }],
      ['/auth/magic-link', { username: text }],
    ] as const) {
      const answer = await postJson(`${foyer.urls.auth}${path}`, body);
      expect([path, answer.status, await answer.json()]).toEqual([path, 400, REFUSED]);
    }
  });

  it.runIf(text.includes('\u0000'))('in a path and a query string (a lone surrogate cannot be URL-encoded)', async () => {
    const inPath = await fetch(`${foyer.urls.auth}/auth/password/${encodeURIComponent(text)}`, {
      headers: { 'x-app-id': foyer.demo.appId },
    });
    expect([inPath.status, await inPath.json()]).toEqual([400, REFUSED]);
    const inQuery = await fetch(`${foyer.urls.auth}/url/login/${foyer.demo.appId}?state=${encodeURIComponent(text)}`, {
      redirect: 'manual',
    });
    expect([inQuery.status, await inQuery.json()]).toEqual([400, REFUSED]);
  });

  it.runIf(text.includes('\u0000'))("in a form body of the provider's endpoints", async () => {
    for (const path of ['/token', '/token/revocation', '/token/introspection']) {
      const answer = await fetch(`${foyer.urls.auth}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: text, token: 'x', refresh_token: 'x' }).toString(),
      });
      expect([path, answer.status, await answer.json()]).toEqual([path, 400, REFUSED]);
    }
  });

  it('in GraphQL variables', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      {
        query: 'mutation S($tenant: CreateTenantInput!) { createTenantAnonymous(tenant: $tenant) { id } }',
        variables: { tenant: { owner: { email: text } } },
      },
      { 'x-app-id': foyer.demo.appId },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('INVALID_TEXT');
  });
});
