// Foyer as `npm start` runs it, in a child process of its own: for what an in-process server cannot
// show (kill -9 in the middle of writes, a restart on the same data) and for the load script, whose
// client must not share the server's event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionNodeArguments } from '../../../scripts/build-server.ts';
import type { DemoData } from '../../../server/seed/demo.ts';
import { freePort } from '../../../server/testing.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ChildFoyer {
  urls: { auth: string; api: string; ui: string };
  demo: DemoData;
  /** stdout and stderr so far. */
  output(): string;
  /** SIGTERM, and waits for the clean exit. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs, as in a power cut or an OOM kill. */
  kill(): Promise<void>;
}

export interface ChildOptions {
  dataDir: string;
  /** PostgreSQL instead of PGlite in dataDir. */
  databaseUrl?: string;
  /** The same ports as a previous run on this data: its demo.json names them. */
  ports?: { auth: number; api: number; ui: number };
  env?: Record<string, string>;
  /** The production bundle (dist/server/main.js, scripts/build-server.ts) under plain node as `npm run start:prod` runs it, instead of server/main.ts under tsx. */
  built?: boolean;
}

export async function spawnFoyer(options: ChildOptions): Promise<ChildFoyer & { ports: { auth: number; api: number; ui: number } }> {
  const ports = options.ports ?? { auth: await freePort(), api: await freePort(), ui: await freePort() };
  const args = options.built ? productionNodeArguments() : ['--import', 'tsx', 'server/main.ts'];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      FOYER_ENV: 'development',
      NODE_ENV: '',
      FOYER_HOST: '127.0.0.1',
      FOYER_DATA_DIR: options.dataDir,
      FOYER_AUTH_PORT: String(ports.auth),
      FOYER_API_PORT: String(ports.api),
      FOYER_UI_PORT: String(ports.ui),
      // Each child its own development identity provider, never the default port another process holds.
      FOYER_DEV_IDP_PORT: String(await freePort()),
      LOG_LEVEL: 'error',
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : { DATABASE_URL: '' }),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Foyer did not start:\n${output}`)), 90_000);
    const poll = setInterval(() => {
      if (output.includes('Foyer is running') || child.exitCode !== null) {
        clearTimeout(timer);
        clearInterval(poll);
        if (child.exitCode !== null) reject(new Error(`Foyer exited with ${child.exitCode}:\n${output}`));
        else resolve();
      }
    }, 50);
  });
  const demo = JSON.parse(await readFile(path.join(options.dataDir, 'demo.json'), 'utf8')) as DemoData;
  const urls = { auth: `http://localhost:${ports.auth}`, api: `http://localhost:${ports.api}`, ui: `http://localhost:${ports.ui}` };
  return {
    urls,
    ports,
    demo,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
