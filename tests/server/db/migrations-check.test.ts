// A start finds out with one query that no migration is pending (server/db/client.ts), and still
// applies whatever is pending: on an up-to-date database nothing else is sent; on one that misses the
// newest migration, or every migration, drizzle's migrator runs them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../server/db/client.ts';
import { apps } from '../../../server/db/schema.ts';
import { openTestDatabase } from '../../../server/testing.ts';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../server/db/migrations');

let handle: DatabaseHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

/** A migrated test database whose every statement is recorded. */
async function recordedDatabase(): Promise<{ handle: DatabaseHandle; statements: string[] }> {
  const statements: string[] = [];
  handle = await openTestDatabase({ logger: { logQuery: (query) => statements.push(query) } });
  return { handle, statements };
}

async function newestMigration(): Promise<{ when: number; firstStatement: string }> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  const newest = journal.entries.reduce((latest, entry) => (entry.when > latest.when ? entry : latest));
  const text = await readFile(path.join(MIGRATIONS, `${newest.tag}.sql`), 'utf8');
  return { when: newest.when, firstStatement: text.split('--> statement-breakpoint')[0]!.trim() };
}

describe('the migrations check at start', () => {
  it('sends one query when nothing is pending', async () => {
    const { handle, statements } = await recordedDatabase();
    statements.length = 0;
    await handle.migrate();
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/from "drizzle"\."__drizzle_migrations"/);
  });

  it('runs the newest migration when the database does not have it', async () => {
    const { handle, statements } = await recordedDatabase();
    const newest = await newestMigration();
    await handle.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = ${newest.when}`);
    statements.length = 0;
    // Its statements already ran on this database, so running them again may fail (a column that
    // exists); what is checked is that the migrator sent them instead of finding nothing to do.
    await handle.migrate().catch(() => undefined);
    // The migrator sends a statement as the file has it, up to the breakpoint (a CREATE TABLE ends in a newline).
    expect(statements.map((statement) => statement.trim())).toContain(newest.firstStatement);
  });

  it('migrates a database whose migrations table is empty', async () => {
    const { handle } = await recordedDatabase();
    await handle.db.execute(sql`drop schema public cascade`);
    await handle.db.execute(sql`create schema public`);
    await handle.db.execute(sql`delete from drizzle.__drizzle_migrations`);
    await handle.migrate();
    expect(await handle.db.select({ id: apps.id }).from(apps)).toEqual([]);
  });
});
