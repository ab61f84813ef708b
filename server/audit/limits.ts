// Limits on how often something may happen: wrong passwords, reset and magic-link requests. Counted
// from the audit trail in the database, so every instance sharing it agrees.
import { and, eq, gt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect, type PgPreparedQuery, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
import { isEmbedded, type Database } from '../db/client.ts';
import { fixedWrite, write } from '../db/write-batch.ts';
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
export type AttemptFields = { [field in keyof Attempt]: Attempt[field] | Placeholder };

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
  return sql`
    insert into ${auditEvents} (type, app_id, user_id, ip, user_agent, detail)
    select ${type}, ${attempt.appId}, ${recorded.userId}::text, ${attempt.ip}, ${recorded.userAgent}::text, jsonb_build_object('username', ${attempt.username}::text)
    where ${withinLimits(type, attempt, limits)}
    returning id`;
}

/** True while every one of `limits` is below its maximum for `attempt` (each counting events of `type`). */
export function withinLimits(type: AuditType, attempt: AttemptFields, limits: readonly (RequestLimit & { clearedBy?: AuditType })[]): SQL {
  return sql.join(
    limits.map((limit) => sql`${countSince(limit, type, attempt)} < ${limit.max}`),
    sql` and `,
  );
}

type Reservation = PgPreparedQuery<PreparedQueryConfig & { execute: unknown }>;

const dialect = new PgDialect();

/**
 * recordWithinLimitsStatement for `type` and `limits` with placeholders for the attempt, made into a
 * query of `db` (a database or a transaction). The embedded database keeps it prepared (below), as
 * a password sign-in keeps its own statement (server/auth/sign-in.ts): building a statement with
 * drizzle allocates much more than running one.
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
 * id, or null when refused (nothing recorded). Simultaneous attempts are counted one after the
 * other (underAttemptLocks), so a burst cannot get past a limit. The caller reserves before the costly or guessable step (a password verification, a mail) and releases
 * the reservation when the attempt must not count.
 */
export async function reserveAttempt(
  db: Database,
  type: AuditType,
  attempt: Attempt,
  limits: readonly (RequestLimit & { clearedBy?: AuditType })[],
  userId?: string,
): Promise<number | null> {
  const values = { ...attempt, userId: userId ?? null, userAgent: currentUserAgent() ?? null };
  if (isEmbedded(db)) {
    const [recorded] = rowsOf<{ id: number }>(await preparedReservation(db, type, limits).execute(values));
    return recorded ? Number(recorded.id) : null;
  }
  return underAttemptLocks(db, type, attempt, limits, async (tx) => {
    const [recorded] = rowsOf<{ id: number }>(await reservationQuery(tx, type, limits).execute(values));
    return recorded ? Number(recorded.id) : null;
  });
}

/**
 * Runs `count` (a statement that counts `limits` for `attempt` and records it) so that simultaneous
 * attempts are counted one after the other. On PostgreSQL: in a transaction holding an advisory lock
 * per limit key, taken before the statement, which then sees whatever the attempts that held the locks
 * before committed (a statement's snapshot is taken when it starts, so a lock taken inside it would be
 * too late). The embedded database runs one statement at a time on its one connection: the counts and
 * the record, one statement, cannot interleave with another attempt's, and a lock would only add three
 * exchanges with it (BEGIN, the lock, COMMIT) to every sign-in (bench/password-login.bench.ts).
 */
export async function underAttemptLocks<T>(
  db: Database,
  type: AuditType,
  attempt: Attempt,
  limits: readonly RequestLimit[],
  count: (db: Database) => Promise<T>,
): Promise<T> {
  if (isEmbedded(db)) return count(db);
  // Locks in one order everywhere, so two reservations never wait on each other crosswise.
  const keys = [...new Set(limits.map((limit) => lockKey(limit, type, attempt)))].sort();
  return db.transaction(async (tx) => {
    // Every lock in one statement, taken in the keys' order.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(key, 0)) from (select unnest(array[${sql.join(
        keys.map((key) => sql`${key}`),
        sql`, `,
      )}]::text[]) as key order by 1) as keys`,
    );
    return count(tx as unknown as Database);
  });
}

/** The rows of an execute answer: PGlite's has them under `rows`, postgres.js's is them. */
export function rowsOf<T>(result: unknown): T[] {
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

/** Both login limits, one list. */
const LOGIN_LIMITS = [LOGIN_FAILURES, LOGIN_FAILURES_PER_ADDRESS] as const;

/**
 * Whether a password sign-in may try `attempt`: both login limits below their maximum. A sign-in's
 * read records the attempt as a 'login.failure' under this condition, in the same statement
 * (server/auth/sign-in.ts), run through underLoginAttemptLocks.
 */
export function withinLoginLimits(attempt: AttemptFields): SQL {
  return withinLimits('login.failure', attempt, LOGIN_LIMITS);
}

/** underAttemptLocks for a password sign-in's attempt (both login limits). */
export function underLoginAttemptLocks<T>(db: Database, attempt: Attempt, count: (db: Database) => Promise<T>): Promise<T> {
  return underAttemptLocks(db, 'login.failure', attempt, LOGIN_LIMITS, count);
}

/** Fixed: a sign-in's reserved attempt made its success (recordLoginSuccess). */
const reservationSucceeded = fixedWrite<{ id: number; detail: string }>((db) =>
  db
    .update(auditEvents)
    .set({ type: 'login.success' satisfies AuditType, detail: sql`${sql.placeholder('detail')}::text::jsonb` })
    .where(eq(auditEvents.id, sql.placeholder('id'))),
);

/**
 * Makes a password sign-in's reserved attempt (a 'login.failure' until the password proved right) its
 * 'login.success' event in place, with the request's other writes: the same row, user, address and
 * device. It then clears the failures before it (LOGIN_FAILURES.clearedBy), and the attempt never
 * counted twice; taking the reservation back and recording the success were two writes.
 */
export async function recordLoginSuccess(db: Database, reservation: number, detail: Record<string, unknown>): Promise<void> {
  await write(db, reservationSucceeded(db, { id: reservation, detail: JSON.stringify(detail) }));
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
