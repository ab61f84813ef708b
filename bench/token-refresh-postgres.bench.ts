// Token refresh on PostgreSQL 15 (bench/token-refresh.ts): a throwaway server started as the
// tests start theirs (tests/server/global-setup.ts), for this entry only. The CPU time is the Node
// process's; the database's own process is not counted.
import { POSTGRES_ENV } from '../server/testing.ts';
import { startTestPostgres } from '../tests/server/global-setup.ts';
import { tokenRefreshFigures } from './token-refresh.ts';
import type { BenchEntry } from './types.ts';

const entry: BenchEntry = {
  title: 'token refresh, PostgreSQL',
  async run() {
    const server = await startTestPostgres();
    process.env[POSTGRES_ENV] = server.url;
    try {
      return await tokenRefreshFigures('PostgreSQL');
    } finally {
      delete process.env[POSTGRES_ENV];
      await server.stop();
    }
  },
};

export default entry;
