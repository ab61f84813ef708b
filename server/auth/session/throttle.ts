// Password guessing limit: at most MAX_FAILURES wrong passwords per app, address and username in
// WINDOW. Counted from the audit trail in the database, so every instance sharing it agrees.
import { and, count, eq, gt, max, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';

export const MAX_FAILURES = 10;
export const WINDOW_MINUTES = 15;

export async function isLoginThrottled(
  db: Database,
  attempt: { appId: string; ip: string; username: string },
): Promise<boolean> {
  const sameAttempt = (type: 'login.failure' | 'login.success') =>
    and(
      eq(auditEvents.appId, attempt.appId),
      eq(auditEvents.type, type),
      eq(auditEvents.ip, attempt.ip),
      sql`${auditEvents.detail}->>'username' = ${attempt.username}`,
      gt(auditEvents.createdAt, sql`now() - ${sql.raw(`interval '${WINDOW_MINUTES} minutes'`)}`),
    );
  // A successful sign-in clears the failures before it.
  const [success] = await db.select({ at: max(auditEvents.createdAt) }).from(auditEvents).where(sameAttempt('login.success'));
  const [failures] = await db
    .select({ total: count() })
    .from(auditEvents)
    .where(and(sameAttempt('login.failure'), success?.at ? gt(auditEvents.createdAt, success.at) : undefined));
  return (failures?.total ?? 0) >= MAX_FAILURES;
}
