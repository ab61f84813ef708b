// Limits on how often something may happen: wrong passwords, reset and magic-link requests. Counted
// from the audit trail in the database, so every instance sharing it agrees.
import { and, eq, gt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect, type PgPreparedQuery, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
import { isEmbedded, type Database } from '../db/client.ts';
import { write } from '../db/write-batch.ts';
import { auditEvents } from '../db/schema.ts';
import type { AuditEvent, AuditType } from './service.ts';
import { currentUserAgent } from '../http/request-device.ts';

/** Who is trying: the app, the client address, and the normalised e-mail. */
export interface Attempt {
  appId: string;
  ip: string;
  username: string;
}

/** An attempt's fields, or placeholders for them in a statement prepared once (reserveAttempt). */
type AttemptFields = { [field in keyof Attempt]: Attempt[field] | Placeholder };

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

/** The events of `type` that count against `limit` for `attempt`: the same app, address or username as the limit says, recent ones only. */
export function sameAttempt(limit: RequestLimit, attempt: AttemptFields, type: AuditType): SQL {
  return and(
    eq(auditEvents.type, type),
    limit.per.includes('app') ? eq(auditEvents.appId, attempt.appId) : undefined,
    limit.per.includes('ip') ? eq(auditEvents.ip, attempt.ip) : undefined,
    limit.per.includes('username') ? sql`${auditEvents.detail}->>'username' = ${attempt.username}` : undefined,
    gt(auditEvents.createdAt, sql`now() - make_interval(mins => ${limit.windowMinutes})`),
  )!;
}

/** What a limit counts for `attempt`, as the key of its advisory lock. */
function lockKey(limit: RequestLimit, type: AuditType, attempt: Attempt): string {
  const parts = limit.per.map((part) => (part === 'app' ? attempt.appId : part === 'ip' ? attempt.ip : attempt.username));
  return JSON.stringify([type, ...limit.per, ...parts]);
}

/**
 * How many events of `type` count against `limit` for `attempt` (those since its clearedBy event, when
 * it has one), as a scalar subquery: each limit's count is a range of one attempt index
 * (tests/server/audit/limit-plans.test.ts).
 */
export function countSince(limit: RequestLimit & { clearedBy?: AuditType }, type: AuditType, attempt: AttemptFields): SQL {
  const clearedAt = limit.clearedBy
    ? sql`(select max(${auditEvents.createdAt}) from ${auditEvents} where ${sameAttempt(limit, attempt, limit.clearedBy)})`
    : undefined;
  const counted = clearedAt
    ? and(sameAttempt(limit, attempt, type), sql`${auditEvents.createdAt} > coalesce(${clearedAt}, '-infinity'::timestamptz)`)!
    : sameAttempt(limit, attempt, type);
  return sql`(select count(*) from ${auditEvents} where ${counted})`;
}

/**
 * The event of `type` for `attempt`, inserted only when every one of `limits` is still below its
 * maximum: counts and record in one statement (tests/server/audit/limit-plans.test.ts reads its plan).
 */
export function recordWithinLimitsStatement(
  type: AuditType,
  attempt: AttemptFields,
  limits: readonly (RequestLimit & { clearedBy?: AuditType })[],
  recorded: { userId: string | null | Placeholder; userAgent: string | null | Placeholder } = { userId: null, userAgent: null },
): SQL {
  const withinLimits = sql.join(
    limits.map((limit) => sql`${countSince(limit, type, attempt)} < ${limit.max}`),
    sql` and `,
  );
  return sql`
    insert into ${auditEvents} (type, app_id, user_id, ip, user_agent, detail)
    select ${type}, ${attempt.appId}, ${recorded.userId}::text, ${attempt.ip}, ${recorded.userAgent}::text, jsonb_build_object('username', ${attempt.username}::text)
    where ${withinLimits}
    returning id`;
}

type Reservation = PgPreparedQuery<PreparedQueryConfig & { execute: unknown }>;

const dialect = new PgDialect();

/**
 * recordWithinLimitsStatement for `type` and `limits` with placeholders for the attempt, made into a
 * query of `db` (a database or a transaction). Building it with drizzle was most of what a password
 * sign-in allocated beside its other statements (bench/password-login.bench.ts), so the embedded
 * database keeps it prepared (below).
 */
function reservationQuery(db: Database, type: AuditType, limits: readonly (RequestLimit & { clearedBy?: AuditType })[]): Reservation {
  const statement = recordWithinLimitsStatement(
    type,
    { appId: sql.placeholder('appId'), ip: sql.placeholder('ip'), username: sql.placeholder('username') },
    limits,
    { userId: sql.placeholder('userId'), userAgent: sql.placeholder('userAgent') },
  );
  return db._.session.prepareQuery(dialect.sqlToQuery(statement), undefined, undefined, false);
}

/** The embedded database's reservation queries, per database, list of limits and type. */
const preparedReservations = new WeakMap<Database, WeakMap<readonly RequestLimit[], Map<AuditType, Reservation>>>();

function preparedReservation(db: Database, type: AuditType, limits: readonly (RequestLimit & { clearedBy?: AuditType })[]): Reservation {
  let byLimits = preparedReservations.get(db);
  if (!byLimits) preparedReservations.set(db, (byLimits = new WeakMap()));
  let byType = byLimits.get(limits);
  if (!byType) byLimits.set(limits, (byType = new Map()));
  let query = byType.get(type);
  if (!query) byType.set(type, (query = reservationQuery(db, type, limits)));
  return query;
}

/**
 * Reserves one attempt: records an event of `type` for `attempt` unless one of `limits` (each
 * counting events of `type`, since its clearedBy event) is already reached, and answers the event's
 * id, or null when refused (nothing recorded). On PostgreSQL, count and record happen in one
 * transaction holding an advisory lock per limit key, so simultaneous attempts are counted one after
 * the other and a burst cannot get past a limit; the embedded database needs no lock (below). The
 * caller reserves before the costly or guessable step (a password verification, a mail) and releases
 * the reservation when the attempt must not count.
 */
export async function reserveAttempt(
  db: Database,
  type: AuditType,
  attempt: Attempt,
  limits: readonly (RequestLimit & { clearedBy?: AuditType })[],
  userId?: string,
): Promise<number | null> {
  // The embedded database runs one statement at a time on its one connection: the counts and the
  // record, one statement, cannot interleave with another attempt's, and a lock would only add three
  // exchanges with it (BEGIN, the lock, COMMIT) to every sign-in (bench/password-login.bench.ts).
  const values = { ...attempt, userId: userId ?? null, userAgent: currentUserAgent() ?? null };
  if (isEmbedded(db)) {
    const [recorded] = rowsOf<{ id: number }>(await preparedReservation(db, type, limits).execute(values));
    return recorded ? Number(recorded.id) : null;
  }
  // Locks in one order everywhere, so two reservations never wait on each other crosswise.
  const keys = [...new Set(limits.map((limit) => lockKey(limit, type, attempt)))].sort();
  return db.transaction(async (tx) => {
    // Every lock in one statement, taken in the keys' order; the counts run after it, in a statement of
    // their own, so they see whatever the attempts that held the locks before committed.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(key, 0)) from (select unnest(array[${sql.join(
        keys.map((key) => sql`${key}`),
        sql`, `,
      )}]::text[]) as key order by 1) as keys`,
    );
    const answer = await reservationQuery(tx as unknown as Database, type, limits).execute(values);
    const [recorded] = rowsOf<{ id: number }>(answer);
    return recorded ? Number(recorded.id) : null;
  });
}

/** The rows of an execute answer: PGlite's has them under `rows`, postgres.js's is them. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

/**
 * Makes a reserved attempt the audit event of the step it guarded, in place (who acted, what it did),
 * so the attempt counts exactly once: an event recorded beside the reservation would count twice
 * until the reservation went, and refuse a concurrent attempt still within the limit.
 */
export async function confirmAttempt(
  db: Database,
  reservation: number,
  event: Pick<AuditEvent, 'userId' | 'tenantUserId' | 'detail'>,
): Promise<void> {
  await db
    .update(auditEvents)
    .set({ userId: event.userId ?? null, tenantUserId: event.tenantUserId ?? null, detail: event.detail ?? {} })
    .where(eq(auditEvents.id, reservation));
}

/**
 * Takes back a reserved attempt that must not count (it succeeded, or never got to the guarded step);
 * with the request's other writes when it batches them (a password sign-in: server/db/write-batch.ts).
 */
export async function releaseAttempt(db: Database, reservation: number): Promise<void> {
  await write(db, db.delete(auditEvents).where(eq(auditEvents.id, reservation)));
}

/** Password guessing across usernames (spraying): at most thirty wrong passwords per app and address in 15 minutes, whoever signs in meanwhile. */
export const LOGIN_FAILURES_PER_ADDRESS: Limit = { type: 'login.failure', max: 30, windowMinutes: 15, per: ['app', 'ip'] };

/** Both login limits, one list, so the embedded database prepares their reservation once. */
const LOGIN_LIMITS = [LOGIN_FAILURES, LOGIN_FAILURES_PER_ADDRESS] as const;

/** A wrong-password reservation for a sign-in (both login limits); null when over either. */
export function reserveLoginAttempt(db: Database, attempt: Attempt, userId?: string): Promise<number | null> {
  return reserveAttempt(db, 'login.failure', attempt, LOGIN_LIMITS, userId);
}

/** Records an attempt of `type` unless it would go over one of `limits`; answers whether it was allowed. */
export async function recordWithinLimits(
  db: Database,
  type: AuditType,
  attempt: Attempt,
  limits: readonly RequestLimit[],
): Promise<boolean> {
  return (await reserveAttempt(db, type, attempt, limits)) !== null;
}

/** Records an attempt of `limit.type` unless `limit.max` of them are recorded since the latest `limit.clearedBy`; answers whether it was allowed. */
export async function recordAttemptWithinLimit(db: Database, limit: Limit, attempt: Attempt): Promise<boolean> {
  return (await reserveAttempt(db, limit.type, attempt, [limit])) !== null;
}
