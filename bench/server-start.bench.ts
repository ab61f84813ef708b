// Start to first answer of the production server (dist/server/main.js under plain node with the flags
// `npm run start:prod` gives it, in production) on an existing data folder, beside its floor, a bare
// Fastify process answering on one port. Both are new processes timed from spawn until a request to
// their last listener answers; they take turns. The data folder is made once, by a first start in
// development that migrates and seeds the demo app, whose page the first answer draws. Then the
// resident memory of the started server after a few idle seconds, beside a Node process that holds
// Foyer's database (the data folder's pgdata/) open in PGlite, started as Foyer starts it
// (server/db/client.ts pgliteOptions), and answers HTTP (Linux: read from /proc); the two take turns.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../scripts/build-server.ts';
import { pgliteOptions } from '../server/db/client.ts';
import { freePort } from '../server/testing.ts';
import { median, spreadOf } from './measure.ts';
import { modeEnvironment, productionServerSetup, spawnUntilAnswering } from './processes.ts';
import type { BenchEntry } from './types.ts';

const RUNS = 5;
/**
 * Resident memory moves from one start to the next, the floor's most (173 to 200 MiB one evening):
 * one sample of each moved their ratio by a tenth (docs/benchmarks.md).
 */
const MEMORY_RUNS = 3;

const BARE_FASTIFY = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/', async () => 'ok');
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

const PGLITE_ALONE = `
import { createServer } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const db = await PGlite.create(process.env.FOYER_DATA_DIR + '/pgdata', {
  extensions: { pg_trgm },
  startParams: JSON.parse(process.env.PGLITE_START_PARAMS),
});
await db.query('select count(*) from apps');
createServer((_request, response) => response.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');
`;
const IDLE_MS = 3000;

/** Resident memory of process `pid` in KiB, from /proc. */
async function residentKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]);
}

/**
 * Milliseconds from spawning `args` until `url` answers, or, with `idleThenMemory`, its resident KiB
 * that long after; then SIGTERM and wait for the exit.
 */
async function startToFirstAnswer(args: string[], env: Record<string, string>, url: string, idleThenMemory?: number): Promise<number> {
  const spawned = await spawnUntilAnswering(args, env, url);
  try {
    if (idleThenMemory === undefined) return spawned.elapsed;
    await new Promise((resolve) => setTimeout(resolve, idleThenMemory));
    return await residentKiB(spawned.child.pid!);
  } finally {
    await spawned.stop();
  }
}

const entry: BenchEntry = {
  title: 'server start',
  async run() {
    await buildServer();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'foyer-bench-start-'));
    try {
      const { args, env, firstAnswerUrl: foyerUrl } = await productionServerSetup(dataDir, 'production');
      const seeding = { ...env, ...modeEnvironment('development') };
      const start = () => startToFirstAnswer(args, env, foyerUrl);
      const barePort = await freePort();
      const bare = () =>
        startToFirstAnswer(['--input-type=module', '-e', BARE_FASTIFY], { PORT: String(barePort) }, `http://127.0.0.1:${barePort}/`);

      // Migrates and seeds the demo app, which every timed start (in production) finds and serves.
      await startToFirstAnswer(args, seeding, foyerUrl);
      await bare();
      const values: number[] = [];
      const floors: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        values.push(await start());
        floors.push(await bare());
      }
      const memoryFloor = () =>
        startToFirstAnswer(
          ['--input-type=module', '-e', PGLITE_ALONE],
          { PORT: String(barePort), FOYER_DATA_DIR: dataDir, PGLITE_START_PARAMS: JSON.stringify(pgliteOptions.startParams) },
          `http://127.0.0.1:${barePort}/`,
          IDLE_MS,
        );
      const memories: number[] = [];
      const memoryFloors: number[] = [];
      for (let i = 0; i < MEMORY_RUNS; i += 1) {
        memories.push((await startToFirstAnswer(args, env, foyerUrl, IDLE_MS)) / 1024);
        memoryFloors.push((await memoryFloor()) / 1024);
      }
      return [
        {
          name: 'start to first answer, built server, existing data folder',
          value: median(values),
          unit: 'ms',
          spread: spreadOf(values),
          floor: { name: 'bare Fastify process', value: median(floors) },
        },
        {
          name: `resident memory ${IDLE_MS / 1000} s after start, idle`,
          value: median(memories),
          unit: 'MiB',
          spread: spreadOf(memories),
          floor: { name: 'Node with PGlite alone on the same data folder', value: median(memoryFloors) },
        },
      ];
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};

export default entry;
