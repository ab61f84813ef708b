// Writes of one request gathered into one statement. A token refresh writes four rows (the used
// refresh token marked consumed, its successor, the sign-in session's last activity, the audit event);
// on the embedded database each statement is a round of parsing, planning and committing on the main
// thread, so they go out together, as data-modifying WITH clauses of one statement, before the answer
// leaves (bench/token-refresh.bench.ts). One statement is one transaction: the audit event is stored
// exactly when the rotation is, and a crash loses both or neither.
//
// The writes a refresh makes are fixed statements (`fixedWrite`): drizzle builds each one's text once,
// with placeholders, and a call only fills in its values, where building the four queries and their
// WITH statement anew took a tenth of a refresh's CPU. The WITH statement of the same writes in the
// same order is the same text, so the embedded database runs it as one prepared statement
// (server/db/pglite-statements.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { is, Param, Placeholder, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

/** A statement's text and its values ($1, $2 ... in the text), as a driver sends them. */
interface Statement {
  readonly text: string;
  readonly params: readonly unknown[];
}

const fixed = Symbol('fixed write');

/** A fixed write's statement with the values of one call (made by `fixedWrite`). */
export interface FixedWrite extends Statement {
  readonly [fixed]: true;
}

/** What drizzle's insert, update and delete builders offer: their SQL text and values. */
interface BuiltQuery {
  toSQL(): { sql: string; params: unknown[] };
}

interface Batch {
  db: Database;
  pending: Statement[];
  /**
   * What each pending write changes. The parts of one statement run in no set order and see the same
   * snapshot, so a second write to the same row goes out after the first, in a statement of its own.
   */
  keys: Set<string>;
}

const batches = new AsyncLocalStorage<Batch>();

/** Each value of a fixed statement: a constant of its text, or a placeholder's value written as its column writes it. */
type ValueOf<V> = (values: V) => unknown;

function valueOf<V extends Record<string, unknown>>(param: unknown): ValueOf<V> {
  const placeholder = is(param, Placeholder) ? param : is(param, Param) && is(param.value, Placeholder) ? param.value : undefined;
  if (!placeholder) return () => param;
  const { name } = placeholder;
  const encoder = is(param, Param) ? param.encoder : undefined;
  return (values) => {
    if (!(name in values)) throw new Error(`No value for the placeholder ${name}`);
    const value = values[name];
    // As drizzle writes a null parameter: SQL null, never the encoder's (jsonb would store 'null').
    if (value === null || value === undefined) return null;
    return encoder ? encoder.mapToDriverValue(value) : value;
  };
}

/**
 * A write whose statement drizzle builds once, on first use, from `build` with `sql.placeholder`s
 * for its values; each call gives the values. Pass the result to `write`.
 */
export function fixedWrite<V extends Record<string, unknown>>(
  build: (db: Database) => BuiltQuery,
): (db: Database, values: V) => FixedWrite {
  let built: { text: string; values: ValueOf<V>[] } | undefined;
  return (db, values) => {
    if (!built) {
      const query = build(db).toSQL();
      built = { text: query.sql, values: query.params.map((param) => valueOf<V>(param)) };
    }
    return { [fixed]: true, text: built.text, params: built.values.map((value) => value(values)) };
  };
}

function isFixed(query: FixedWrite | SQLWrapper): query is FixedWrite {
  return fixed in query;
}

/** Writes any other query's text as the database's dialect does (Foyer's databases are PostgreSQL, embedded or not). */
const dialect = new PgDialect();

/** The WITH statements made of the same writes in the same order, by their texts: a few shapes, each the same text every time. */
const combinedTexts = new Map<string, string>();
const COMBINED_TEXTS_KEPT = 100;

function combinedText(pending: Statement[]): string {
  const key = pending.map((write) => write.text).join('\u0000');
  let text = combinedTexts.get(key);
  if (text === undefined) {
    let offset = 0;
    const parts = pending.map((write, index) => {
      const shift = offset;
      offset += write.params.length;
      // Drizzle writes values only as $n parameters, never inline, so every $n is one.
      return `write_${index} as (${write.text.replace(/\$(\d+)/g, (_, number: string) => `$${Number(number) + shift}`)})`;
    });
    text = `with ${parts.join(', ')} select 1`;
    if (combinedTexts.size >= COMBINED_TEXTS_KEPT) combinedTexts.clear();
    combinedTexts.set(key, text);
  }
  return text;
}

/** Runs one statement through drizzle's session (so its logger sees it), without building anything. */
async function execute(db: Database, { text, params }: Statement): Promise<void> {
  await db._.session.prepareQuery({ sql: text, params: [...params] }, undefined, undefined, false).execute();
}

async function flush(batch: Batch): Promise<void> {
  if (batch.pending.length === 0) return;
  const pending = batch.pending.splice(0);
  batch.keys.clear();
  await execute(
    batch.db,
    pending.length === 1 ? pending[0]! : { text: combinedText(pending), params: pending.flatMap((write) => write.params) },
  );
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
 * Writes `query` (a fixed write, or any drizzle query) now, or, inside
 * withWriteBatch, with the batch. `key` names the row it changes, when a later write in the same
 * request may change it again.
 */
export async function write(db: Database, query: FixedWrite | (SQLWrapper & PromiseLike<unknown>), key?: string): Promise<void> {
  const batch = batches.getStore();
  if (!batch || batch.db !== db) {
    await (isFixed(query) ? execute(db, query) : query);
    return;
  }
  if (key !== undefined) {
    if (batch.keys.has(key)) await flush(batch);
    batch.keys.add(key);
  }
  if (isFixed(query)) batch.pending.push(query);
  else {
    const { sql: text, params } = dialect.sqlToQuery(query.getSQL());
    batch.pending.push({ text, params });
  }
}

/** Sends the batch's writes so far (before a read that must see them); nothing outside a batch. */
export async function flushWrites(db: Database): Promise<void> {
  const batch = batches.getStore();
  if (batch && batch.db === db) await flush(batch);
}
