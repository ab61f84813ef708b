// At the production log level, request URLs and database errors reach the log without the secrets
// they carry: mailed-link and passkey-registration tokens, OAuth codes, SQL parameters. And a whole
// Foyer logging as production does, sent a planted secret in every path parameter and query value of
// every route it serves (its route tables and its OpenAPI document) and of every hosted page, logs
// none of them: secrets are recognised by their shape, not by the route (server/http/log-redaction.ts).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { loggerOptions } from '../../../server/http/listener.ts';
import { installErrorHandling } from '../../../server/http/errors.ts';
import { openTestDatabase, startFoyer } from '../../../server/testing.ts';
import type { DatabaseHandle } from '../../../server/db/client.ts';
import { routesOf, type Route } from '../support/routes.ts';

const SECRET = 'Zk3v9secretTokenValue_0123456789abcdefghijk';
const EMAIL = 'private.person@example.com';
/** GitHub's OAuth codes are 20 hex digits. */
const HEX_CODE = '0f1e2d3c4b5a69788796';
const JWT = ['{"alg":"RS256","kid":"k1"}', '{"sub":"someone","aud":"app","exp":1900000000}', 'signature-bytes-of-rs256']
  .map((part) => Buffer.from(part).toString('base64url'))
  .join('.');
/** Some providers' codes are short: below every shape rule, redacted by the parameter's name. */
const SHORT_CODE = 'q7Rz2mKp';
const APP_ID = '5a68b1bb-17ba-4b7c-ac9d-ff89f02fb5df';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

/** A stream that keeps what is written to it. */
function logCapture() {
  let logged = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk;
      done();
    },
  });
  return { stream, logged: () => logged };
}

const PRODUCTION = loadConfig({ FOYER_ENV: 'production', FOYER_SECRET: 'x'.repeat(40) });

describe('logs at the production level', () => {
  it('hold no link token, OAuth code, ID token or SQL parameter, and keep ids and route words', async () => {
    const { stream, logged: log } = logCapture();
    const config = PRODUCTION;
    expect(config.logLevel).toBe('info');
    // As server/http/listener.ts builds each listener, with the log going to `stream`.
    const app = Fastify({ logger: { ...loggerOptions(config, 'test'), stream } });
    installErrorHandling(app, { notFound: true });
    app.get('/*', async () => 'ok');
    app.get('/fails', async () => {
      await database.db.execute(sql`select ${EMAIL}::int`);
      return 'unreachable';
    });
    for (const url of [
      `/auth/set-password/${SECRET}`,
      `/auth/password/${SECRET}`,
      `/auth/magic-link/${SECRET}`,
      `/auth/passkeys/registration-options?forgotPasswordToken=${SECRET}`,
      `/token?code=${SECRET}&code_verifier=${SECRET}&client_id=app`,
      `/federated/github/callback?code=${HEX_CODE}&state=${SECRET}`,
      `/federated/linkedin/callback?code=${SHORT_CODE}&state=${SECRET}`,
      `/session/end?id_token_hint=${JWT}&post_logout_redirect_uri=https%3A%2F%2Fapp.example%2Fsigned-out`,
      `/admin/apps/${APP_ID}/webhooks/authentication-options-and-more-words`,
    ]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: '/fails' })).statusCode).toBe(500);
    await app.close();

    const logged = log();
    expect(logged).toContain('/auth/set-password/[redacted]');
    expect(logged).toContain('client_id=app');
    expect(logged).toContain('/federated/github/callback?code=[redacted]&state=[redacted]');
    expect(logged).toContain('id_token_hint=[redacted]&post_logout_redirect_uri=https%3A%2F%2Fapp.example%2Fsigned-out');
    // Ids and the words of a route are no tokens.
    expect(logged).toContain(`/admin/apps/${APP_ID}/webhooks/authentication-options-and-more-words`);
    expect(logged).not.toContain(HEX_CODE);
    expect(logged).not.toContain(SHORT_CODE);
    expect(logged).not.toContain(JWT.split('.')[1]);
    expect(logged).toContain('params: [redacted]');
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain(EMAIL);
  });
});

/** An OpenAPI 3.1 document as far as this test reads it. */
interface OpenApiDocument {
  paths: Record<string, { servers?: { url: string }[] } & Record<string, { parameters?: { in: string; name: string }[] }>>;
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The runtime's pages: every flow's routes (flows/, as the hosted UI is built) and the screens of src/app/router.tsx. */
function hostedPages(flowsDir: string): string[] {
  const flowRoutes = readdirSync(flowsDir)
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => (JSON.parse(readFileSync(path.join(flowsDir, file), 'utf8')) as { routes: string[] }).routes);
  const router = readFileSync(path.resolve('src/app/router.tsx'), 'utf8');
  const screens = [...router.matchAll(/screenRoute\('([^']+)'|<Route path="([^"]+)"/g)].map((match) => match[1] ?? match[2]!);
  return [...flowRoutes, ...screens, '/configurator/*'];
}

describe('a whole Foyer logging as production does', () => {
  it('logs no secret planted in any path parameter or query value of any route or hosted page', { timeout: 120_000 }, async () => {
    const { stream, logged } = logCapture();
    const foyer = await startFoyer({ logLevel: PRODUCTION.logLevel }, {}, undefined, stream);
    const planted: { value: string; where: string }[] = [];
    try {
      const document = (await (await fetch(`${foyer.urls.api}/openapi.json`)).json()) as OpenApiDocument;
      const queryNames = new Map<string, string[]>();
      const routes: Route[] = (['auth', 'api', 'ui'] as const).flatMap((origin) => routesOf(foyer.foyer[origin], origin));
      for (const [openApiPath, item] of Object.entries(document.paths)) {
        const origin = item.servers?.[0]?.url === foyer.urls.auth ? 'auth' : 'api';
        const routePath = openApiPath.replace(/\{([^}]+)\}/g, ':$1');
        for (const method of HTTP_METHODS.filter((name) => item[name])) {
          routes.push({ origin, method: method.toUpperCase(), path: routePath });
          const names = (item[method]!.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
          queryNames.set(`${method.toUpperCase()} ${routePath}`, names);
        }
      }
      expect(routes.some((route) => route.path === '/auth-proxy/password/:token')).toBe(true);
      expect(routes.some((route) => route.path === '/federated/domain-proof/:token')).toBe(true);
      const pages = hostedPages(foyer.config.flowsDir);
      expect(pages).toContain('/handover/*');
      routes.push(...pages.map((page) => ({ origin: 'ui' as const, method: 'GET', path: page })));

      const plant = (where: string, value = randomBytes(32).toString('base64url')) => {
        planted.push({ value, where });
        return value;
      };
      let sent = 0;
      const send = async (route: Route, fill: (parameter: string) => string) => {
        const where = `${route.method} ${route.origin} ${route.path}`;
        const address = (route.path.startsWith('/') ? route.path : `/${route.path}`).replace(/:[A-Za-z_]+(?:\|:[A-Za-z_]+)*|\*/g, fill);
        const query = new URLSearchParams();
        for (const name of [...(queryNames.get(`${route.method} ${route.path}`) ?? []), 'probe']) query.set(name, plant(where));
        // A handover's args as an app writes them: standard base64 of JSON with the one-time code, '+', '/' and '=' unescaped.
        const args = plant(where, Buffer.from(JSON.stringify({ code: randomBytes(32).toString('base64url') })).toString('base64'));
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}';
        const response = await fetch(`${foyer.urls[route.origin]}${address}?${query.toString()}&args=${args}`, {
          method: route.method,
          headers: {
            'x-app-id': foyer.demo.appId,
            origin: foyer.urls.ui,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        sent += 1;
      };
      const seen = new Set<string>();
      for (const route of routes) {
        const key = `${route.method} ${route.origin} ${route.path}`;
        if (seen.has(key) || route.method === 'OPTIONS') continue;
        seen.add(key);
        const where = key;
        await send(route, () => plant(where));
        // Once more with the demo app's id where a route names an app, to reach what lies behind the app's lookup.
        if (route.path.includes(':appId')) await send(route, (parameter) => (parameter === ':appId' ? foyer.demo.appId : plant(where)));
      }
      expect(sent).toBeGreaterThan(150);
    } finally {
      await foyer.close();
    }

    const log = logged();
    expect(log.split('\n').filter((line) => line.includes('"incoming request"')).length).toBeGreaterThan(150);
    const leaks = planted.filter(({ value }) => log.includes(value) || log.includes(new URLSearchParams({ v: value }).toString().slice(2)));
    expect([...new Set(leaks.map((leak) => leak.where))]).toEqual([]);
    // The three that leaked by name before the rule, now by shape; ids stay readable.
    expect(log).toContain('/auth-proxy/password/[redacted]?');
    expect(log).toContain('/federated/domain-proof/[redacted]?');
    expect(log).toMatch(/\/handover\/\[redacted\]\?probe=\[redacted\]&args=\[redacted\]/);
    expect(log).toContain(`/payments/webhook/${foyer.demo.appId}?`);
  });
});
