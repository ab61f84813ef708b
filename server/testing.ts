// Starts a whole Foyer in-process for tests: fresh database (a clone of the run's migrated template),
// demo seed, three listeners on free loopback ports.
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { loadConfig, type ServerConfig } from './config.ts';
import { pgliteHandle, pgliteOptions, postgresHandle, type Database, type DatabaseHandle, type HandleOptions } from './db/client.ts';
import { createFoyer, type Foyer, type RouteObserver } from './app.ts';
import type { LogStream } from './http/listener.ts';
import { seedDemo, type DemoData } from './seed/demo.ts';

export interface TestFoyer {
  foyer: Foyer;
  config: ServerConfig;
  db: Database;
  urls: { auth: string; api: string; ui: string };
  demo: DemoData;
  close(): Promise<void>;
}

/** Set by tests/server/global-setup.ts: a dumped, migrated PGlite, or a PostgreSQL template database. */
export const TEMPLATE_ENV = 'FOYER_TEST_TEMPLATE';
export const POSTGRES_ENV = 'FOYER_TEST_POSTGRES_URL';

/**
 * The lowest port a free one is picked from: above the well-known and most services' ports, and
 * above 10080, the last of the ports fetch refuses to connect to (the Fetch standard's bad ports).
 */
const FREE_PORTS_FROM = 11_000;

/**
 * The first port the kernel hands to outgoing connections (Linux; elsewhere the IANA range's start,
 * 49152). A port a test picks must lie below it.
 */
async function outgoingPortsStart(): Promise<number> {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '49152');
  return Number(range.trim().split(/\s+/)[0]);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** How many slices the free ports are cut into, one for each test worker of a run. */
const WORKER_SLICES = 16;

/**
 * The ports a process may pick from: below the ports the kernel hands to outgoing connections, and,
 * in a test worker (poolId, vitest's VITEST_POOL_ID, 1 to maxWorkers), a slice of its own, so two
 * workers never pick one port between one's check and its listen.
 */
export function freePortRange(poolId: number | undefined, below: number): { from: number; to: number } {
  if (!poolId) return { from: FREE_PORTS_FROM, to: below };
  const size = Math.floor((below - FREE_PORTS_FROM) / WORKER_SLICES);
  const from = FREE_PORTS_FROM + ((poolId - 1) % WORKER_SLICES) * size;
  return { from, to: from + size };
}

/** Ports this process handed out: startFoyer takes four before it listens on any. */
const handedOut = new Set<number>();

/**
 * A loopback port nothing listens on and this process has not handed out, picked at random from
 * freePortRange. One the kernel picked (listening on port 0) came from the outgoing range: between
 * this check and the test's own listen, a connection the run opened (to PostgreSQL, between the test
 * servers) could take it as its local end, and the listen then failed (EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  const { from, to } = freePortRange(Number(process.env.VITEST_POOL_ID) || undefined, await outgoingPortsStart());
  const start = Math.floor(Math.random() * (to - from));
  for (let i = 0; i < to - from; i += 1) {
    const port = from + ((start + i) % (to - from));
    if (!handedOut.has(port) && (await canListen(port))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`No free loopback port from ${from} to ${to}`);
}

/** A migrated, empty PostgreSQL database (a copy of the run's template) that several handles may open. */
export async function createTestPostgresDatabase(postgresUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `foyer_${randomUUID().replace(/-/g, '')}`;
  const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE foyer_template`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = postgres(postgresUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** A migrated, empty database of the kind this test run uses. */
export async function openTestDatabase(options: HandleOptions = {}): Promise<DatabaseHandle> {
  const postgresUrl = process.env[POSTGRES_ENV];
  if (postgresUrl) {
    const database = await createTestPostgresDatabase(postgresUrl);
    const handle = postgresHandle(database.url, options);
    return {
      ...handle,
      async close() {
        await handle.close();
        await database.drop();
      },
    };
  }
  const template = process.env[TEMPLATE_ENV];
  if (template) {
    const dump = new Blob([await readFile(template)]);
    return pgliteHandle(await PGlite.create({ ...pgliteOptions, loadDataDir: dump }), options);
  }
  const handle = pgliteHandle(await PGlite.create(pgliteOptions), options);
  await handle.migrate();
  return handle;
}

export async function startFoyer(
  overrides: Partial<ServerConfig> = {},
  databaseOptions: HandleOptions = {},
  observeRoutes?: RouteObserver,
  /** Where the listeners log (at config.logLevel) instead of stdout. */
  logStream?: LogStream,
): Promise<TestFoyer> {
  const ports = { auth: await freePort(), api: await freePort(), ui: await freePort() };
  const devIdpPort = await freePort();
  const base = loadConfig({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
  const config: ServerConfig = {
    ...base,
    ports,
    urls: {
      auth: `http://localhost:${ports.auth}`,
      api: `http://localhost:${ports.api}`,
      ui: `http://localhost:${ports.ui}`,
    },
    devIdp: { port: devIdpPort, url: `http://localhost:${devIdpPort}` },
    ...overrides,
  };
  const database = await openTestDatabase(databaseOptions);
  const demo = await seedDemo(database.db, config.urls);
  const foyer = await createFoyer({ config, db: database.db, appId: demo.appId, observeRoutes, logStream });
  await foyer.listen('127.0.0.1');
  return {
    foyer,
    config,
    db: database.db,
    urls: config.urls,
    demo,
    async close() {
      await foyer.close();
      await database.close();
    },
  };
}
