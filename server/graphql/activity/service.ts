// Activity read from the audit trail the server already keeps: the signed-in person's own recent
// security events in this app (the profile), and their workspace's administration log (OWNERs and
// ADMINs), newest first.
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditEvents, users } from '../../db/schema.ts';
import type { AuditType } from '../../audit/service.ts';
import { deviceOf } from '../../audit/device.ts';
import type { MemberCaller } from '../../auth/caller-kinds.ts';
import { WORKSPACE_LOG_EVENTS } from '../../../common/workspace-log.ts';
import type { ActivityEvent, AuditLogPage } from '../generated/resolvers.ts';

/** What a person recognises as their own account's security activity. */
export const ACTIVITY_TYPES: AuditType[] = [
  'login.success',
  'login.failure',
  'logout',
  'session.revoked',
  'session.others_revoked',
  'session.all_revoked',
  'mfa.setup_finished',
  'mfa.recovered',
  'passkey.registered',
  'passkey.renamed',
  'passkey.deleted',
  'user.profile_updated',
  'enterprise.linked',
];

export const DEFAULT_ACTIVITY_LIMIT = 20;
const MAX_ACTIVITY_LIMIT = 50;

export async function myActivity(db: Database, member: MemberCaller, limit: number | null | undefined): Promise<ActivityEvent[]> {
  const count = Math.min(Math.max(limit ?? DEFAULT_ACTIVITY_LIMIT, 1), MAX_ACTIVITY_LIMIT);
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.appId, member.app.id), eq(auditEvents.userId, member.userId), inArray(auditEvents.type, ACTIVITY_TYPES)))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(count);
  return rows.map((row) => ({
    type: row.type,
    at: row.createdAt.toISOString(),
    ip: row.ip,
    method: typeof row.detail.method === 'string' ? row.detail.method : null,
    ...deviceOf(row.userAgent),
  }));
}

/** The workspace administration events an OWNER or ADMIN reviews: who invited, changed or removed whom. */
const WORKSPACE_LOG_TYPES: readonly AuditType[] = WORKSPACE_LOG_EVENTS;

export const MAX_LOG_PAGE_SIZE = 100;

export interface WorkspaceLogFilter {
  actorTenantUserId?: string | null;
  type?: string | null;
  offset?: number | null;
  limit?: number | null;
}

/** One page of the caller's workspace log, newest first, with the total for the pager. */
export async function workspaceLog(db: Database, member: MemberCaller, filter: WorkspaceLogFilter): Promise<AuditLogPage> {
  const types = filter.type ? WORKSPACE_LOG_TYPES.filter((type) => type === filter.type) : WORKSPACE_LOG_TYPES;
  const conditions = [
    eq(auditEvents.appId, member.app.id),
    sql`${auditEvents.detail}->>'tenantId' = ${member.tenantId}`,
    inArray(auditEvents.type, types.length > 0 ? types : ['']),
    ...(filter.actorTenantUserId ? [eq(auditEvents.tenantUserId, filter.actorTenantUserId)] : []),
  ];
  const limit = Math.min(Math.max(filter.limit ?? 20, 1), MAX_LOG_PAGE_SIZE);
  const offset = Math.max(filter.offset ?? 0, 0);
  const [rows, [total]] = await Promise.all([
    db
      .select({ event: auditEvents, actorEmail: users.email })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.userId))
      .where(and(...conditions))
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .offset(offset)
      .limit(limit),
    db
      .select({ count: count() })
      .from(auditEvents)
      .where(and(...conditions)),
  ]);
  return {
    total: total?.count ?? 0,
    entries: rows.map(({ event, actorEmail }) => {
      const target = event.detail.target as { email?: unknown } | undefined;
      return {
        type: event.type,
        at: event.createdAt.toISOString(),
        ip: event.ip,
        actorEmail,
        targetEmail: typeof target?.email === 'string' ? target.email : null,
      };
    }),
  };
}
