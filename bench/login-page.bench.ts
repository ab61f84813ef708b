// The hosted login page in the Chromium the browser tests use: from navigation until its e-mail field
// is visible and typeable, in a fresh browser context each time (a first visit: nothing cached),
// beside its floor, a static HTML page with the same form served by a bare Node HTTP server on the
// same machine, and beside the same page sent with the header that isolates Foyer's pages
// (ISOLATED_PATH). All are timed in turns, unthrottled, at 4× CPU throttling and on a 40 ms / 10 Mbit/s
// network (Chromium's own emulation through the DevTools protocol). The hosted UI is the build in
// dist/ui, made by `npm run build` when it is missing, served by the production server as
// `npm run start:prod` runs it, in a process of its own (bench/processes.ts): inside the bench's
// process, the server's work (its answers, their compression) and Playwright's client (whose
// animation-frame poll answers through the same event loop) would wait for each other and count
// as the page's time. Last, that server's CPU time per drawn page (drawnPageCpu).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http, { createServer } from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser.ts';
import { buildServer } from '../scripts/build-server.ts';
import { freePort } from '../server/testing.ts';
import { compareProcessCpuMs, median, spreadOf } from './measure.ts';
import { spawnUntilAnswering, startProductionServer, type ProductionServer } from './processes.ts';
import type { BenchEntry, Figure } from './types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 9;
const EMAIL_FIELD = 'input[type=email]:not([disabled])';

/**
 * True once `selector` names a laid-out, visible element. Checked in the page on every animation frame
 * (Playwright's `polling: 'raf'`), so on the page's main thread, as a keystroke is handled: a long task
 * delays it alike. `waitForSelector` polls from Node instead, after 0, 20, 50, 100, 100 and then every
 * 500 ms, so a field ready 180 ms after navigation was seen at 270 ms, and the figure moved in those steps.
 */
function fieldShown(selector: string): boolean {
  const element = document.querySelector(selector);
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true });
}

const STATIC_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in</title></head>
<body><main><h1>Sign in</h1><form><label for="email">Email</label><input id="email" type="email" autocomplete="email" required><button>Continue</button></form></main></body></html>`;

/**
 * The static page's address sent with the header Foyer's pages carry (server/ui/plugin.ts), which
 * puts them in a browsing context group of their own: a first visit in a fresh tab then starts a new
 * renderer process, which the bare page's visit does not (docs/benchmarks.md).
 */
const ISOLATED_PATH = '/isolated';

interface Conditions {
  name: string;
  cpuRate?: number;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}

const CONDITIONS: Conditions[] = [
  { name: 'unthrottled' },
  { name: '4× CPU throttling', cpuRate: 4 },
  {
    name: '40 ms, 10 Mbit/s',
    network: { latency: 40, downloadThroughput: (10 * 1024 * 1024) / 8, uploadThroughput: (10 * 1024 * 1024) / 8 },
  },
];

/** Milliseconds from navigating a fresh context to `url` until its e-mail field can be typed in. */
async function untilTypeable(browser: Browser, url: string, conditions: Conditions): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    if (conditions.cpuRate) await session.send('Emulation.setCPUThrottlingRate', { rate: conditions.cpuRate });
    if (conditions.network) {
      await session.send('Network.enable');
      await session.send('Network.emulateNetworkConditions', { offline: false, ...conditions.network });
    }
    const started = performance.now();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(fieldShown, EMAIL_FIELD, { polling: 'raf' });
    const elapsed = performance.now() - started;
    await page.fill(EMAIL_FIELD, 'ada@example.com');
    return elapsed;
  } finally {
    await context.close();
  }
}

/** A bare Node HTTP server answering every request with the file PAGE_FILE, sent as CONTENT_ENCODING. */
const SAME_BYTES = `
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const body = readFileSync(process.env.PAGE_FILE);
const headers = { 'content-type': 'text/html; charset=utf-8', 'content-encoding': process.env.CONTENT_ENCODING, 'content-length': body.length };
createServer((_request, response) => response.writeHead(200, headers).end(body)).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Chromium's accept-encoding, with which the hosted UI answers in brotli. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/**
 * The production server's CPU time per drawn login page, asked for as Chromium asks (brotli), beside a
 * bare Node HTTP server in a process of its own sending the same bytes: both over one kept-alive
 * connection, the bytes read but not decoded.
 */
async function drawnPageCpu(foyer: ProductionServer, loginUrl: string): Promise<Figure> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url: string) =>
    new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      http
        .get(url, { agent, headers: { accept: 'text/html', 'accept-encoding': BROWSER_ENCODINGS } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            response.statusCode === 200
              ? resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) })
              : reject(new Error(`${url} answered ${response.statusCode}`)),
          );
        })
        .on('error', reject);
    });
  const page = await get(loginUrl);
  if (page.encoding !== 'br') throw new Error(`the login page came ${page.encoding ?? 'uncompressed'}, not in brotli`);
  const folder = await mkdtemp(path.join(os.tmpdir(), 'foyer-bench-page-'));
  const pageFile = path.join(folder, 'login.html.br');
  await writeFile(pageFile, page.body);
  const port = await freePort();
  const bareUrl = `http://127.0.0.1:${port}/auth/login`;
  const bare = await spawnUntilAnswering(
    ['--input-type=module', '-e', SAME_BYTES],
    { PORT: String(port), PAGE_FILE: pageFile, CONTENT_ENCODING: page.encoding },
    bareUrl,
  );
  try {
    const cpu = await compareProcessCpuMs(
      { pid: foyer.child.pid!, call: () => get(loginUrl) },
      { pid: bare.child.pid!, call: () => get(bareUrl) },
    );
    return {
      name: '/auth/login drawn page, server CPU time per page (brotli)',
      value: cpu.value,
      unit: 'ms',
      spread: cpu.spread,
      floor: { name: 'bare Node HTTP server sending the same bytes', value: cpu.floor },
    };
  } finally {
    agent.destroy();
    await bare.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

const entry: BenchEntry = {
  title: 'login page',
  async run() {
    if (!existsSync(path.join(ROOT, 'dist/ui/index.html'))) execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
    const staticServer = createServer((request, response) => {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        ...(request.url === ISOLATED_PATH ? { 'cross-origin-opener-policy': 'same-origin' } : {}),
      });
      response.end(STATIC_PAGE);
    });
    await new Promise<void>((resolve) => staticServer.listen(0, '127.0.0.1', resolve));
    const staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/`;
    const isolatedStaticUrl = new URL(ISOLATED_PATH, staticUrl).href;
    await buildServer();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'foyer-bench-login-'));
    const [foyer, browser] = await Promise.all([startProductionServer(dataDir), launchBrowser()]);
    try {
      const loginUrl = `${foyer.urls.ui}/auth/login`;
      const figures: Figure[] = [];
      for (const conditions of CONDITIONS) {
        const urls = [loginUrl, staticUrl, isolatedStaticUrl];
        for (const url of urls) await untilTypeable(browser, url, conditions);
        const values: number[] = [];
        const floors: number[] = [];
        const isolatedFloors: number[] = [];
        for (let i = 0; i < RUNS; i += 1) {
          values.push(await untilTypeable(browser, loginUrl, conditions));
          floors.push(await untilTypeable(browser, staticUrl, conditions));
          isolatedFloors.push(await untilTypeable(browser, isolatedStaticUrl, conditions));
        }
        const figure = { value: median(values), unit: 'ms', spread: spreadOf(values) } as const;
        figures.push(
          {
            name: `/auth/login e-mail field typeable, first visit, ${conditions.name}`,
            ...figure,
            floor: { name: 'static HTML page with the same form', value: median(floors) },
          },
          {
            name: `/auth/login e-mail field typeable, first visit, ${conditions.name}, against a floor isolated alike`,
            ...figure,
            floor: { name: 'the same static page, sent with Cross-Origin-Opener-Policy: same-origin', value: median(isolatedFloors) },
          },
        );
      }
      figures.push(await drawnPageCpu(foyer, loginUrl));
      return figures;
    } finally {
      await browser.close();
      await foyer.stop();
      staticServer.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};

export default entry;
