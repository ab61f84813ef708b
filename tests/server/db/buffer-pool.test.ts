// The embedded database opens with a small buffer pool (server/db/client.ts pgliteOptions): initdb's
// 128 MB was allocated and zeroed at every start, in the server's start time and its memory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/client.ts';

it("opens a data folder with a 32 MB buffer pool, not initdb's 128 MB, and keeps it on the next open", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'foyer-buffer-pool-'));
  try {
    for (const open of ['first', 'again']) {
      const handle = await openDatabase({ dataDir });
      try {
        const result = (await handle.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
        expect(result.rows, open).toEqual([{ shared_buffers: '32MB' }]);
      } finally {
        await handle.close();
      }
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
