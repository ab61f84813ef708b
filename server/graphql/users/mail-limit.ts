// How much mail one member can make Foyer send to others: invitations and reset links together, at
// most a hundred an hour per sending membership. Counted from the audit trail, so every instance
// sharing the database agrees.
import { and, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';
import type { AuditType } from '../../audit/service.ts';
import type { WorkspaceActor } from '../../auth/app-key-caller.ts';
import { tooManyRequests } from '../errors.ts';

export const MEMBER_MAIL_LIMIT = { max: 100, windowMinutes: 60 };

export const MAIL_SENDING_AUDIT_TYPES: readonly AuditType[] = ['user.invited', 'user.reset_link_sent'];

/**
 * Throws TOO_MANY_REQUESTS (429) unless `member` may send `wanted` more messages now. An app's API
 * keys share one allowance per workspace: the mail their calls sent there (no acting membership).
 */
export async function checkMailAllowance(db: Database, member: WorkspaceActor, wanted: number): Promise<void> {
  const sender =
    member.kind === 'member'
      ? eq(auditEvents.tenantUserId, member.tenantUserId)
      : and(isNull(auditEvents.tenantUserId), sql`${auditEvents.detail}->>'tenantId' = ${member.tenantId}`);
  const [sent] = await db
    .select({ total: count() })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.appId, member.app.id),
        sender,
        inArray(auditEvents.type, [...MAIL_SENDING_AUDIT_TYPES]),
        gt(auditEvents.createdAt, sql`now() - make_interval(mins => ${MEMBER_MAIL_LIMIT.windowMinutes})`),
      ),
    );
  if ((sent?.total ?? 0) + wanted > MEMBER_MAIL_LIMIT.max) {
    throw tooManyRequests(
      `At most ${MEMBER_MAIL_LIMIT.max} invitations and reset links an hour; try again later`,
      MEMBER_MAIL_LIMIT.windowMinutes * 60,
    );
  }
}
