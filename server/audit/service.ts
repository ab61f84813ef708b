// Security-relevant events (logins, token issues, logouts, changes to members), kept in the database
// for operators.
import type { Database } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';
import { sql } from 'drizzle-orm';
import { fixedWrite, write } from '../db/write-batch.ts';
import { currentUserAgent } from '../http/request-device.ts';

export type AuditType =
  | 'login.success'
  | 'login.failure'
  | 'token.issued'
  | 'token.refresh_reuse'
  | 'logout'
  /** Sign-in sessions ended from the profile: one, every other one (detail.revoked), or all of them. */
  | 'session.revoked'
  | 'session.others_revoked'
  | 'session.all_revoked'
  /** A password reset link was asked for (known and unknown e-mails alike; counted by the limits). */
  | 'password.reset_requested'
  /** A magic link was asked for (known and unknown e-mails alike; counted by the limits). */
  | 'magic_link.requested'
  /** A sign-in with a social or enterprise provider was started (counted by FEDERATION_STARTS only). */
  | 'federation.started'
  /** A social signup on an unverified e-mail answered "check your email" (whether or not a link went out; counted by the limits). */
  | 'federation.signup_link_requested'
  /** A social provider account was linked to an existing identity on its verified e-mail (detail: federation). */
  | 'federation.linked'
  /**
   * A mailed link proved an identity's address for the first time, which dropped the provider links
   * and passkeys set up before it and ended its sessions (server/auth/email-proof.ts; detail: method,
   * providerLinks, passkeys).
   */
  | 'identity.email_proven'
  /** An enterprise connection made a membership just in time (detail: tenantId, connectionId, role). */
  | 'enterprise.joined'
  /** The app's operator released a verified domain claim (detail: domain, tenantId, connectionId, verifiedAt). */
  | 'enterprise.domain_released'
  /** A person confirmed, signed in the old way, linking an enterprise connection's subject to their identity (detail: connectionId, tenantId). */
  | 'enterprise.linked'
  /** A workspace was created by self-signup (counted per address by the signup limit). */
  | 'tenant.signup'
  | 'tenant.updated'
  /**
   * Payments (server/payments/): an owner picked a plan (detail: tenantId, plan, currency, interval,
   * and whether a checkout is needed), opened the checkout or the subscription portal, and the
   * provider's events applied to the workspace (detail: provider, event id and type, the plan and
   * subscription status after it) or refused (detail: why).
   */
  | 'payment.plan_selected'
  | 'payment.checkout_opened'
  | 'payment.portal_opened'
  | 'payment.event_applied'
  | 'payment.event_refused'
  /** A workspace's logo was uploaded from its settings page (detail: tenantId, assetId, contentType, bytes). */
  | 'tenant.logo_uploaded'
  /** Two-factor by SMS: a code texted (counted by the send limits), a wrong code, the factor passed. */
  | 'mfa.code_sent'
  /** An app's back end mailed a member (the management API); counted for its limits. */
  | 'user.message_mailed'
  /** An app's back end texted a member, or sent them a code; counted for its limits. */
  | 'user.sms_sent'
  | 'mfa.failure'
  | 'mfa.verified'
  /** An authenticator-app code tried at sign-in, recorded before it is checked (counted by TOTP_ATTEMPTS). */
  | 'mfa.totp_attempt'
  /** A phone became the user's second factor (detail: the number's last digits). */
  | 'mfa.setup_finished'
  /** A wrong recovery code (counted by the recovery limit), and a recovery that reset two-factor. */
  | 'mfa.recovery_failure'
  | 'mfa.recovered'
  /**
   * Workspace administration. tenantUserId is the acting member; detail names the workspace
   * (tenantId), the member acted on (target: tenantUserId, userId, email) and, for updates, each
   * changed field as {from, to}. Invitations and reset links sent also count for the sender's limit.
   */
  | 'user.invited'
  | 'user.updated'
  | 'user.deleted'
  | 'user.reset_link_sent'
  /** A set-password link handed to the app's back end instead of mailed (management API; detail.purpose). */
  | 'user.reset_link_issued'
  /** A member changed their own profile (updateMe); detail lists the changed fields. */
  | 'user.profile_updated'
  /** A passkey was added to (detail: how it was authorised), renamed on or removed from a user's account. */
  | 'passkey.registered'
  | 'passkey.options_requested'
  | 'passkey.renamed'
  | 'passkey.deleted'
  /**
   * The admin API (server/admin): appId is the app acted on; detail.actor the owner's e-mail or
   * 'api-key' (userId and tenantUserId name the console member when an owner acted).
   */
  | 'app.created'
  | 'app.draft_saved'
  | 'app.draft_discarded'
  /** detail: version, note. */
  | 'app.published'
  /** detail: the version that became the draft. */
  | 'app.version_restored'
  | 'app.api_key_regenerated'
  /** One of several named keys made or revoked (detail: apiKeyId, name). */
  | 'app.api_key_created'
  | 'app.api_key_revoked'
  | 'app.client_secret_regenerated'
  /** detail: assetId, contentType, bytes. */
  | 'app.logo_uploaded'
  /** detail: tenantId, name, owner {tenantUserId, userId, email}, newIdentity. */
  | 'app.workspace_created'
  /** The management API deleted a workspace (detail: tenantId, name, apiKeyId). */
  | 'app.workspace_deleted'
  /** What the admin API's creation limits count (server/admin/limits.ts); detail.username names the owner or API key. */
  | 'app.creation_requested'
  | 'app.workspace_requested';

export interface AuditEvent {
  type: AuditType;
  appId?: string | null;
  userId?: string | null;
  tenantUserId?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

/** Fixed: every token issue records one (server/db/write-batch.ts). */
const insertEvent = fixedWrite<Record<'type' | 'appId' | 'userId' | 'tenantUserId' | 'ip' | 'userAgent' | 'detail', unknown>>((db) =>
  db.insert(auditEvents).values({
    type: sql.placeholder('type'),
    appId: sql.placeholder('appId'),
    userId: sql.placeholder('userId'),
    tenantUserId: sql.placeholder('tenantUserId'),
    ip: sql.placeholder('ip'),
    userAgent: sql.placeholder('userAgent'),
    detail: sql.placeholder('detail'),
  }),
);

export async function recordAudit(db: Database, event: AuditEvent): Promise<void> {
  // With the request's other writes when it batches them (the token endpoint: server/db/write-batch.ts).
  await write(
    db,
    insertEvent(db, {
      type: event.type,
      appId: event.appId ?? null,
      userId: event.userId ?? null,
      tenantUserId: event.tenantUserId ?? null,
      ip: event.ip ?? null,
      userAgent: currentUserAgent() ?? null,
      detail: event.detail ?? {},
    }),
  );
}
