// The production server (`npm run build:server`, then `npm run start:prod`): the bundle runs under
// plain node, without tsx, and behaves as server/main.ts does: a first start migrates and seeds, a
// restart on the same data folder serves the same app, a password sign-in (argon2id, login session,
// audit), the OpenAPI document (@fastify/swagger, bundled), the GraphQL API and a passkey sign-in's
// options answer (the last two from chunks loaded on first use), and SIGTERM stops it cleanly.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';
import { DEMO_PASSWORD } from '../../server/seed/demo.ts';
import { spawnFoyer, type ChildFoyer } from './support/child-server.ts';

let dataDir: string;
const running: ChildFoyer[] = [];

beforeAll(async () => {
  await buildServer();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'foyer-built-'));
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((child) => child.kill()));
  await rm(dataDir, { recursive: true, force: true });
});

async function signIn(child: ChildFoyer, password: string): Promise<number> {
  const response = await fetch(`${child.urls.auth}/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': child.demo.appId, origin: child.urls.ui },
    body: JSON.stringify({ username: 'owner@demo.foyer.test', password }),
  });
  return response.status;
}

describe('the built server', () => {
  it('starts under plain node on a new data folder, restarts on it, and serves the same app', async () => {
    const first = await spawnFoyer({ dataDir, built: true });
    running.push(first);
    expect(first.output()).toContain('Foyer is running (development)');
    expect(first.output()).not.toMatch(/tsx/);
    await first.stop();

    const second = await spawnFoyer({ dataDir, built: true, ports: first.ports });
    running.push(second);
    expect(second.demo.appId).toBe(first.demo.appId);

    const discovery = await fetch(`${second.urls.auth}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect((await discovery.json()).issuer).toBe(second.urls.auth);

    const config = await fetch(`${second.urls.api}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': second.demo.appId },
      body: JSON.stringify({ query: '{ getAppAnonymous { name tenantSelfSignup } }' }),
    });
    expect(await config.json()).toEqual({ data: { getAppAnonymous: { name: 'Demo app', tenantSelfSignup: true } } });

    const openApi = await fetch(`${second.urls.api}/openapi.json`);
    expect(openApi.status).toBe(200);
    const document = await openApi.json();
    expect(document.info.title).toBe('Foyer API');
    expect(document.paths['/auth/authenticate'].servers).toEqual([{ url: second.urls.auth }]);

    const passkeyOptions = await fetch(`${second.urls.auth}/auth/passkeys/authentication-options`, {
      headers: { 'x-app-id': second.demo.appId },
    });
    expect(passkeyOptions.status).toBe(200);
    expect(await passkeyOptions.json()).toMatchObject({ rpId: new URL(second.urls.ui).hostname, challenge: expect.any(String) });

    expect(await signIn(second, DEMO_PASSWORD)).toBe(200);
    expect(await signIn(second, `${DEMO_PASSWORD}x`)).toBe(401);

    await second.stop();
    expect(second.output()).toContain('SIGTERM: stopping Foyer');
    expect(JSON.parse(await readFile(path.join(dataDir, 'demo.json'), 'utf8')).appId).toBe(first.demo.appId);
  }, 120_000);
});
