// The signed-in person's recent security events for the profile's activity list, read from the audit
// trail the server already keeps: their own events in this app only, newest first.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';
import type { AuditType } from '../../audit/service.ts';
import type { MemberCaller } from '../context.ts';
import type { ActivityEvent } from '../generated/resolvers.ts';

/** What a person recognises as their own account's security activity. */
export const ACTIVITY_TYPES: AuditType[] = [
  'login.success',
  'login.failure',
  'logout',
  'mfa.setup_finished',
  'mfa.recovered',
  'passkey.registered',
  'passkey.renamed',
  'passkey.deleted',
  'user.profile_updated',
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
  }));
}
