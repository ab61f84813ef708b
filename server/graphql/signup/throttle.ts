// At most SIGNUPS_PER_WINDOW workspaces per app and client address in WINDOW_MINUTES: each signup
// mails a link, so the limit caps the mail any one address can make Foyer send. Counted from the
// audit trail in the database, so every instance sharing it agrees.
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';

export const SIGNUPS_PER_WINDOW = 10;
export const WINDOW_MINUTES = 60;

export async function isSignupThrottled(db: Database, appId: string, ip: string): Promise<boolean> {
  const [recent] = await db
    .select({ total: count() })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.appId, appId),
        eq(auditEvents.type, 'tenant.signup'),
        eq(auditEvents.ip, ip),
        gt(auditEvents.createdAt, sql`now() - ${sql.raw(`interval '${WINDOW_MINUTES} minutes'`)}`),
      ),
    );
  return (recent?.total ?? 0) >= SIGNUPS_PER_WINDOW;
}
