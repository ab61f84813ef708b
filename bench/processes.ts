// Servers the bench starts as processes of their own: Foyer's production server as `npm run start:prod`
// runs it (dist/server/main.js under plain node with the flags package.json gives it) and the floors'
// bare processes. A figure of a server that runs inside the bench's own process would count the bench's
// work (Playwright's client, the timing loop) as the server's, and the server's as the bench's.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { productionNodeArguments } from '../scripts/build-server.ts';
import { freePort } from '../server/testing.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Spawned {
  child: ChildProcess;
  /** Milliseconds from the spawn until `url` answered. */
  elapsed: number;
  /** SIGTERM, then the exit. */
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    await (await fetch(url)).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/** Node with `args` (from the repository's folder), once `url` answers. */
export async function spawnUntilAnswering(args: string[], env: Record<string, string>, url: string): Promise<Spawned> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  try {
    while (!(await answers(url))) {
      if (child.exitCode !== null) throw new Error(`${args[0]} exited with ${child.exitCode}: ${errors.slice(-500)}`);
      if (performance.now() - started > 60_000) throw new Error(`${args[0]} did not answer within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, elapsed: performance.now() - started, stop };
}

export interface ProductionServer extends Spawned {
  urls: { auth: string; api: string; ui: string };
  /** The environment it was started with (its data folder and ports), to start it again alike. */
  env: Record<string, string>;
}

/**
 * Seals the data folder's signing keys in every start the bench makes, development or production
 * (which refuses the built-in development secret), so one folder serves both.
 */
const BENCH_SECRET = 'foyer-bench-secret-0123456789abcdef';

/** What makes a start of the built server a development or a production one. */
export function modeEnvironment(mode: 'development' | 'production') {
  return { FOYER_ENV: mode, NODE_ENV: mode === 'production' ? 'production' : '' };
}

/**
 * How the built server is started on free ports and the data folder `dataDir`, to start it alike
 * again: in development, or in production as `npm run start:prod` runs it, which serves the app
 * a development start seeded on the same folder.
 */
export async function productionServerSetup(dataDir: string, mode: 'development' | 'production' = 'development') {
  const ports = { auth: await freePort(), api: await freePort(), ui: await freePort(), devIdp: await freePort() };
  const env = {
    ...modeEnvironment(mode),
    FOYER_SECRET: BENCH_SECRET,
    DATABASE_URL: '',
    FOYER_DATA_DIR: dataDir,
    FOYER_AUTH_PORT: String(ports.auth),
    FOYER_API_PORT: String(ports.api),
    FOYER_UI_PORT: String(ports.ui),
    FOYER_DEV_IDP_PORT: String(ports.devIdp),
    LOG_LEVEL: 'error',
  };
  const urls = { auth: `http://localhost:${ports.auth}`, api: `http://localhost:${ports.api}`, ui: `http://localhost:${ports.ui}` };
  // The UI listener is the last to listen (server/app.ts).
  return { args: productionNodeArguments(), env, urls, firstAnswerUrl: `http://127.0.0.1:${ports.ui}/` };
}

/**
 * The built server (`npm run build`) on free ports and the data folder `dataDir`, migrated and seeded
 * with the demo apps on its first start: FOYER_ENV=development, as the demo seed needs, which changes
 * nothing the hosted UI serves but its source maps.
 */
export async function startProductionServer(dataDir: string): Promise<ProductionServer> {
  const { args, env, urls, firstAnswerUrl } = await productionServerSetup(dataDir);
  const spawned = await spawnUntilAnswering(args, env, firstAnswerUrl);
  return { ...spawned, urls, env };
}
