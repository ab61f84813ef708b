// One database handle for the whole server: embedded PGlite in the data folder by default, a
// PostgreSQL server when DATABASE_URL is set. Both speak the same SQL and run the same migrations.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { max, type Logger } from 'drizzle-orm';
import { bigint, pgSchema, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema.ts';
import { preparedStatementsClient } from './pglite-statements.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Whether the database already has the newest migration, by one query and the migrations' journal,
 * without the work of drizzle's migrator (reading and hashing every SQL file, creating its schema
 * and table if missing, an empty transaction), which took a tenth of the server's start with
 * nothing to do (npm run bench -- server-start). The migrator applies every migration newer than the
 * newest applied one, so nothing is pending when that one is at least the journal's newest. A
 * database without the migrations table (a new one) is not up to date.
 */
/** drizzle's own record of the applied migrations (not in schema.ts: drizzle-kit must not manage it). */
const appliedMigrations = pgSchema('drizzle').table('__drizzle_migrations', { createdAt: bigint('created_at', { mode: 'number' }) });

async function upToDate(db: Database): Promise<boolean> {
  const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  try {
    const [applied] = await db.select({ newest: max(appliedMigrations.createdAt) }).from(appliedMigrations);
    return applied?.newest != null && Number(applied.newest) >= newest;
  } catch {
    return false;
  }
}

/**
 * The embedded database's buffer pool. initdb writes PostgreSQL's 128 MB, which PGlite's one process
 * allocates and zeroes at every open: 100 to 200 ms of the server's start and 100 MB of its memory,
 * to cache pages the operating system caches already (the data folder's files).
 */
const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * Every embedded database is opened with these: the users table's search index needs pg_trgm, which
 * PGlite only offers when loaded at open (PostgreSQL ships it in contrib; server/db/migrations/0011).
 */
export const pgliteOptions = {
  extensions: { pg_trgm },
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
} satisfies PGliteOptions;

/** Told every statement the server sends (tests count the statements of a request with it). */
export interface HandleOptions {
  logger?: Logger;
}

const embedded = new WeakSet<Database>();

/**
 * Whether `db` is the embedded database: one connection that runs one statement at a time, so a
 * single statement never interleaves with another request's (server/audit/limits.ts relies on it).
 */
export function isEmbedded(db: Database): boolean {
  return embedded.has(db);
}

/** Wraps an open PGlite (a folder, memory, or a clone of a migrated template). */
export function pgliteHandle(client: PGlite, { logger }: HandleOptions = {}): DatabaseHandle {
  // Drizzle's PGlite driver needs only query() and transaction(): it gets them with prepared statements.
  const db = drizzlePglite(preparedStatementsClient(client) as PGlite, { schema, ...(logger ? { logger } : {}) });
  embedded.add(db as unknown as Database);
  return {
    db: db as unknown as Database,
    async migrate() {
      if (!(await upToDate(db as unknown as Database))) await migratePglite(db, { migrationsFolder });
    },
    close: () => client.close(),
  };
}

/**
 * No statement runs longer than this on PostgreSQL, so one expensive request cannot hold connections
 * the sign-ins of every app need (the longest legitimate one, a users page at 10,000 members, takes
 * milliseconds: npm run bench).
 */
export const STATEMENT_TIMEOUT_MS = 5000;

export function postgresHandle(url: string, { logger }: HandleOptions = {}): DatabaseHandle {
  const client = postgres(url, { max: 10, onnotice: () => {}, connection: { statement_timeout: STATEMENT_TIMEOUT_MS } });
  const db = drizzlePostgres(client, { schema, ...(logger ? { logger } : {}) });
  return {
    db: db as unknown as Database,
    async migrate() {
      if (await upToDate(db as unknown as Database)) return;
      // Instances starting at once on an empty database migrate one after the other: the later
      // ones wait here, then find nothing left to do.
      const session = await client.reserve();
      try {
        await session`select pg_advisory_lock(hashtextextended('foyer.migrations', 0))`;
        await migratePostgres(db, { migrationsFolder });
      } finally {
        await session`select pg_advisory_unlock(hashtextextended('foyer.migrations', 0))`;
        session.release();
      }
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * PostgreSQL's autovacuum keeps the planner's statistics and the visibility maps current; PGlite runs
 * none. Without them plans go blind as tables grow (at 100,000 members a users-table search sorts every
 * member instead of walking the sort's index: about 9 times slower, bench/users-table.ts) and
 * index-only scans read the table anyway. So the embedded database does it itself: soon after start,
 * then hourly.
 */
const FIRST_UPKEEP_MS = 60_000;
const UPKEEP_EVERY_MS = 60 * 60_000;

function withUpkeep(client: PGlite, handle: DatabaseHandle): DatabaseHandle {
  const upkeep = () => {
    client.exec('vacuum analyze').catch((error: unknown) => console.error('Embedded database upkeep (vacuum analyze) failed', error));
  };
  const first = setTimeout(upkeep, FIRST_UPKEEP_MS).unref();
  const hourly = setInterval(upkeep, UPKEEP_EVERY_MS).unref();
  return {
    ...handle,
    close() {
      clearTimeout(first);
      clearInterval(hourly);
      return handle.close();
    },
  };
}

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<DatabaseHandle> {
  if (options.databaseUrl) return postgresHandle(options.databaseUrl);
  const folder = path.join(options.dataDir, 'pgdata');
  await mkdir(folder, { recursive: true });
  const client = await PGlite.create(folder, pgliteOptions);
  return withUpkeep(client, pgliteHandle(client));
}
