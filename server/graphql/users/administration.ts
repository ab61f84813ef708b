// Changing other members of the caller's workspace: role and enabled, removal, reset links. The
// rules come from common/roles.ts (who manages whom, who grants what); here they are
// applied inside one transaction that holds the workspace row locked, with the acting membership
// read again under the lock, so two owners demoting each other at once cannot leave the workspace
// without an enabled OWNER. Every id is looked up within the caller's workspace: another
// workspace's member is "not found", exactly like an id that does not exist.
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { revokeAccountGrants } from '../../auth/oidc/adapter.ts';
import { revokeIdentityLegacyTokens } from '../../auth/legacy-tokens.ts';
import type { Database } from '../../db/client.ts';
import { tenants, tenantUsers, userTokens, users } from '../../db/schema.ts';
import type { Role } from '../../../common/roles.ts';
import { passwordSignInEnabled } from '../../auth/sign-in.ts';
import { isRole, mayGrant, mayManage, REQUIRED_ROLE, ROLES } from '../../../common/roles.ts';
import { consumeToken, issueToken } from '../../auth/tokens/service.ts';
import { recordAudit, type AuditType } from '../../audit/service.ts';
import type { GraphQLContext } from '../context.ts';
import { auditActorOf, type WorkspaceActor } from '../../auth/app-key-caller.ts';
import type { User, UserInput } from '../generated/resolvers.ts';
import { foyerError } from '../errors.ts';
import { InputProblems } from '../input.ts';
import { checkMailAllowance } from './mail-limit.ts';
import { getMember } from './service.ts';
import { emitTenantUserEvent } from '../../outbox/outbox.ts';
import { allowedValuesIssue, plainIssue } from '../../http/field-issues.ts';

interface Target {
  id: string;
  userId: string;
  role: string;
  enabled: boolean;
  invitationPending: boolean;
  email: string;
  locale: string | null;
}

const notFound = () => foyerError('NOT_FOUND', 'There is no such user in this workspace');

async function findTarget(db: Database, tenantId: string, tenantUserId: string): Promise<Target> {
  const [target] = await db
    .select({
      id: tenantUsers.id,
      userId: tenantUsers.userId,
      role: tenantUsers.role,
      enabled: tenantUsers.enabled,
      invitationPending: tenantUsers.invitationPending,
      email: users.email,
      locale: users.locale,
    })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(tenantUsers.id, tenantUserId), eq(tenantUsers.tenantId, tenantId)))
    .limit(1);
  if (!target) throw notFound();
  return target;
}

/**
 * The acting member's role as the database has it now; refused once the membership no longer counts.
 * An app's API key acts with an OWNER's authority (server/auth/app-key-caller.ts).
 */
async function currentRole(db: Database, actor: WorkspaceActor): Promise<Role> {
  if (actor.kind === 'appKey') return REQUIRED_ROLE;
  const [membership] = await db
    .select({ role: tenantUsers.role, enabled: tenantUsers.enabled })
    .from(tenantUsers)
    .where(and(eq(tenantUsers.id, actor.tenantUserId), eq(tenantUsers.tenantId, actor.tenantId)))
    .limit(1);
  if (!membership?.enabled || !isRole(membership.role)) {
    throw foyerError('FORBIDDEN', 'Your membership of this workspace changed; sign in again');
  }
  return membership.role;
}

interface Change<Result> {
  type: AuditType;
  /** Applies the change; answers the audited detail (null: nothing changed, nothing audited) and a result. */
  apply(tx: Database, target: Target, actorRole: Role): Promise<{ detail: Record<string, unknown> | null; result: Result }>;
}

/**
 * Runs `change` on the member `targetId` when the rules allow it: the target is in the caller's
 * workspace (404), is not the caller (403 SELF_CHANGE_FORBIDDEN), and holds a role the caller's role
 * manages (403 FORBIDDEN); afterwards the workspace must still have an enabled OWNER (403
 * OWNER_ROLE_MUST_EXIST). All or nothing, audited in the same transaction.
 */
async function changeMember<Result>(
  context: GraphQLContext,
  actor: WorkspaceActor,
  targetId: string,
  change: Change<Result>,
): Promise<Result> {
  return context.db.transaction(async (tx) => {
    await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, actor.tenantId)).for('update');
    const actorRole = await currentRole(tx, actor);
    const target = await findTarget(tx, actor.tenantId, targetId);
    if (actor.kind === 'member' && target.id === actor.tenantUserId) {
      throw foyerError('SELF_CHANGE_FORBIDDEN', 'You cannot change, reset or delete yourself here; use your profile instead');
    }
    if (!mayManage(actorRole, target.role)) {
      throw foyerError('FORBIDDEN', `As ${actorRole} you cannot change a member whose role is ${target.role}`);
    }
    const { detail, result } = await change.apply(tx, target, actorRole);
    const [owners] = await tx
      .select({ total: count() })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, actor.tenantId), eq(tenantUsers.role, REQUIRED_ROLE), eq(tenantUsers.enabled, true)));
    if ((owners?.total ?? 0) === 0) {
      throw foyerError('OWNER_ROLE_MUST_EXIST', `The workspace must keep at least one enabled ${REQUIRED_ROLE}`);
    }
    if (detail) {
      const { userId, tenantUserId, actorDetail } = auditActorOf(actor);
      await recordAudit(tx, {
        type: change.type,
        appId: actor.app.id,
        userId,
        tenantUserId,
        ip: context.clientIp,
        detail: {
          tenantId: actor.tenantId,
          target: { tenantUserId: target.id, userId: target.userId, email: target.email },
          ...actorDetail,
          ...detail,
        },
      });
    }
    return result;
  });
}

export async function updateUser(context: GraphQLContext, actor: WorkspaceActor, input: UserInput): Promise<User> {
  const problems = new InputProblems();
  if (input.role != null && !isRole(input.role)) problems.add('role', allowedValuesIssue(ROLES));
  // Custom values belong to the identity, which other workspaces share: no workspace edits them.
  if (input.customParams != null) problems.add('customParams', plainIssue('customValuesFixed'));
  problems.throwIfAny();

  await changeMember(context, actor, input.id, {
    type: 'user.updated',
    async apply(tx, target, actorRole) {
      const changes: { role?: string; enabled?: boolean } = {};
      const audited: Record<string, { from: unknown; to: unknown }> = {};
      if (input.role != null && input.role !== target.role) {
        if (!mayGrant(actorRole, input.role)) {
          throw foyerError('FORBIDDEN', `As ${actorRole} you cannot grant the role ${input.role}`);
        }
        changes.role = input.role;
        audited.role = { from: target.role, to: input.role };
      }
      if (input.enabled != null && input.enabled !== target.enabled) {
        changes.enabled = input.enabled;
        audited.enabled = { from: target.enabled, to: input.enabled };
      }
      if (Object.keys(changes).length === 0) return { detail: null, result: undefined };
      await tx.update(tenantUsers).set(changes).where(eq(tenantUsers.id, target.id));
      await emitTenantUserEvent(tx, actor.app.id, 'TENANT_USER_UPDATED', target.id);
      if (changes.enabled === false) {
        // The member's tokens for this workspace die now, not when they expire.
        await revokeAccountGrants(tx, sql`select ${target.id}`);
        // Legacy tokens belong to the identity, not one workspace: all of them end.
        await revokeIdentityLegacyTokens(tx, target.userId);
        // An unused invitation link enables the membership it names: it must not undo this.
        await tx
          .update(userTokens)
          .set({ usedAt: new Date() })
          .where(and(eq(userTokens.tenantUserId, target.id), eq(userTokens.purpose, 'invite'), isNull(userTokens.usedAt)));
      }
      return { detail: { changes: audited }, result: undefined };
    },
  });
  return getMember(context.db, actor.app, actor.tenantId, input.id);
}

/** Removes the membership only: the identity and its memberships of other workspaces stay. */
export async function deleteUser(context: GraphQLContext, actor: WorkspaceActor, tenantUserId: string): Promise<boolean> {
  return changeMember(context, actor, tenantUserId, {
    type: 'user.deleted',
    async apply(tx, target) {
      // Read before it goes: the event carries the membership as it was.
      await emitTenantUserEvent(tx, actor.app.id, 'TENANT_USER_DELETED', target.id);
      // The membership's invitation links go with it (user_tokens.tenant_user_id cascades).
      await tx.delete(tenantUsers).where(eq(tenantUsers.id, target.id));
      return { detail: { role: target.role, enabled: target.enabled }, result: true };
    },
  });
}

/** Mails the member a link to set a new password; answers true once the mail is handed over. */
export async function sendPasswordResetLink(context: GraphQLContext, actor: WorkspaceActor, tenantUserId: string): Promise<boolean> {
  const { db, config, notifier, log } = context;
  if (!passwordSignInEnabled(actor.app)) {
    throw foyerError('PASSWORD_SIGN_IN_DISABLED', 'This app does not use passwords, so there is no password to reset');
  }
  await checkMailAllowance(db, actor, 1);
  const issued = await changeMember(context, actor, tenantUserId, {
    type: 'user.reset_link_sent',
    async apply(tx, target) {
      // Issuing retires the member's earlier reset links.
      const token = await issueToken(tx, {
        appId: actor.app.id,
        userId: target.userId,
        purpose: 'reset',
        ttlSeconds: config.resetTokenTtlSeconds,
      });
      return { detail: {}, result: { token, target } };
    },
  });
  const delivery = await notifier.send({
    appId: actor.app.id,
    to: issued.target.email,
    kind: 'reset',
    // The member's own language, else that of the workspace that sends the link.
    locale:
      issued.target.locale ??
      (await db.select({ locale: tenants.locale }).from(tenants).where(eq(tenants.id, actor.tenantId)))[0]?.locale ??
      null,
    link: `${config.urls.ui}/auth/set-password/${issued.token}`,
    expiresInSeconds: config.resetTokenTtlSeconds,
  });
  if (!delivery.delivered) {
    log.error({ appId: actor.app.id, reason: delivery.reason }, 'reset link not delivered');
    // Nobody received it: it must not stay usable.
    await consumeToken(db, issued.token, ['reset']);
    throw foyerError('SERVICE_UNAVAILABLE', 'The reset e-mail could not be sent; try again later');
  }
  return true;
}

/**
 * A link for the member to set a password, answered instead of mailed (the management API's
 * passwordLink): for a pending invitation the invitation's own link (accepting it sets the password),
 * otherwise a reset link. Issuing retires the member's earlier links of that kind.
 */
export async function issuePasswordLink(context: GraphQLContext, actor: WorkspaceActor, tenantUserId: string): Promise<string> {
  const { config } = context;
  if (!passwordSignInEnabled(actor.app)) {
    throw foyerError('PASSWORD_SIGN_IN_DISABLED', 'This app does not use passwords, so there is no password to reset');
  }
  const token = await changeMember(context, actor, tenantUserId, {
    type: 'user.reset_link_issued',
    async apply(tx, target) {
      const issued = target.invitationPending
        ? await issueToken(tx, { appId: actor.app.id, userId: target.userId, purpose: 'invite', tenantUserId: target.id })
        : await issueToken(tx, { appId: actor.app.id, userId: target.userId, purpose: 'reset', ttlSeconds: config.resetTokenTtlSeconds });
      return { detail: { purpose: target.invitationPending ? 'invite' : 'reset' }, result: issued };
    },
  });
  return `${config.urls.ui}/auth/set-password/${token}`;
}
