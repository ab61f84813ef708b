// Writes of one request gathered into one statement. A token refresh writes four rows (the used
// refresh token marked consumed, its successor, the sign-in session's last activity, the audit event);
// on the embedded database each statement is a round of parsing, planning and committing on the main
// thread, so they go out together, as data-modifying WITH clauses of one statement, before the answer
// leaves (bench/token-refresh.bench.ts). One statement is one transaction: the audit event is stored
// exactly when the rotation is, and a crash loses both or neither.
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from './client.ts';

interface Batch {
  db: Database;
  pending: SQL[];
  /**
   * What each pending write changes. The parts of one statement run in no set order and see the same
   * snapshot, so a second write to the same row goes out after the first, in a statement of its own.
   */
  keys: Set<string>;
}

const batches = new AsyncLocalStorage<Batch>();

async function flush(batch: Batch): Promise<void> {
  if (batch.pending.length === 0) return;
  const pending = batch.pending.splice(0);
  batch.keys.clear();
  const statement =
    pending.length === 1
      ? pending[0]!
      : sql`with ${sql.join(
          pending.map((write, index) => sql`${sql.raw(`write_${index}`)} as (${write})`),
          sql`, `,
        )} select 1`;
  await batch.db.execute(statement);
}

/**
 * Runs `run` with its writes (made through `write`) held back and sent in one statement at its end,
 * whether it succeeded or threw. Reads that must see them call `flushWrites` first.
 */
export async function withWriteBatch<T>(db: Database, run: () => Promise<T>): Promise<T> {
  const batch: Batch = { db, pending: [], keys: new Set() };
  let result: T;
  try {
    result = await batches.run(batch, run);
  } finally {
    await flush(batch);
  }
  return result;
}

/**
 * Writes `query` now, or, inside withWriteBatch, with the batch. `key` names the row it changes,
 * when a later write in the same request may change it again.
 */
export async function write(db: Database, query: SQLWrapper & PromiseLike<unknown>, key?: string): Promise<void> {
  const batch = batches.getStore();
  if (!batch || batch.db !== db) {
    await query;
    return;
  }
  if (key !== undefined) {
    if (batch.keys.has(key)) await flush(batch);
    batch.keys.add(key);
  }
  batch.pending.push(query.getSQL());
}

/** Sends the batch's writes so far (before a read that must see them); nothing outside a batch. */
export async function flushWrites(db: Database): Promise<void> {
  const batch = batches.getStore();
  if (batch && batch.db === db) await flush(batch);
}
