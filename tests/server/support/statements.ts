// A test Foyer whose database statements a test records while one request runs, to pin what a hot
// path asks of the database (tests/server/oidc/refresh-statements.test.ts,
// tests/server/auth/password-statements.test.ts).
import type { Logger } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { loadConfig } from '../../../server/config.ts';

export interface RecordedFoyer {
  foyer: TestFoyer;
  /** The statements of the last `recording` call, in order. */
  statements: string[];
  recording<T>(work: () => Promise<T>): Promise<T>;
}

export async function startRecordedFoyer(): Promise<RecordedFoyer> {
  const statements: string[] = [];
  let recording = false;
  const logger: Logger = {
    logQuery(query) {
      if (recording) statements.push(query);
    },
  };
  // The webhook worker's polls would land among a request's statements: it waits an hour here.
  const config = loadConfig();
  const foyer = await startFoyer({ webhooks: { ...config.webhooks, pollIntervalMs: 60 * 60_000 } }, { logger });
  return {
    foyer,
    statements,
    recording: async (work) => {
      statements.length = 0;
      recording = true;
      try {
        return await work();
      } finally {
        recording = false;
      }
    },
  };
}
