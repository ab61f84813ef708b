// Two Foyer instances on one PostgreSQL, behind a load balancer that sends each request to the
// instance the test names: a sign-in started on one finishes on the other, a refresh token issued by
// one is refreshed by the other (and the rotation holds across them), and the password-attempt limit
// counts the guesses both receive. PostgreSQL pass only (FOYER_TEST_DB=postgres): one PGlite folder
// belongs to one process.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { and, eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ServerConfig } from '../../server/config.ts';
import { postgresHandle, type DatabaseHandle } from '../../server/db/client.ts';
import { createFoyer, type Foyer } from '../../server/app.ts';
import { seedDemo, type DemoData } from '../../server/seed/demo.ts';
import { createTestPostgresDatabase, freePort, POSTGRES_ENV } from '../../server/testing.ts';
import { LOGIN_FAILURES } from '../../server/audit/limits.ts';
import { hashPassword } from '../../server/auth/passwords.ts';
import { tenants, tenantUsers, users } from '../../server/db/schema.ts';
import { Browser } from './oidc/browser.ts';
import { authorizationRequest, callbackUri, choose, logIn, relyingParty, workspaces } from './oidc/sign-in.ts';

type Instance = 'a' | 'b';
type Origin = 'auth' | 'api' | 'ui';

let database: { url: string; drop(): Promise<void> };
const handles: DatabaseHandle[] = [];
const instances: Partial<Record<Instance, { foyer: Foyer; ports: Record<Origin, number> }>> = {};
const balancers: http.Server[] = [];
let urls: Record<Origin, string>;
let demo: DemoData;
/** Where the load balancer sends the next requests. */
let route: Instance = 'a';
const served: Record<Instance, number> = { a: 0, b: 0 };

/** Forwards every request on `port` to the chosen instance's listener for `origin`, as it came. */
function balancer(origin: Origin, port: number): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const target = route;
    served[target] += 1;
    const upstream = http.request(
      { host: '127.0.0.1', port: instances[target]!.ports[origin], method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

async function startInstance(name: Instance, config: ServerConfig): Promise<void> {
  const handle = postgresHandle(database.url);
  handles.push(handle);
  const ports = { auth: await freePort(), api: await freePort(), ui: await freePort() };
  const foyer = await createFoyer({ config: { ...config, ports }, db: handle.db, appId: demo.appId });
  await foyer.listen('127.0.0.1');
  instances[name] = { foyer, ports };
}

const enabled = Boolean(process.env[POSTGRES_ENV]);

beforeAll(async () => {
  if (!enabled) return;
  database = await createTestPostgresDatabase(process.env[POSTGRES_ENV]!);
  const publicPorts = { auth: await freePort(), api: await freePort(), ui: await freePort() };
  urls = {
    auth: `http://localhost:${publicPorts.auth}`,
    api: `http://localhost:${publicPorts.api}`,
    ui: `http://localhost:${publicPorts.ui}`,
  };
  const seeding = postgresHandle(database.url);
  demo = await seedDemo(seeding.db, urls);
  await seeding.close();
  // The same deployment settings on both: public URLs (the issuer), secret, everything but the ports.
  const config: ServerConfig = { ...loadConfig({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' }), urls };
  await startInstance('a', config);
  await startInstance('b', config);
  for (const origin of ['auth', 'api', 'ui'] as const) balancers.push(await balancer(origin, publicPorts[origin]));
});

afterAll(async () => {
  await Promise.all(balancers.map((server) => new Promise((resolve) => server.close(resolve))));
  for (const instance of Object.values(instances)) await instance?.foyer.close();
  for (const handle of handles) await handle.close();
  await database?.drop();
});

const target = () => ({ urls, demo });

/** Counts the requests the balancer sent to `name` while `work` ran, all of them to it. */
async function on<T>(name: Instance, work: () => Promise<T>): Promise<T> {
  route = name;
  const before = served[name];
  const result = await work();
  expect(served[name]).toBeGreaterThan(before);
  return result;
}

async function refresh(refreshToken: string) {
  const response = await fetch(`${urls.auth}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: demo.appId, refresh_token: refreshToken }),
  });
  return { status: response.status, body: (await response.json()) as { access_token?: string; refresh_token?: string; error?: string } };
}

let refreshToken: string;

describe.runIf(enabled)('two instances on one PostgreSQL', () => {
  it('publish one key set', async () => {
    const keys = async (name: Instance) => on(name, async () => (await fetch(`${urls.auth}/.well-known/jwks.json`)).json());
    expect(await keys('a')).toEqual(await keys('b'));
  });

  it('finish on B a sign-in started on A', async () => {
    const rp = await on('a', () => relyingParty(target()));
    const pending = await authorizationRequest(rp, callbackUri(target()));
    const browser = new Browser();
    const owner = demo.users[0]!;
    await on('a', async () => {
      const toLogin = await browser.navigate(pending.url, (url) => url.origin === urls.ui);
      expect(toLogin.url).toBe(`${urls.ui}/auth/login?appId=${demo.appId}`);
      await logIn(target(), browser, owner.email, owner.password);
    });
    const callback = await on('b', async () => {
      const acme = (await workspaces(target(), browser)).find((workspace) => workspace.tenant.name === 'Acme')!;
      return choose(target(), browser, acme.id, callbackUri(target()));
    });
    const tokens = await on('b', () =>
      client.authorizationCodeGrant(rp, new URL(callback), { pkceCodeVerifier: pending.verifier, expectedState: pending.state }),
    );
    expect(tokens.access_token).toEqual(expect.any(String));
    refreshToken = tokens.refresh_token!;
    // The access token B issued opens the API on A.
    const me = await on('a', async () =>
      (
        await fetch(`${urls.api}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.access_token}` },
          body: JSON.stringify({ query: '{ getMe { email } }' }),
        })
      ).json(),
    );
    expect(me).toEqual({ data: { getMe: { email: owner.email } } });
  });

  it('refresh on each instance a refresh token the other issued', async () => {
    for (const name of ['a', 'b', 'a', 'b'] as const) {
      const answer = await on(name, () => refresh(refreshToken));
      expect(answer.status, name).toBe(200);
      expect(answer.body.refresh_token).not.toBe(refreshToken);
      refreshToken = answer.body.refresh_token!;
    }
  });

  it(`share the login limit: ${LOGIN_FAILURES.max} wrong passwords in all, however the guesses are spread`, async () => {
    const email = `shared-limit-${randomUUID().slice(0, 8)}@example.com`;
    const password = 'Right-password-123!';
    const handle = handles[0]!;
    const userId = randomUUID();
    await handle.db
      .insert(users)
      .values({ id: userId, appId: demo.appId, email, passwordHash: await hashPassword(password), onboarded: true });
    const [acme] = await handle.db
      .select({ id: tenants.id })
      .from(tenants)
      .where(and(eq(tenants.appId, demo.appId), eq(tenants.name, 'Acme')));
    await handle.db.insert(tenantUsers).values({ id: randomUUID(), tenantId: acme!.id, userId, role: 'VIEWER' });

    const guess = (instance: Instance, attempt: string) =>
      fetch(`http://127.0.0.1:${instances[instance]!.ports.auth}/auth/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-app-id': demo.appId },
        body: JSON.stringify({ username: email, password: attempt }),
      }).then((response) => response.status);
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, index) => guess(index % 2 ? 'b' : 'a', `wrong-${index}`)));
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_FAILURES.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - LOGIN_FAILURES.max);
    expect(await guess('a', password)).toBe(429);
    expect(await guess('b', password)).toBe(429);
  });
});
