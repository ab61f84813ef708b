// The embedded database's prepared statements (server/db/pglite-statements.ts): each statement text
// is parsed once and runs by name afterwards, with the same answers as PGlite's own query(); the
// cache stays within its bound, and errors, transactions, concurrent callers and a changed table
// behave as they do without it. Checked on PostgreSQL's own list of prepared statements, not on time.
import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteOptions } from '../../../server/db/client.ts';
import { preparedStatementsClient, type PgliteClient } from '../../../server/db/pglite-statements.ts';

let pg: PGlite;

beforeAll(async () => {
  pg = await PGlite.create(pgliteOptions);
  await pg.exec(`create table things (id serial primary key, name text unique not null, tags text[] not null default '{}',
    detail jsonb not null default '{}', at timestamptz not null default now(), size bigint)`);
});
afterAll(() => pg?.close());

/** The statements prepared under a name, as PostgreSQL lists them (read with PGlite's unnamed statements). */
async function prepared(): Promise<string[]> {
  const { rows } = await pg.query<{ statement: string }>('select statement from pg_prepared_statements order by prepare_time');
  return rows.map((row) => row.statement);
}

async function freshClient(capacity?: number): Promise<PgliteClient> {
  await pg.exec('deallocate all');
  return preparedStatementsClient(pg, capacity);
}

describe('the PGlite client with prepared statements', () => {
  it('prepares a statement once and answers as PGlite does, for every kind of value', async () => {
    const client = await freshClient();
    const insert = 'insert into things (name, tags, detail, at, size) values ($1, $2, $3, $4, $5) returning *';
    const at = new Date('2026-01-02T03:04:05.678Z');
    const first = await client.query(insert, ['first', ['a', 'b,c'], { nested: { n: 1 } }, at, 12345678901n]);
    const second = await client.query(insert, ['second', [], { n: 2 }, at.toISOString(), null]);
    expect(await prepared()).toEqual([insert]);
    expect(first.rows).toEqual([{ id: 1, name: 'first', tags: ['a', 'b,c'], detail: { nested: { n: 1 } }, at, size: 12345678901 }]);
    expect(second.rows).toMatchObject([{ name: 'second', tags: [], detail: { n: 2 }, at, size: null }]);

    const read = 'select id, name, tags, detail, at, size from things where name = any($1) order by id';
    const options = { rowMode: 'array' as const };
    const mine = await client.query(read, [['first', 'second']], options);
    expect(mine.rows).toEqual((await pg.query(read, [['first', 'second']], options)).rows);
    expect(mine.fields.map((field) => field.name)).toEqual(['id', 'name', 'tags', 'detail', 'at', 'size']);
    await client.query(read, [['first']]);
    expect(await prepared()).toEqual([insert, read]);
    expect((await client.query('update things set size = size + 1 where name = $1', ['first'])).affectedRows).toBe(1);
  });

  it("applies a query's own parsers before PGlite's, as PGlite's query() does, without changing PGlite's", async () => {
    const client = await freshClient();
    // What drizzle passes with every query: timestamps left as text, every other type PGlite's.
    const options = { rowMode: 'array' as const, parsers: { [types.TIMESTAMPTZ]: (value: string) => `as sent: ${value}` } };
    const read = `select $1::timestamptz as at, '{"nested": {"n": 1}}'::jsonb as detail, 12345678901::int8 as size, 7::int4 as seven`;
    const at = '2026-01-02T03:04:05.678Z';
    const mine = await client.query<unknown[]>(read, [at], options);
    expect(mine.rows).toEqual((await pg.query(read, [at], options)).rows);
    expect(mine.rows[0]![0]).toMatch(/^as sent: 2026-01-02 03:04:05\.678/);
    expect(mine.rows[0]!.slice(1)).toEqual([{ nested: { n: 1 } }, 12345678901, 7]);
    expect((await client.query<{ at: Date }>(read, [at])).rows[0]!.at).toEqual(new Date(at));
  });

  it('keeps at most its bound of statements, closing the least recently used', async () => {
    const client = await freshClient(2);
    const statement = (n: number) => `select ${n} as n, count(*) from things where id > $1`;
    await client.query(statement(1), [0]);
    await client.query(statement(2), [0]);
    await client.query(statement(1), [0]);
    await client.query(statement(3), [0]);
    expect((await prepared()).sort()).toEqual([statement(1), statement(3)]);
    expect((await client.query<{ n: number }>(statement(2), [0])).rows[0]?.n).toBe(2);
    expect((await prepared()).sort()).toEqual([statement(2), statement(3)]);
  });

  it('reports a statement that fails, keeps no name for one that does not parse, and goes on working', async () => {
    const client = await freshClient();
    await expect(client.query('select nonsense from', [])).rejects.toMatchObject({ code: '42601' });
    expect(await prepared()).toEqual([]);
    const insert = 'insert into things (name) values ($1)';
    await client.query(insert, ['unique-name']);
    await expect(client.query(insert, ['unique-name'])).rejects.toMatchObject({ code: '23505' });
    await client.query(insert, ['another-name']);
    expect(await prepared()).toEqual([insert]);
  });

  it('runs inside transactions: a rollback undoes the writes and the statements stay usable', async () => {
    const client = await freshClient();
    const insert = 'insert into things (name) values ($1)';
    const count = 'select count(*)::int as n from things where name like $1';
    await expect(
      client.transaction(async (tx) => {
        await tx.query(insert, ['tx-1']);
        expect((await tx.query<{ n: number }>(count, ['tx-%'])).rows[0]?.n).toBe(1);
        await tx.query(insert, ['tx-1']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await client.query<{ n: number }>(count, ['tx-%'])).rows[0]?.n).toBe(0);
    await client.transaction(async (tx) => {
      await tx.query(insert, ['tx-2']);
    });
    expect((await client.query<{ n: number }>(count, ['tx-%'])).rows[0]?.n).toBe(1);
    expect((await prepared()).sort()).toEqual([count, insert].sort());
  });

  it('serves concurrent callers one statement at a time, each its own answer, and waits for a transaction', async () => {
    const client = await freshClient();
    let inside = false;
    let begun!: () => void;
    const started = new Promise<void>((resolve) => (begun = resolve));
    const transaction = client.transaction(async (tx) => {
      inside = true;
      begun();
      await tx.query('insert into things (name) values ($1)', ['during-transaction']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inside = false;
    });
    await started;
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        const { rows } = await client.query<{ n: number; seen: number; inside: boolean }>(
          `select $1::int as n, (select count(*)::int from things where name = 'during-transaction') as seen`,
          [n],
        );
        return { ...rows[0], inside };
      }),
    );
    await transaction;
    expect(answers.map((answer) => answer.n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    // None ran while the transaction was open, and each saw what it committed.
    expect(answers.every((answer) => !answer.inside && answer.seen === 1)).toBe(true);
  });

  it('follows a table changed after a statement was prepared', async () => {
    const client = await freshClient();
    const read = 'select name from things where name = $1';
    await client.query('insert into things (name) values ($1)', ['changing']);
    expect((await client.query(read, ['changing'])).rows).toEqual([{ name: 'changing' }]);
    await pg.exec(`alter table things add column colour text; create index things_colour on things (colour)`);
    expect((await client.query(read, ['changing'])).rows).toEqual([{ name: 'changing' }]);
    await client.query('update things set colour = $1 where name = $2', ['red', 'changing']);
    expect((await client.query('select name, colour from things where colour = $1', ['red'])).rows).toEqual([
      { name: 'changing', colour: 'red' },
    ]);
  });

  it("applies the caller's parsers before PGlite's without copying PGlite's for each query", async () => {
    const client = await freshClient();
    await client.query('insert into things (name, detail, size) values ($1, $2, $3)', ['parsed', { n: 3 }, 7]);
    const read = 'select name, detail, at, size from things where name = $1';
    // As drizzle asks: timestamps as the database's text, everything else parsed by PGlite.
    const options = { rowMode: 'array' as const, parsers: { [types.TIMESTAMPTZ]: (value: string) => value } };
    const expected = (await pg.query(read, ['parsed'], options)).rows;
    expect(expected[0]).toEqual(['parsed', { n: 3 }, expect.any(String), 7]);

    // parseResults merged the options' parsers into a copy of all of PGlite's (some 300) on every
    // call, which cost as much as the rest of a small query's round; a copy enumerates them.
    let enumerations = 0;
    const own = pg.parsers;
    pg.parsers = new Proxy(own, {
      ownKeys(target) {
        enumerations += 1;
        return Reflect.ownKeys(target);
      },
    });
    try {
      for (let run = 0; run < 3; run += 1) expect((await client.query(read, ['parsed'], options)).rows).toEqual(expected);
      expect((await client.query(read, ['parsed'], { ...options, parsers: { ...options.parsers } })).rows).toEqual(expected);
      expect((await client.query(read, ['parsed'])).rows).toEqual([{ name: 'parsed', detail: { n: 3 }, at: expect.any(Date), size: 7 }]);
    } finally {
      pg.parsers = own;
    }
    expect(enumerations).toBe(0);
  });

  it('describes a statement once, when it prepares it, and afterwards only binds and executes it', async () => {
    const client = await freshClient();
    const sent: string[][] = [];
    const execProtocol = pg.execProtocol.bind(pg);
    // The frontend messages of each exchange, by their type letters (P parse, D describe, B bind, E execute, S sync).
    pg.execProtocol = (message, options) => {
      const types: string[] = [];
      const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
      for (let at = 0; at < message.byteLength; at += 1 + view.getInt32(at + 1)) types.push(String.fromCharCode(message[at]!));
      sent.push(types);
      return execProtocol(message, options);
    };
    try {
      const read = 'select id, name, detail from things where name = $1';
      const first = await client.query(read, ['first']);
      const again = await client.query(read, ['first'], { rowMode: 'array' });
      const none = await client.query(read, ['nobody']);
      expect(first.rows).toEqual((await pg.query(read, ['first'])).rows);
      expect(first.fields).toEqual([
        { name: 'id', dataTypeID: types.INT4 },
        { name: 'name', dataTypeID: types.TEXT },
        { name: 'detail', dataTypeID: types.JSONB },
      ]);
      expect(again.rows).toEqual([[1, 'first', { nested: { n: 1 } }]]);
      expect(again.fields).toEqual(first.fields);
      expect(none).toMatchObject({ rows: [], fields: first.fields });
      expect((await client.query('update things set size = size where name = $1', ['first'])).affectedRows).toBe(1);
    } finally {
      pg.execProtocol = execProtocol;
    }
    // The read prepared and run three times, then the update prepared and run (PGlite's own query() above takes another way).
    expect(sent).toEqual([
      ['P', 'D', 'S'],
      ['B', 'E', 'S'],
      ['B', 'E', 'S'],
      ['B', 'E', 'S'],
      ['P', 'D', 'S'],
      ['B', 'E', 'S'],
    ]);
  });
});
