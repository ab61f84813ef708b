// A production deployment behind https: no source maps on the hosted UI (they would publish the
// runtime's source), and every origin whose public URL is https tells browsers to stay on https.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startFoyer, type TestFoyer } from '../../../server/testing.ts';

let foyer: TestFoyer;
let dist: string;
/** Where the listeners really answer: the public URLs are the https ones a proxy would publish. */
let local: { auth: string; api: string; ui: string };

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'foyer-ui-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>runtime</title><!--foyer-config-->');
  await writeFile(path.join(dist, 'assets', 'app.js'), 'export {};\n//# sourceMappingURL=app.js.map');
  await writeFile(path.join(dist, 'assets', 'app.js.map'), '{"version":3,"sources":["../../src/secret.ts"]}');
  const ports = { auth: await freePort(), api: await freePort(), ui: await freePort() };
  local = { auth: `http://localhost:${ports.auth}`, api: `http://localhost:${ports.api}`, ui: `http://localhost:${ports.ui}` };
  foyer = await startFoyer({
    env: 'production',
    uiDist: dist,
    ports,
    urls: { auth: 'https://auth.foyer.example', api: 'https://api.foyer.example', ui: 'https://login.foyer.example' },
  });
});

afterAll(async () => {
  await foyer?.close();
  await rm(dist, { recursive: true, force: true });
});

describe('hosted UI in production', () => {
  it('never sends a source map, by any spelling, and still serves the scripts', async () => {
    for (const route of [
      '/assets/app.js.map',
      '/assets/app.js.MAP',
      '/assets/./app.js.map',
      '/assets/app.js.map?x=1',
      '/assets/app.js%2Emap',
      '/assets//app.js.map',
      '/assets/x/../app.js.map',
      '/assets/%2E%2E/assets/app.js.map',
    ]) {
      const response = await fetch(`${local.ui}${route}`);
      // Not found, or refused as a path no link names (a doubled slash), with a code that says which.
      expect([403, 404], route).toContain(response.status);
      const body = await response.text();
      expect(body, route).not.toContain('secret.ts');
      expect(JSON.parse(body).error, route).toBe(response.status === 403 ? 'FORBIDDEN' : 'NOT_FOUND');
    }
    expect((await fetch(`${local.ui}/assets/app.js`)).status).toBe(200);
  });
});

describe('HSTS', () => {
  it('every listener whose public URL is https sends Strict-Transport-Security, errors included', async () => {
    const answers = await Promise.all([
      fetch(`${local.ui}/auth/login`),
      fetch(`${local.ui}/assets/missing.js`),
      fetch(`${local.api}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      fetch(`${local.auth}/.well-known/openid-configuration`),
      fetch(`${local.auth}/no-such-path`),
    ]);
    for (const answer of answers) {
      expect(answer.headers.get('strict-transport-security'), answer.url).toBe('max-age=31536000');
    }
  });
});
