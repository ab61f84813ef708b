// Anonymous callers and the HTTP edge of /graphql: the app from x-app-id, and every malformed
// request answered with a 4xx in both REST and GraphQL shape, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SUPPORTED_LOCALES } from '../../../common/locales.ts';
import { apps } from '../../../server/db/schema.ts';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { errorCodes, postGraphQL } from '../support/graphql.ts';

let foyer: TestFoyer;
beforeAll(async () => {
  foyer = await startFoyer();
});
afterAll(() => foyer?.close());

const GET_APP = `query GetAppAnonymous { getAppAnonymous { id name uiUrl websiteUrl privacyPolicyUrl onboardingFlow
  passkeysEnabled magicLinkEnabled mfaEnabled tenantSelfSignup googleSsoEnabled appleSsoEnabled } }`;

async function rawPost(body: string, contentType: string | undefined) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (contentType) headers['content-type'] = contentType;
  const response = await fetch(`${foyer.urls.api}/graphql`, { method: 'POST', headers, body });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe('getAppAnonymous', () => {
  it('answers the public configuration of the app x-app-id names', async () => {
    const answer = await postGraphQL(foyer.urls.api, { query: GET_APP }, { 'x-app-id': foyer.demo.appId });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.getAppAnonymous).toEqual({
      id: foyer.demo.appId,
      name: 'Demo app',
      uiUrl: foyer.urls.ui,
      websiteUrl: null,
      privacyPolicyUrl: `${foyer.urls.ui}/privacy`,
      onboardingFlow: 'B2B',
      passkeysEnabled: true,
      magicLinkEnabled: true,
      mfaEnabled: true,
      tenantSelfSignup: true,
      googleSsoEnabled: false,
      appleSsoEnabled: false,
    });
  });

  it('offers every shipped language in the demo app, English by default, and the published list of an app that names some', async () => {
    const query = '{ getAppAnonymous { languages defaultLanguage } }';
    const demo = await postGraphQL(foyer.urls.api, { query }, { 'x-app-id': foyer.demo.appId });
    expect(demo.body.data?.getAppAnonymous).toEqual({ languages: [...SUPPORTED_LOCALES], defaultLanguage: 'en' });

    const [app] = await foyer.db.select({ settings: apps.settings }).from(apps).where(eq(apps.id, foyer.demo.appId));
    await foyer.db
      .update(apps)
      .set({ settings: { ...app!.settings, languages: ['he', 'sv'], defaultLanguage: 'sv' } })
      .where(eq(apps.id, foyer.demo.appId));
    try {
      const listed = await postGraphQL(foyer.urls.api, { query }, { 'x-app-id': foyer.demo.appId });
      expect(listed.body.data?.getAppAnonymous).toEqual({ languages: ['sv', 'he'], defaultLanguage: 'sv' });
    } finally {
      await foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, foyer.demo.appId));
    }
  });

  it('answers UNKNOWN_APP (404) for an x-app-id that names no app', async () => {
    const answer = await postGraphQL(foyer.urls.api, { query: GET_APP }, { 'x-app-id': '00000000-0000-4000-8000-000000000000' });
    expect(answer.status).toBe(404);
    expect(answer.body.data ?? null).toBeNull();
    expect(answer.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'UNKNOWN_APP', response: { statusCode: 404 } } })]);
  });

  it('answers UNKNOWN_APP when neither x-app-id nor a token is sent', async () => {
    const answer = await postGraphQL(foyer.urls.api, { query: GET_APP });
    expect(answer.status).toBe(404);
    expect(errorCodes(answer)).toEqual(['UNKNOWN_APP']);
  });
});

describe('privileged fields without a token', () => {
  // Without a token every privileged field answers UNAUTHENTICATED before any resolver runs.
  it.each(['{ getMe { id } }', '{ getTenant { id } }', '{ getTenantAnonymous { id } }', '{ listUserRoles }', '{ listUsers { id } }'])(
    '%s answers UNAUTHENTICATED (401)',
    async (query) => {
      const answer = await postGraphQL(foyer.urls.api, { query }, { 'x-app-id': foyer.demo.appId });
      expect(answer.status).toBe(401);
      expect(answer.body.errors?.[0]?.extensions).toEqual({ code: 'UNAUTHENTICATED', response: { statusCode: 401 } });
    },
  );

  it('rejects the whole operation when one field needs more than the caller has', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getAppAnonymous { name } getMe { id } }' },
      { 'x-app-id': foyer.demo.appId },
    );
    expect(answer.status).toBe(401);
    expect(answer.body.data ?? null).toBeNull();
    expect(answer.body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([[['getMe'], 'UNAUTHENTICATED']]);
  });

  it('finds root fields hidden in fragments', async () => {
    const query = 'query { ...Root } fragment Root on Query { ... on Query { listUsers { id } } }';
    const answer = await postGraphQL(foyer.urls.api, { query }, { 'x-app-id': foyer.demo.appId });
    expect(errorCodes(answer)).toEqual(['UNAUTHENTICATED']);
  });
});

describe('malformed requests', () => {
  it('answers 400, not 500, to a body that is not JSON', async () => {
    const answer = await rawPost('{"query": "{ getAppAnonymous { name } ', 'application/json');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
    expect(answer.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'BAD_REQUEST', response: { statusCode: 400 } } })]);
  });

  it.each([
    ['text/plain', '{"query":"{ getAppAnonymous { name } }"}'],
    ['application/x-www-form-urlencoded', 'query=%7BgetAppAnonymous%7Bname%7D%7D'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('answers 415 to a %s body', async (contentType, body) => {
    const answer = await rawPost(body, contentType);
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ statusCode: 415, error: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it.each([
    ['an empty object', '{}'],
    ['an array (batching is off)', '[{"query":"{ getAppAnonymous { name } }"}]'],
    ['a JSON string', '"{ getAppAnonymous { name } }"'],
    ['null', 'null'],
    ['a query that is not a string', '{"query": 5}'],
  ])('answers 400 to %s', async (_label, body) => {
    const answer = await rawPost(body, 'application/json');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
  });

  it('answers 413 to a body over the size limit', async () => {
    const answer = await rawPost(
      JSON.stringify({ query: '{ getAppAnonymous { name } }', variables: { pad: 'x'.repeat(1_100_000) } }),
      'application/json',
    );
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ statusCode: 413, error: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers 400 with GRAPHQL_PARSE_FAILED to a document that does not parse', async () => {
    const answer = await postGraphQL(foyer.urls.api, { query: '{ getAppAnonymous { name ' }, { 'x-app-id': foyer.demo.appId });
    expect(answer.status).toBe(400);
    expect(errorCodes(answer)).toEqual(['GRAPHQL_PARSE_FAILED']);
  });

  it('answers 400 to variables that are not an object', async () => {
    const response = await fetch(`${foyer.urls.api}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
      body: JSON.stringify({ query: '{ getAppAnonymous { name } }', variables: [1, 2] }),
    });
    expect(response.status).toBe(400);
  });

  it('refuses operations over GET', async () => {
    const response = await fetch(`${foyer.urls.api}/graphql?query=${encodeURIComponent('{ getAppAnonymous { name } }')}`, {
      headers: { 'x-app-id': foyer.demo.appId },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('query limits', () => {
  it('rejects a depth bomb with 400 before touching any resolver', async () => {
    const nested = Array.from({ length: 30 }, (_, i) => `f${i} {`).join(' ');
    const query = `{ getAppAnonymous { ${nested} id ${'}'.repeat(30)} } }`;
    const answer = await postGraphQL(foyer.urls.api, { query }, { 'x-app-id': foyer.demo.appId });
    expect(answer.status).toBe(400);
    expect(answer.body.data ?? null).toBeNull();
    expect(answer.body.errors?.some((error) => /depth limit of 8 exceeded/.test(error.message))).toBe(true);
    expect(new Set(errorCodes(answer))).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
  });

  it('rejects an alias-multiplied query over the cost limit with 400', async () => {
    const aliases = Array.from({ length: 300 }, (_, i) => `a${i}: getAppAnonymous { id name logo uiUrl }`).join(' ');
    const answer = await postGraphQL(foyer.urls.api, { query: `{ ${aliases} }` }, { 'x-app-id': foyer.demo.appId });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.some((error) => /cost limit/i.test(error.message))).toBe(true);
  });

  it('rejects a query document longer than the limit', async () => {
    const answer = await rawPost(JSON.stringify({ query: `{ getAppAnonymous { name } }${' '.repeat(30_000)}` }), 'application/json');
    expect(answer.status).toBe(400);
  });

  it('serves GraphiQL to a browser and suggests field names in development', async () => {
    const page = await fetch(`${foyer.urls.api}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('GraphiQL');
    const answer = await postGraphQL(foyer.urls.api, { query: '{ getAppAnonymous { nam } }' }, { 'x-app-id': foyer.demo.appId });
    expect(answer.body.errors?.[0]?.message).toContain('Did you mean "name"?');
  });

  it('allows introspection in development', async () => {
    const answer = await postGraphQL(foyer.urls.api, { query: '{ __schema { queryType { name } } }' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});

describe('CORS', () => {
  it('lets any origin call without credentials', async () => {
    const preflight = await fetch(`${foyer.urls.api}/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-app-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization,content-type,x-app-id');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();

    const answer = await postGraphQL(foyer.urls.api, { query: GET_APP }, { origin: foyer.urls.ui, 'x-app-id': foyer.demo.appId });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('adds the CORS header to error answers so browsers can read them', async () => {
    const answer = await rawPost('{', 'application/json');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });
});
