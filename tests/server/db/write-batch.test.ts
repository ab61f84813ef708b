// A request's batched writes (server/db/write-batch.ts) go out as one statement: all of them or
// none; two writes to one row go out one after the other, and reads in the batch can ask to see them first.
import { and, eq, isNull, sql, type Logger } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../server/testing.ts';
import type { DatabaseHandle } from '../../../server/db/client.ts';
import { auditEvents } from '../../../server/db/schema.ts';
import { fixedWrite, flushWrites, withWriteBatch, write } from '../../../server/db/write-batch.ts';

let handle: DatabaseHandle;
const statements: string[] = [];
const logger: Logger = { logQuery: (query) => statements.push(query) };

beforeAll(async () => {
  handle = await openTestDatabase({ logger });
});
afterAll(() => handle?.close());
beforeEach(async () => {
  await handle.db.delete(auditEvents);
  statements.length = 0;
});

const event = (type: string) => handle.db.insert(auditEvents).values({ type, appId: 'batch-app' });
const types = async () =>
  (await handle.db.select({ type: auditEvents.type }).from(auditEvents).orderBy(auditEvents.id)).map((row) => row.type);

describe('withWriteBatch', () => {
  it('sends the writes of its run as one statement when the run ends', async () => {
    await withWriteBatch(handle.db, async () => {
      await write(handle.db, event('first'));
      await write(handle.db, event('second'));
      await write(handle.db, handle.db.update(auditEvents).set({ ip: '10.0.0.1' }).where(eq(auditEvents.type, 'older')));
      expect(statements).toEqual([]);
    });
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^with write_0 as \(insert into "audit_events".*\), write_1 as \(insert.*\), write_2 as \(update/);
    // Parts of one statement run in no particular order (PostgreSQL's WITH), so which got the lower id is open.
    expect((await types()).sort()).toEqual(['first', 'second']);
  });

  it('stores none of them when one fails, and the caller sees the error', async () => {
    const run = withWriteBatch(handle.db, async () => {
      await write(handle.db, event('kept only with the others'));
      await write(handle.db, handle.db.execute(sql`insert into audit_events (type, detail) values ('broken', null)`));
    });
    await expect(run).rejects.toThrow();
    expect(await types()).toEqual([]);
  });

  it('still sends them when the run throws', async () => {
    const run = withWriteBatch(handle.db, async () => {
      await write(handle.db, event('made before the error'));
      throw new Error('the request failed afterwards');
    });
    await expect(run).rejects.toThrow('the request failed afterwards');
    expect(await types()).toEqual(['made before the error']);
  });

  it('sends the pending writes before a second write to the same row, and when a read asks', async () => {
    await withWriteBatch(handle.db, async () => {
      await write(handle.db, event('row'), 'audit:row');
      await write(handle.db, handle.db.update(auditEvents).set({ ip: '10.0.0.2' }).where(eq(auditEvents.type, 'row')), 'audit:row');
      expect(statements).toHaveLength(1);
      await flushWrites(handle.db);
      expect(statements).toHaveLength(2);
      expect(await handle.db.select({ ip: auditEvents.ip }).from(auditEvents)).toEqual([{ ip: '10.0.0.2' }]);
    });
  });

  it('writes at once outside a batch, and for another database inside one', async () => {
    await write(handle.db, event('alone'));
    expect(await types()).toEqual(['alone']);
    const other = await openTestDatabase();
    try {
      await withWriteBatch(other.db, async () => {
        await write(handle.db, event('not batched'));
        expect(await types()).toEqual(['alone', 'not batched']);
      });
    } finally {
      await other.close();
    }
  });

  it('fills a fixed write into the text drizzle built once, as drizzle writes each value, and batches it with the others', async () => {
    let builds = 0;
    const fixedEvent = fixedWrite<{ type: string; ip: string | null; detail: Record<string, unknown> | null }>((db) => {
      builds += 1;
      return db
        .insert(auditEvents)
        .values({ type: sql.placeholder('type'), appId: 'batch-app', ip: sql.placeholder('ip'), detail: sql.placeholder('detail') });
    });
    const hostile = "fixed'); drop table audit_events; --";
    const run = () =>
      withWriteBatch(handle.db, async () => {
        await write(handle.db, fixedEvent(handle.db, { type: 'fixed', ip: null, detail: { nested: { n: 1 } } }));
        await write(handle.db, event('built'));
        await write(handle.db, fixedEvent(handle.db, { type: hostile, ip: '10.0.0.3', detail: {} }));
      });
    await run();
    await run();
    expect(builds).toBe(1);
    expect(statements).toHaveLength(2);
    expect(statements[1]).toBe(statements[0]);
    expect(statements[0]).toMatch(
      /^with write_0 as \(insert into "audit_events".*\), write_1 as \(insert.*\), write_2 as \(insert.*\) select 1$/,
    );
    expect(await handle.db.select({ type: auditEvents.type }).from(auditEvents)).toHaveLength(6);
    // A null is SQL's null, not the text 'null'; an object is stored as JSON once, not as a JSON string.
    const fixed = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'fixed'), isNull(auditEvents.ip)));
    expect(fixed.map((row) => row.detail)).toEqual([{ nested: { n: 1 } }, { nested: { n: 1 } }]);
    const quoted = await handle.db
      .select({ ip: auditEvents.ip, detail: auditEvents.detail })
      .from(auditEvents)
      .where(eq(auditEvents.type, hostile));
    expect(quoted).toEqual([
      { ip: '10.0.0.3', detail: {} },
      { ip: '10.0.0.3', detail: {} },
    ]);

    await write(handle.db, fixedEvent(handle.db, { type: 'alone', ip: null, detail: {} }));
    expect(await handle.db.select({ type: auditEvents.type }).from(auditEvents).where(eq(auditEvents.type, 'alone'))).toHaveLength(1);
    // A null for the not-null JSON column is SQL's null, which the column refuses (JSON's null it would store).
    await expect(write(handle.db, fixedEvent(handle.db, { type: 'no detail', ip: null, detail: null }))).rejects.toThrow();
    expect(() => fixedEvent(handle.db, { type: 'missing', ip: null } as never)).toThrow('No value for the placeholder detail');
  });
});
