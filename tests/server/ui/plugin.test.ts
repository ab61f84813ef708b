// The hosted UI serves two pages from one build: the runtime and the configurator, each with its own
// injected config. Runtime pages may be framed by the same origin (the configurator's preview);
// configurator pages by nobody.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';

const PAGE = (title: string) => `<!doctype html><html><head><title>${title}</title><!--foyer-config--></head><body></body></html>`;

let foyer: TestFoyer;
let dist: string;

function injectedConfig(html: string): Record<string, unknown> {
  const match = /<script id="foyer-config" type="application\/json">(.*?)<\/script>/.exec(html);
  if (!match) throw new Error(`no injected config in ${html}`);
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

/** Every fetch-capable directive names Foyer's own origins (and data: images) only: no https: wildcard. */
function expectOwnOriginsOnly(csp: string) {
  expect(csp).toContain(`img-src 'self' data: ${foyer.urls.api};`);
  expect(csp).toContain("default-src 'self';");
  // A drawn runtime page's hashes of its inline stylesheets (server/ui/first-paint.ts) name no origin.
  const sources = csp
    .split(';')
    .flatMap((directive) => directive.trim().split(/\s+/).slice(1))
    .filter((source) => !/^'sha256-[A-Za-z0-9+/]{43}='$/.test(source));
  const allowed = new Set(["'self'", "'none'", 'data:', foyer.urls.api, foyer.urls.auth]);
  expect(sources.filter((source) => !allowed.has(source))).toEqual([]);
}

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'foyer-ui-'));
  await mkdir(path.join(dist, 'configurator'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), PAGE('runtime'));
  await writeFile(path.join(dist, 'configurator', 'index.html'), PAGE('configurator'));
  await writeFile(path.join(dist, 'assets', 'app.js'), 'export {};');
  await writeFile(path.join(dist, 'assets', 'app.js.map'), '{"version":3}');
  foyer = await startFoyer({ uiDist: dist });
});

afterAll(async () => {
  await foyer?.close();
  await rm(dist, { recursive: true, force: true });
});

describe('hosted UI pages', () => {
  it('serves the configurator under /configurator with the console config and frame-ancestors none', async () => {
    for (const route of ['/configurator', '/configurator/', '/configurator/apps', '/configurator/apps/some-app/branding']) {
      const response = await fetch(`${foyer.urls.ui}${route}`);
      expect(response.status, route).toBe(200);
      const html = await response.text();
      expect(html, route).toContain('<title>configurator</title>');
      expect(injectedConfig(html)).toEqual({
        consoleAppId: foyer.demo.consoleAppId,
        authUrl: foyer.urls.auth,
        apiUrl: foyer.urls.api,
        uiUrl: foyer.urls.ui,
        env: foyer.config.env,
      });
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, route).toContain("frame-ancestors 'none'");
      expectOwnOriginsOnly(csp);
    }
  });

  it('keeps runtime pages frameable by the same origin only, with the app config', async () => {
    for (const route of ['/', '/auth/login', '/auth/login?appId=x&preview=1', '/configurators']) {
      const response = await fetch(`${foyer.urls.ui}${route}`);
      expect(response.status, route).toBe(200);
      const html = await response.text();
      expect(html, route).toContain('<title>runtime</title>');
      expect(injectedConfig(html).appId).toBe(foyer.demo.appId);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, route).toContain("frame-ancestors 'self'");
      expect(csp).not.toContain("frame-ancestors 'none'");
      expectOwnOriginsOnly(csp);
      expect(response.headers.get('x-content-type-options'), route).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), route).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('cross-origin-opener-policy'), route).toBe('same-origin');
    }
  });

  it("sends a handover page with no Referer policy, so its code never rides along on the page's own requests", async () => {
    const response = await fetch(`${foyer.urls.ui}/handover/go?flow=user-management-users&args=e30`);
    expect(response.status).toBe(200);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('never sends a page without its config, and keeps real 404s for missing files', async () => {
    for (const route of ['/index.html', '/configurator/index.html', '/assets/missing.js']) {
      expect((await fetch(`${foyer.urls.ui}${route}`)).status, route).toBe(404);
    }
    const asset = await fetch(`${foyer.urls.ui}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('export {};');
  });

  it('serves source maps in development, and no HSTS over http', async () => {
    const map = await fetch(`${foyer.urls.ui}/assets/app.js.map`);
    expect(map.status).toBe(200);
    expect(await map.text()).toBe('{"version":3}');
    expect(map.headers.get('strict-transport-security')).toBeNull();
  });
});
