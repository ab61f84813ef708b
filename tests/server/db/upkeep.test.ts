// The embedded database keeps its planner statistics and visibility maps itself, as PostgreSQL's
// autovacuum would (server/db/client.ts): a minute after it opens, then every hour. The clock is
// Vitest's, moved by hand; what is checked is the database's own record of the upkeep.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../server/db/client.ts';

let handle: DatabaseHandle | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await handle?.close();
  vi.useRealTimers();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function lastUpkeep(db: DatabaseHandle['db']): Promise<{ analyzed: string | null; vacuumed: string | null }> {
  const result = (await db.execute(
    sql`select last_analyze::text as analyzed, last_vacuum::text as vacuumed from pg_stat_user_tables where relname = 'tenant_users'`,
  )) as unknown as {
    rows: { analyzed: string | null; vacuumed: string | null }[];
  };
  return result.rows[0]!;
}

describe('embedded database upkeep', () => {
  it('vacuums and analyzes a minute after opening, then hourly', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'], shouldAdvanceTime: true });
    dataDir = await mkdtemp(path.join(tmpdir(), 'foyer-upkeep-'));
    handle = await openDatabase({ dataDir });
    await handle.migrate();
    expect(await lastUpkeep(handle.db)).toEqual({ analyzed: null, vacuumed: null });

    await vi.advanceTimersByTimeAsync(60_000);
    const first = await lastUpkeep(handle.db);
    expect(first.analyzed).not.toBeNull();
    expect(first.vacuumed).not.toBeNull();

    await vi.advanceTimersByTimeAsync(60 * 60_000);
    const second = await lastUpkeep(handle.db);
    expect(second.analyzed! > first.analyzed!).toBe(true);
  });
});
