// Limits on how often something may happen: wrong passwords, reset and magic-link requests. Counted
// from the audit trail in the database, so every instance sharing it agrees.
import { and, count, eq, gt, lte, max, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';
import type { AuditType } from './service.ts';

/** Who is trying: the app, the client address, and the normalised e-mail. */
export interface Attempt {
  appId: string;
  ip: string;
  username: string;
}

/** At most `max` events in `windowMinutes` for one attempt's key. */
export interface RequestLimit {
  max: number;
  windowMinutes: number;
  /** What counted events share with the attempt; 'ip' alone counts one address across every app. */
  per: readonly ('app' | 'ip' | 'username')[];
}

export interface Limit extends RequestLimit {
  /** The audited event that counts. */
  type: AuditType;
  /** A later event of this type starts the count afresh (a successful sign-in clears the failures). */
  clearedBy?: AuditType;
}

/** Password guessing: at most ten wrong passwords per app, address and username in 15 minutes. */
export const LOGIN_FAILURES: Limit = {
  type: 'login.failure',
  max: 10,
  windowMinutes: 15,
  per: ['app', 'ip', 'username'],
  clearedBy: 'login.success',
};

/**
 * Requests that mail a link (reset, magic link): at most five per app and e-mail, so nobody's inbox
 * can be flooded, and thirty per app and client address, so nobody can spray many addresses. (Per app,
 * so the count stays on the audit trail's app index.)
 */
export const MAILED_LINK_LIMITS: readonly RequestLimit[] = [
  { max: 5, windowMinutes: 15, per: ['app', 'username'] },
  { max: 30, windowMinutes: 15, per: ['app', 'ip'] },
];

function sameAttempt(limit: RequestLimit, attempt: Attempt, type: AuditType): SQL {
  return and(
    eq(auditEvents.type, type),
    limit.per.includes('app') ? eq(auditEvents.appId, attempt.appId) : undefined,
    limit.per.includes('ip') ? eq(auditEvents.ip, attempt.ip) : undefined,
    limit.per.includes('username') ? sql`${auditEvents.detail}->>'username' = ${attempt.username}` : undefined,
    gt(auditEvents.createdAt, sql`now() - make_interval(mins => ${limit.windowMinutes})`),
  )!;
}

/** Whether the events already recorded for `attempt` reached the limit. */
export async function isOverLimit(db: Database, limit: Limit, attempt: Attempt): Promise<boolean> {
  let counted = sameAttempt(limit, attempt, limit.type);
  if (limit.clearedBy) {
    const [cleared] = await db
      .select({ at: max(auditEvents.createdAt) })
      .from(auditEvents)
      .where(sameAttempt(limit, attempt, limit.clearedBy));
    if (cleared?.at) counted = and(counted, gt(auditEvents.createdAt, cleared.at))!;
  }
  const [events] = await db.select({ total: count() }).from(auditEvents).where(counted);
  return (events?.total ?? 0) >= limit.max;
}

export function isLoginThrottled(db: Database, attempt: Attempt): Promise<boolean> {
  return isOverLimit(db, LOGIN_FAILURES, attempt);
}

/**
 * Records an attempt of `type` (every limit counts that type) unless it would go over one of the
 * limits; answers whether it was allowed. The attempt is written first and then counted among those
 * before it, so a burst of simultaneous requests cannot all slip under the limit; a refused attempt
 * is taken back and does not count.
 */
export async function recordWithinLimits(
  db: Database,
  type: AuditType,
  attempt: Attempt,
  limits: readonly RequestLimit[],
): Promise<boolean> {
  const [recorded] = await db
    .insert(auditEvents)
    .values({ type, appId: attempt.appId, ip: attempt.ip, detail: { username: attempt.username } })
    .returning({ id: auditEvents.id });
  const exceeded = await Promise.all(
    limits.map(async (limit) => {
      const [events] = await db
        .select({ total: count() })
        .from(auditEvents)
        .where(and(sameAttempt(limit, attempt, type), lte(auditEvents.id, recorded!.id)));
      return (events?.total ?? 0) > limit.max;
    }),
  );
  if (!exceeded.some(Boolean)) return true;
  await db.delete(auditEvents).where(eq(auditEvents.id, recorded!.id));
  return false;
}

/**
 * Records an attempt of `limit.type` unless `limit.max` of them are already recorded since the latest
 * `limit.clearedBy` event (within the window); answers whether it was allowed. Written first and then
 * counted, like recordWithinLimits, so simultaneous attempts cannot all slip under the limit.
 */
export async function recordAttemptWithinLimit(db: Database, limit: Limit, attempt: Attempt): Promise<boolean> {
  const [recorded] = await db
    .insert(auditEvents)
    .values({ type: limit.type, appId: attempt.appId, ip: attempt.ip, detail: { username: attempt.username } })
    .returning({ id: auditEvents.id });
  let counted = and(sameAttempt(limit, attempt, limit.type), lte(auditEvents.id, recorded!.id))!;
  if (limit.clearedBy) {
    const [cleared] = await db
      .select({ at: max(auditEvents.createdAt) })
      .from(auditEvents)
      .where(sameAttempt(limit, attempt, limit.clearedBy));
    if (cleared?.at) counted = and(counted, gt(auditEvents.createdAt, cleared.at))!;
  }
  const [events] = await db.select({ total: count() }).from(auditEvents).where(counted);
  if ((events?.total ?? 0) <= limit.max) return true;
  await db.delete(auditEvents).where(eq(auditEvents.id, recorded!.id));
  return false;
}
