// How the hosted UI server puts a server entry's first paint into the runtime page
// (server/ui/first-paint.ts): escaped, Foyer's stylesheet and then the app's inline, each allowed by
// its hash in the CSP, the markup in #root; a drawing's page made and compressed once, and answered
// 304 to a browser that has it (server/ui/sent-page.ts);
// the runtime page without it when the entry fails, never a 500; the configurator page untouched.
// The entry here is a module of the test's own that answers what it is asked for (the real one, built
// from src/ssr/render.tsx, is driven in e2e/first-paint.e2e.ts).
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apps } from '../../../server/db/schema.ts';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';

const PAGE =
  '<!doctype html>\n<html lang="en">\n<head><title>Foyer</title><!--foyer-config--><link rel="stylesheet" crossorigin href="/assets/foyer.css"></head>' +
  '<body><div id="root"></div></body></html>';

const OWN_CSS = '.foyer-card{color:red}.x::after{content:"</style><script>alert(2)</script>"}';

const HOSTILE = '</script><script>alert(1)</script>"\'&';

// What the entry was asked, echoed back in its answer with how many drawings it made, and a failure
// for the address that asks for one.
const ENTRY = `
let drawings = 0;
export async function renderFirstPaint(request) {
  if (request.url.includes('explode')) throw new Error('the entry failed');
  const app = await request.loadApp(new URL(request.url, 'http://x').searchParams.get('appId') ?? request.clientConfig.appId);
  return {
    data: { drawing: ++drawings, asked: request.url, languages: request.preferredLanguages, app: app?.config.name ?? null, hostile: ${JSON.stringify(HOSTILE)} },
    markup: '<main><h1>Drawn</h1></main>',
    lang: 'de',
    dir: 'ltr',
    title: ${JSON.stringify(`Title ${HOSTILE}`)},
    stylesheet: ${JSON.stringify(`http://api.invalid/app/custom.css?"${HOSTILE}`)},
  };
}
`;

let foyer: TestFoyer;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'foyer-first-paint-'));
  const dist = path.join(root, 'ui');
  await mkdir(path.join(dist, 'configurator'), { recursive: true });
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'assets', 'foyer.css'), OWN_CSS);
  await mkdir(`${dist}-ssr`);
  await writeFile(path.join(dist, 'index.html'), PAGE);
  await writeFile(path.join(dist, 'configurator', 'index.html'), PAGE);
  await writeFile(path.join(`${dist}-ssr`, 'render.js'), ENTRY);
  foyer = await startFoyer({ uiDist: dist });
});

afterAll(async () => {
  await foyer?.close();
  await rm(root, { recursive: true, force: true });
});

/** The sources of a CSP's style-src. */
const styleSourcesOf = (csp: string) => /(?:^|;)style-src ([^;]*)/.exec(csp)![1]!.split(' ');

/** `'sha256-…'` of the text of each <style> element of `html`, as a CSP names it. */
const hashesOfStyles = (html: string) =>
  [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map(
    ([, text]) => `'sha256-${createHash('sha256').update(text!).digest('base64')}'`,
  );

async function page(address: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${foyer.urls.ui}${address}`, { headers: { accept: 'text/html', ...headers } });
  return { status: response.status, html: await response.text(), csp: response.headers.get('content-security-policy') ?? '' };
}

describe("the runtime page's first paint", () => {
  it('puts the drawing, the language, the title, the data and the stylesheet into the page, escaped', async () => {
    const { status, html } = await page('/auth/login?x=1', { 'accept-language': 'fr-CA, de;q=0.8, en;q=0.1' });
    expect(status).toBe(200);
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<title>Title &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;</title>');
    expect(html).toContain('<div id="root"><main><h1>Drawn</h1></main></div>');
    expect(html).not.toContain('<script>alert(1)');
    const data = /<script id="foyer-first-paint" type="application\/json">(.*?)<\/script>/.exec(html);
    expect(JSON.parse(data![1]!)).toEqual({
      drawing: expect.any(Number),
      asked: '/auth/login?x=1',
      languages: ['fr-CA', 'de', 'en'],
      app: 'Demo app',
      hostile: HOSTILE,
    });
    // Both stylesheets inline, the app's after Foyer's own so its tokens win.
    const drawn = await page('/auth/login');
    const own = drawn.html.indexOf(
      '<style>.foyer-card{color:red}.x::after{content:"<\\/style><script>alert(2)</script>"}</style>' +
        '<link rel="stylesheet" href="/assets/foyer.css" type="text/plain">',
    );
    const app = drawn.html.indexOf('<style id="foyer-custom-css">');
    expect(own).toBeGreaterThan(0);
    expect(app).toBeGreaterThan(own);
    // Each is allowed by the hash of its text in style-src, and nothing else inline is: no nonce.
    expect(styleSourcesOf(drawn.csp)).toEqual(["'self'", foyer.urls.api, ...hashesOfStyles(drawn.html)]);
    expect(hashesOfStyles(drawn.html)).toHaveLength(2);
    expect(drawn.csp).not.toContain('nonce');
    // Inside <style> only `</style` ends the element, so the script stays text of the rule.
    expect(drawn.html).not.toContain('</style><script>alert(2)');
  });

  it('reads the app the address names, and none for an id no app has', async () => {
    const other = await page(`/auth/login?appId=${foyer.demo.consoleAppId}`);
    expect(other.html).toContain('"app":"Foyer console"');
    const unknown = await page('/auth/login?appId=no-such-app');
    expect(unknown.status).toBe(200);
    expect(unknown.html).toContain('"app":null');
    // No app, no styles of one: the address the entry named stays a link, escaped.
    expect(unknown.html).toContain(
      '<link rel="stylesheet" id="foyer-custom-css" href="http://api.invalid/app/custom.css?&quot;&lt;/script&gt;',
    );
  });

  it('remembers the app an address named in a cookie of the UI host, and draws it when the address names none', async () => {
    const named = await fetch(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.consoleAppId}`, { headers: { accept: 'text/html' } });
    const cookie = named.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^foyer_app=${foyer.demo.consoleAppId}; Max-Age=31536000; Path=/; SameSite=Lax$`));
    const sent = { cookie: cookie.split(';')[0]! };
    expect((await page('/auth/signup', sent)).html).toContain('"app":"Foyer console"');
    // The address wins over the cookie; without the cookie the deployment's app is drawn.
    expect((await page(`/auth/login?appId=${foyer.demo.appId}`, sent)).html).toContain('"app":"Demo app"');
    expect((await page('/auth/login')).html).toContain('"app":"Demo app"');
    // A cookie naming no app gets the unknown-app answer, one no app id can be is ignored.
    const gone = await page('/auth/login', { cookie: 'foyer_app=no-such-app' });
    expect(gone.status).toBe(200);
    expect(gone.html).toContain('"app":null');
    expect((await page('/auth/login', { cookie: 'foyer_app=%3Cscript%3E' })).html).toContain('"app":"Demo app"');
  });

  it('remembers no app for the preview, the configurator or an address naming none', async () => {
    for (const address of [
      `/auth/login?appId=${foyer.demo.consoleAppId}&preview=1`,
      `/configurator?appId=${foyer.demo.consoleAppId}`,
      '/auth/login',
      '/auth/login?appId=%3Cscript%3E',
    ]) {
      const response = await fetch(`${foyer.urls.ui}${address}`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('draws an address once per languages and serves it again, the same page, until its app changes', async () => {
    const dataOf = (html: string) => JSON.parse(/<script id="foyer-first-paint" type="application\/json">(.*?)<\/script>/.exec(html)![1]!);
    const first = await page('/auth/login?kept=1', { 'accept-language': 'de' });
    const again = await page('/auth/login?kept=1', { 'accept-language': 'de' });
    expect(dataOf(again.html).drawing).toBe(dataOf(first.html).drawing);
    expect(again.html).toBe(first.html);
    expect(again.csp).toBe(first.csp);
    // Other languages, another address: drawings of their own.
    const french = await page('/auth/login?kept=1', { 'accept-language': 'fr' });
    expect(dataOf(french.html).drawing).toBeGreaterThan(dataOf(first.html).drawing);
    const other = await page('/auth/login?kept=2', { 'accept-language': 'de' });
    expect(dataOf(other.html).drawing).toBeGreaterThan(dataOf(french.html).drawing);
    // The app changes (its name, branding or texts): drawn again, with the change.
    await foyer.db.update(apps).set({ name: 'Renamed app' }).where(eq(apps.id, foyer.demo.appId));
    const renamed = await page('/auth/login?kept=1', { 'accept-language': 'de' });
    expect(dataOf(renamed.html)).toMatchObject({ app: 'Renamed app' });
    expect(dataOf(renamed.html).drawing).toBeGreaterThan(dataOf(other.html).drawing);
    await foyer.db.update(apps).set({ name: 'Demo app' }).where(eq(apps.id, foyer.demo.appId));
  });

  it('sends a drawn page in the encoding the browser prefers, brotli on a tie, each compressed once', async () => {
    const { html } = await page('/auth/login?encoded=1');
    const sent = (acceptEncoding?: string) =>
      foyer.foyer.ui.inject({ url: '/auth/login?encoded=1', headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
    const brotli = await sent('gzip, deflate, br, zstd');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(html);
    expect((await sent('gzip, deflate, br, zstd')).rawPayload.equals(brotli.rawPayload)).toBe(true);
    const gzip = await sent('br;q=0.5, gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(html);
    for (const plain of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const response = await sent(plain);
      expect(response.headers['content-encoding'], plain).toBeUndefined();
      expect(response.body, plain).toBe(html);
    }
  });

  it('answers 304 without the page to a browser that has these bytes already, and the page to any other', async () => {
    const sent = (headers: Record<string, string>) => foyer.foyer.ui.inject({ url: '/auth/login?tagged=1', headers });
    const brotli = await sent({ 'accept-encoding': 'br' });
    const etag = String(brotli.headers.etag);
    expect(etag).toMatch(/^"[\w-]{43}-br"$/);
    const gzipTag = String((await sent({ 'accept-encoding': 'gzip' })).headers.etag);
    const plainTag = String((await sent({})).headers.etag);
    expect(new Set([etag, gzipTag, plainTag]).size).toBe(3);
    for (const known of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await sent({ 'accept-encoding': 'br', 'if-none-match': known });
      expect(again.statusCode, known).toBe(304);
      expect(again.rawPayload.length, known).toBe(0);
      expect(again.headers.etag, known).toBe(etag);
      expect(again.headers['content-encoding'], known).toBeUndefined();
    }
    // Another encoding's bytes, another page, or a reload that asks past caches: the page.
    for (const [known, encoding] of [
      [gzipTag, 'br'],
      ['"other"', 'br'],
      [plainTag, 'gzip'],
    ]) {
      const response = await sent({ 'accept-encoding': encoding!, 'if-none-match': known! });
      expect(response.statusCode, known).toBe(200);
      expect(response.rawPayload.length, known).toBeGreaterThan(0);
    }
    expect((await sent({ 'accept-encoding': 'br', 'if-none-match': etag, 'cache-control': 'no-cache' })).statusCode).toBe(200);
    // The app changes: drawn again, so a browser's copy is no longer the page.
    await foyer.db.update(apps).set({ name: 'Tagged app' }).where(eq(apps.id, foyer.demo.appId));
    try {
      const changed = await sent({ 'accept-encoding': 'br', 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(brotliDecompressSync(changed.rawPayload).toString()).toContain('"app":"Tagged app"');
    } finally {
      await foyer.db.update(apps).set({ name: 'Demo app' }).where(eq(apps.id, foyer.demo.appId));
    }
  });

  it('serves the page without a first paint when the entry fails, never a 500', async () => {
    const { status, html } = await page('/auth/login?explode=1');
    expect(status).toBe(200);
    expect(html).toContain('<script id="foyer-config" type="application/json">');
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('foyer-first-paint');
  });

  it('leaves the configurator page alone', async () => {
    const { html } = await page('/configurator');
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('<html lang="en">');
    expect(html).not.toContain('foyer-first-paint');
  });
});
