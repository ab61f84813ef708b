// An app's audit log for its owners (GET /admin/apps/{appId}/audit-log): the events of
// common/app-log.ts recorded for that app, newest first, filtered by event type and by person
// (the e-mail of who the event is about or who acted), one page at a time.
import { and, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { auditEvents, users } from '../db/schema.ts';
import type { AuditType } from '../audit/service.ts';
import { deviceOf } from '../audit/device.ts';
import { APP_LOG_EVENTS } from '../../common/app-log.ts';
import type { AuditLogEntry, AuditLogQuery } from '../../common/api/admin.ts';
import type { AppRow } from './caller.ts';

const APP_LOG_TYPES: readonly AuditType[] = APP_LOG_EVENTS;

export async function appAuditLog(db: Database, app: AppRow, filter: AuditLogQuery): Promise<{ total: number; entries: AuditLogEntry[] }> {
  const person = filter.person?.trim().toLowerCase();
  const conditions = and(
    eq(auditEvents.appId, app.id),
    inArray(auditEvents.type, filter.type ? APP_LOG_TYPES.filter((type) => type === filter.type) : APP_LOG_TYPES),
    person ? or(sql`lower(${users.email}) = ${person}`, sql`${auditEvents.detail}->>'username' = ${person}`) : undefined,
  );
  const limit = filter.limit ?? 20;
  const [rows, [total]] = await Promise.all([
    db
      .select({ event: auditEvents, email: users.email })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.userId))
      .where(conditions)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .offset(filter.offset ?? 0)
      .limit(limit),
    db.select({ count: count() }).from(auditEvents).leftJoin(users, eq(users.id, auditEvents.userId)).where(conditions),
  ]);
  return {
    total: total?.count ?? 0,
    entries: rows.map(({ event, email }) => ({
      type: event.type,
      at: event.createdAt.toISOString(),
      ip: event.ip,
      person: email ?? (typeof event.detail.username === 'string' && event.detail.username ? event.detail.username : null),
      viaApiKey: event.detail.actor === 'api-key',
      browser: deviceOf(event.userAgent).browser,
      os: deviceOf(event.userAgent).os,
    })),
  };
}
