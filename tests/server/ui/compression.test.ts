// Every text answer of the listeners goes out compressed when the client accepts it (brotli first,
// then gzip), through the same hook on each listener (server/http/listener.ts); built assets the
// build compressed (scripts/precompress.ts) go out as those copies; built assets whose name carries
// Vite's content hash are cached for a year, pages are revalidated on every load.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressFolder } from '../../../scripts/precompress.ts';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { findMembership, mintAccessToken } from '../support/tokens.ts';

let foyer: TestFoyer;
let dist: string;

const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, index) => `word-${index}`))};\n`;
const HASHED = '/assets/index-Bq3_x-9Z.js';
const PRECOMPRESSED = '/assets/start-C4Vpc6gA.js';
const STYLESHEET = '/assets/index-DmefDCpu.css';
/** Below @fastify/compress's 1 KiB threshold, like the login page's entry script. */
const SMALL_SCRIPT = '/assets/main-Ci480F-B.js';
const SMALL = `import('./start-C4Vpc6gA.js').then((start) => start.run(document.getElementById('root')));\n`;
const STYLES = Array.from({ length: 300 }, (_, index) => `.field-${index} { margin: ${index}px; }`).join('\n');

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'foyer-ui-'));
  await mkdir(path.join(dist, 'assets'));
  await mkdir(path.join(dist, 'configurator'));
  // As large as a drawn page with its texts and stylesheet inlined (some 50 KB).
  const page = `<!doctype html><title>Foyer</title><!--foyer-config--><main>${Array.from({ length: 2500 }, (_, index) => `<p>Sign in ${index}</p>`).join('')}</main>`;
  await writeFile(path.join(dist, 'index.html'), page);
  await writeFile(path.join(dist, 'configurator', 'index.html'), page);
  await writeFile(path.join(dist, `.${HASHED}`), SCRIPT);
  await writeFile(path.join(dist, `.${HASHED}.map`), JSON.stringify({ version: 3, mappings: 'A'.repeat(4000) }));
  await writeFile(path.join(dist, 'assets', 'unhashed.js'), SCRIPT);
  // As the build leaves them: written, then compressed.
  await writeFile(path.join(dist, `.${PRECOMPRESSED}`), SCRIPT);
  await writeFile(path.join(dist, `.${STYLESHEET}`), STYLES);
  await writeFile(path.join(dist, `.${SMALL_SCRIPT}`), SMALL);
  const compressed = await precompressFolder(dist);
  // Not the source map (development only) nor the page (never served as a file).
  expect(compressed.map((file) => `/${path.relative(dist, file)}`).sort()).toEqual(
    [STYLESHEET, PRECOMPRESSED, HASHED, '/assets/unhashed.js', SMALL_SCRIPT].sort(),
  );
  foyer = await startFoyer({ uiDist: dist });
});

afterAll(async () => {
  await foyer?.close();
  await rm(dist, { recursive: true, force: true });
});

const decode: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

/** An accept-encoding header and the encoding the answer must come in. */
const ENCODING_CHOICES = [
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['gzip, deflate, br', 'br'],
  ['gzip;q=1, br;q=0.5', 'gzip'],
] as const;

/** The answer to `request` for each accept-encoding: each compressed as asked, all with the same text. */
async function expectCompressed(
  listener: FastifyInstance,
  request: { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string },
) {
  const plain = await listener.inject({ ...request, headers: { ...request.headers, 'accept-encoding': 'identity' } });
  expect(plain.statusCode, request.url).toBe(200);
  expect(plain.headers['content-encoding'], request.url).toBeUndefined();
  expect(plain.rawPayload.length, `${request.url} is big enough to compress`).toBeGreaterThan(1024);
  for (const [accepted, expected] of ENCODING_CHOICES) {
    const response = await listener.inject({ ...request, headers: { ...request.headers, 'accept-encoding': accepted } });
    expect(response.statusCode, `${request.url} ${accepted}`).toBe(200);
    expect(response.headers['content-encoding'], `${request.url} ${accepted}`).toBe(expected);
    expect(response.headers.vary, request.url).toMatch(/accept-encoding/i);
    expect(response.rawPayload.length, `${request.url} ${accepted}`).toBeLessThan(plain.rawPayload.length);
    expect(decode[expected]!(response.rawPayload).toString('utf8'), `${request.url} ${accepted}`).toBe(plain.body);
  }
  return plain;
}

describe('compressed answers', () => {
  it('compresses the hosted UI pages, which browsers revalidate on every load', async () => {
    for (const url of ['/', '/auth/login', '/configurator']) {
      const page = await expectCompressed(foyer.foyer.ui, { url, headers: { accept: 'text/html' } });
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.rawPayload.length, url).toBeGreaterThan(40_000);
      // Compressed in one piece, as it is drawn: sent whole, with its length, not streamed through zlib's threads.
      for (const accepted of ['br', 'gzip']) {
        const compressed = await foyer.foyer.ui.inject({ url, headers: { accept: 'text/html', 'accept-encoding': accepted } });
        expect(compressed.headers['content-length'], `${url} ${accepted}`).toBe(String(compressed.rawPayload.length));
        expect(compressed.headers['transfer-encoding'], `${url} ${accepted}`).toBeUndefined();
      }
    }
  });

  it('compresses built assets; hashed ones are immutable for a year, others are revalidated hourly', async () => {
    for (const url of [HASHED, `${HASHED}.map`]) {
      const asset = await expectCompressed(foyer.foyer.ui, { url });
      expect(asset.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
    }
    const unhashed = await expectCompressed(foyer.foyer.ui, { url: '/assets/unhashed.js' });
    expect(unhashed.body).toBe(SCRIPT);
    expect(unhashed.headers['cache-control']).toBe('public, max-age=3600');
  });

  it("sends the build's brotli and gzip copies as they are, the file itself to a client that accepts neither", async () => {
    for (const [url, text] of [
      [PRECOMPRESSED, SCRIPT],
      [STYLESHEET, STYLES],
      // A file streamed to @fastify/compress is compressed whatever its size, on every request.
      [SMALL_SCRIPT, SMALL],
    ] as const) {
      const copies = {
        br: await readFile(path.join(dist, `.${url}.br`)),
        gzip: await readFile(path.join(dist, `.${url}.gz`)),
      };
      for (const [accepted, expected] of ENCODING_CHOICES) {
        const response = await foyer.foyer.ui.inject({ url, headers: { 'accept-encoding': accepted } });
        expect(response.statusCode, `${url} ${accepted}`).toBe(200);
        expect(response.headers['content-encoding'], `${url} ${accepted}`).toBe(expected);
        expect(response.headers['content-type'], url).toMatch(url.endsWith('.css') ? /^text\/css/ : /^application\/javascript/);
        expect(response.headers['cache-control'], `${url} ${accepted}`).toBe('public, max-age=31536000, immutable');
        expect(response.headers.vary, url).toMatch(/accept-encoding/i);
        // The copy itself, byte for byte (not compressed again at the server's lower level), and the same text.
        expect(response.rawPayload.equals(copies[expected]), `${url} ${accepted}`).toBe(true);
        expect(decode[expected]!(response.rawPayload).toString('utf8'), `${url} ${accepted}`).toBe(text);
      }
      // A copy goes out only in place of its file, never by its own name.
      for (const copy of [`${url}.br`, `${url}.gz`]) {
        expect((await foyer.foyer.ui.inject({ url: copy, headers: { 'accept-encoding': 'br, gzip' } })).statusCode, copy).toBe(404);
      }
      for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
        const plain = await foyer.foyer.ui.inject({ url, headers });
        expect(plain.statusCode, url).toBe(200);
        expect(plain.headers['content-encoding'], url).toBeUndefined();
        expect(plain.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
        expect(plain.body, url).toBe(text);
      }
    }
  });

  it('compresses GraphQL answers on the API host', async () => {
    const membership = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
    const token = await mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth });
    const schema = await expectCompressed(foyer.foyer.api, {
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify({ query: '{ __schema { types { name fields { name } } } }' }),
    });
    expect(JSON.parse(schema.body).errors).toBeUndefined();
  });

  it("compresses the OpenID Provider's own answers on the auth host", async () => {
    const discovery = await expectCompressed(foyer.foyer.auth, { url: '/.well-known/openid-configuration' });
    expect(JSON.parse(discovery.body).issuer).toBe(foyer.urls.auth);
  });

  it('leaves small answers and clients that accept no encoding alone', async () => {
    const small = await foyer.foyer.api.inject({
      url: '/graphql',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br' },
      payload: '{"query":"{ __typename }"}',
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    const none = await foyer.foyer.ui.inject({ url: '/auth/login' });
    expect(none.headers['content-encoding']).toBeUndefined();
  });
});
