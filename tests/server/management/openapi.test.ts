// The OpenAPI document (/openapi.json on the API host): a valid OpenAPI 3.1 document (checked by
// @apidevtools/swagger-parser) that covers every REST route the auth service and the API host
// register (compared with the routes Fastify registered, less the few that are not Foyer's REST
// API, each named below with why), and the rendered reference outside production.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import fastify from 'fastify';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { loadConfig } from '../../../server/config.ts';
import { registerOpenApi } from '../../../server/management/openapi.ts';
import { PROVIDER_PATHS } from '../../../server/auth/oidc/mount.ts';

/** Every route the auth and API listeners registered, as "METHOD /path" in the document's spelling. */
const registered = new Set<string>();

let foyer: TestFoyer;
beforeAll(async () => {
  foyer = await startFoyer({}, {}, (listener, route) => {
    if (listener === 'ui') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    for (const method of methods) if (method !== 'HEAD' && method !== 'OPTIONS') registered.add(`${method} ${path}`);
  });
});

/**
 * Routes that are not Foyer's REST API, and where they are described instead. Everything else a
 * listener serves must be in the document.
 */
const notRest: { matches: (route: string) => boolean; why: string }[] = [
  {
    matches: (route) => PROVIDER_PATHS.some((path) => route.endsWith(` ${path.replace('/*', '')}`) || route.endsWith(` ${path}`)),
    why: "oidc-provider's OAuth 2.0 / OpenID Connect endpoints: described by /.well-known/openid-configuration",
  },
  { matches: (route) => / \/interaction\//.test(route), why: "the OpenID Connect interaction's browser steps" },
  { matches: (route) => / \/openapi(\/|\.json|$)/.test(route), why: 'the document itself and its rendered reference' },
  { matches: (route) => route.endsWith(' /graphql'), why: 'GraphQL: its own schema, by introspection outside production' },
  {
    matches: (route) => /^(POST|PUT|DELETE) \/management\/role(\/|$)/.test(route),
    why: 'role and privilege writes, which always answer 403 ROLES_FIXED (server/management/app-settings.ts): no operation that never succeeds',
  },
  { matches: (route) => / \/payments\/test\//.test(route), why: "the test-mode payment provider's pages, never in production" },
  {
    matches: (route) => / \/federated\//.test(route),
    why: "browser sign-in through social and enterprise identity providers: redirects, the providers' callbacks and SAML metadata",
  },
  {
    matches: (route) => / \/\{appId\}\/(custom\.css|translations\.json|assets\/\{assetId\})$/.test(route),
    why: "the hosted pages' branding assets: the app's CSS, texts and logos",
  },
];
afterAll(() => foyer?.close());

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
  requestBody?: unknown;
}
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document of the management and admin routes', async () => {
    const response = await fetch(`${foyer.urls.api}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Document;
    expect(document.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(document) as never);

    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => HTTP_METHODS.includes(method))
        .map(([method, operation]) => ({ id: `${method.toUpperCase()} ${path}`, operation })),
    );
    const ids = operations.map((entry) => entry.id);
    for (const id of [
      'GET /management/app',
      'GET /management/app/credentialsState',
      'GET /management/app/custom-tenant-user-params-config',
      'GET /management/role',
      'GET /management/role/privilege',
      'GET /management/payments/plan',
      'GET /management/payments/tax',
      'POST /management/tenant',
      'GET /management/tenant',
      'GET /management/tenant/byId/{id}',
      'PUT /management/tenant/{id}',
      'DELETE /management/tenant/{id}',
      'GET /management/tenant/{id}/paymentDetails',
      'POST /management/tenant/{id}/planDetails',
      'POST /management/tenant/user',
      'GET /management/tenant/user',
      'GET /management/tenant/user/{id}',
      'PUT /management/tenant/user/{id}',
      'DELETE /management/tenant/user/{id}',
      'GET /management/tenant/user/{id}/associations',
      'POST /management/tenant/user/{id}/password',
      'GET /management/tenant/user/{id}/passwordLink',
      'PUT /management/app',
      'PUT /management/app/credentials',
      'PUT /management/app/custom-tenant-user-params-config',
      'POST /management/payments/plan',
      'PUT /management/payments/plan/{id}',
      'DELETE /management/payments/plan/{id}',
      'POST /management/payments/tax',
      'PUT /management/payments/tax/{id}',
      'DELETE /management/payments/tax/{id}',
      'POST /management/tenant/{id}/checkoutId',
      'GET /management/tenant/{id}/customerPortal',
      'POST /management/tenant/user/{id}/email',
      'POST /management/tenant/user/{id}/sms',
      'POST /management/tenant/user/{id}/smsOtp',
      'GET /admin/apps/{appId}/api-keys',
      'POST /admin/apps/{appId}/api-keys',
      'DELETE /admin/apps/{appId}/api-keys/{keyId}',
      'GET /admin/apps/{appId}/audit-log',
    ]) {
      expect(ids).toContain(id);
    }
    // Every management operation says how it is authenticated and what it answers, success and refusal.
    for (const { id, operation } of operations.filter((entry) => entry.id.includes(' /management/'))) {
      expect(operation.security, id).toEqual([{ apiKey: [] }]);
      expect(Object.keys(operation.responses), id).toEqual(expect.arrayContaining(['401', '404']));
      expect(
        Object.keys(operation.responses).some((status) => status.startsWith('2')),
        id,
      ).toBe(true);
    }
    expect(document.paths['/management/tenant']?.post?.requestBody).toBeDefined();

    // Every REST route registered is documented, under the origin that serves it.
    const rest = [...registered].filter((route) => !notRest.some((rule) => rule.matches(route)));
    expect(rest.length).toBeGreaterThan(80);
    expect(rest.filter((route) => !ids.includes(route))).toEqual([]);
    for (const id of ['GET /auth/sessions', 'POST /auth/authenticate', 'POST /auth/commitMfaCode']) {
      const [method, path] = id.split(' ') as [string, string];
      expect((document.paths[path] as { servers?: { url: string }[] }).servers, id).toEqual([{ url: foyer.urls.auth }]);
      expect(document.paths[path]?.[method.toLowerCase()]?.tags, id).toEqual(['Auth service']);
    }
    expect(document.paths['/admin/apps/{appId}/draft']?.put?.requestBody, 'a body the handler checks is documented').toBeDefined();
    // Routes without a schema are not listed as if they had one.
    expect(ids.filter((id) => id.includes('/graphql'))).toEqual([]);
  });

  it('renders a reference page outside production', async () => {
    const response = await fetch(`${foyer.urls.api}/openapi/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('swagger');
  });

  it('serves the document but no reference page in production', async () => {
    const api = fastify();
    await registerOpenApi(api, loadConfig({ FOYER_ENV: 'production', FOYER_SECRET: 'x'.repeat(40) }));
    api.get('/listed', { schema: { tags: ['Management API'], response: { 200: { type: 'string' } } } }, async () => 'ok');
    await api.ready();
    const document = await api.inject({ method: 'GET', url: '/openapi.json' });
    expect(document.statusCode).toBe(200);
    expect(Object.keys(document.json<Document>().paths)).toEqual(['/listed']);
    expect((await api.inject({ method: 'GET', url: '/openapi/' })).statusCode).toBe(404);
    expect((await api.inject({ method: 'GET', url: '/openapi/static/index.html' })).statusCode).toBe(404);
    await api.close();
  });
});
