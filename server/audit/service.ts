// Security-relevant events (logins, token issues, logouts), kept in the database for operators.
import type { Database } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';

export type AuditType =
  | 'login.success'
  | 'login.failure'
  | 'token.issued'
  | 'token.refresh_reuse'
  | 'logout'
  /** A password reset link was asked for (known and unknown e-mails alike; counted by the limits). */
  | 'password.reset_requested'
  /** A magic link was asked for (known and unknown e-mails alike; counted by the limits). */
  | 'magic_link.requested'
  /** A workspace was created by self-signup (counted per address by the signup limit). */
  | 'tenant.signup';

export interface AuditEvent {
  type: AuditType;
  appId?: string | null;
  userId?: string | null;
  tenantUserId?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

export async function recordAudit(db: Database, event: AuditEvent): Promise<void> {
  await db.insert(auditEvents).values({
    type: event.type,
    appId: event.appId ?? null,
    userId: event.userId ?? null,
    tenantUserId: event.tenantUserId ?? null,
    ip: event.ip ?? null,
    detail: event.detail ?? {},
  });
}
