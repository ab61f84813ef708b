// Inviting people to the caller's workspace (createUsers). Each address is trimmed, blanks are
// dropped and repeats (in any letter case) count once. Each valid address then gets, on its own, an
// identity of this app (found by e-mail, or created without a password), a pending membership with
// the app's default role, and a mail whose link accepts the invitation: it sets a password
// ('invite') when the identity has none yet, otherwise it confirms ('invite-existing'). Until then
// the membership cannot be used and shows nothing of the identity (server/graphql/users/service.ts),
// so the answer is the same whether the address was known or not: an owner learns nothing of people
// who joined other workspaces of the app.
//
// Per-address failures do not stop the others. When every address was invited the answer is the
// list of new members. Otherwise it is BAD_USER_INPUT (400) with
//   extensions.fields   {<address as typed, trimmed>: message}
//   extensions.reasons  {<address>: INVALID_EMAIL | ALREADY_MEMBER | MAIL_NOT_SENT}
//   extensions.invited  [{id, email}] of the addresses that were invited all the same,
// so a form can show each failure at its input and the notice for the rest.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tenants, tenantUsers, users } from '../../db/schema.ts';
import type { Role } from '../../../common/roles.ts';
import { isRole, mayGrant, mayManage, ROLES } from '../../../common/roles.ts';
import { issueToken, TOKEN_TTL_SECONDS } from '../../auth/tokens/service.ts';
import { recordAudit } from '../../audit/service.ts';
import type { GraphQLContext } from '../context.ts';
import type { MemberCaller } from '../../auth/caller-kinds.ts';
import { auditActorOf, type WorkspaceActor } from '../../auth/app-key-caller.ts';
import type { User } from '../generated/resolvers.ts';
import { fieldErrors, foyerError, type FieldErrors } from '../errors.ts';
import { isEmail } from '../input.ts';
import { checkMailAllowance } from '../users/mail-limit.ts';
import { getMember } from '../users/service.ts';
import { MAX_INVITATIONS_PER_REQUEST } from '../../../common/invitations.ts';
import { emitTenantUserEvent, withdrawWebhookEvents } from '../../outbox/outbox.ts';
import { allowedValuesIssue, keyedIssue, maxAddressesIssue, plainIssue } from '../../http/field-issues.ts';

export { MAX_INVITATIONS_PER_REQUEST };

export type InvitationFailure = 'INVALID_EMAIL' | 'ALREADY_MEMBER' | 'MAIL_NOT_SENT';

const failureMessages: Record<InvitationFailure, string> = {
  INVALID_EMAIL: 'Enter a valid e-mail address',
  ALREADY_MEMBER: 'Already a member of this workspace',
  MAIL_NOT_SENT: 'The invitation e-mail could not be sent; try again later',
};

/** The role new members get: the app's defaultRole, VIEWER when unset (or not a role). */
export function defaultRoleOf(member: Pick<WorkspaceActor, 'app'>): Role {
  const configured = member.app.settings.defaultRole;
  return configured && isRole(configured) ? configured : 'VIEWER';
}

/** Trimmed, without blanks, each address once (the first spelling of it wins). */
export function invitedAddresses(userNames: readonly string[]): string[] {
  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const name of userNames) {
    const address = name.trim();
    const key = address.toLowerCase();
    if (address === '' || seen.has(key)) continue;
    seen.add(key);
    addresses.push(address);
  }
  return addresses;
}

interface Identity {
  id: string;
  /** As the identity spells it; mail goes there, whatever letter case the inviter typed. */
  email: string;
  locale: string | null;
  hasPassword: boolean;
}

async function findIdentity(db: Database, appId: string, email: string): Promise<Identity | undefined> {
  const [user] = await db
    .select({ id: users.id, email: users.email, locale: users.locale, hasPassword: sql<boolean>`${users.passwordHash} is not null` })
    .from(users)
    .where(and(eq(users.appId, appId), sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .limit(1);
  return user;
}

type Created =
  | { kind: 'already-member' }
  | {
      kind: 'created';
      tenantUserId: string;
      userId: string;
      email: string;
      newIdentity: boolean;
      locale: string | null;
      hasPassword: boolean;
      token: string;
      /** The TENANT_USER_CREATED event, taken back with the invitation. */
      webhookEventId: string | undefined;
    };

/** The names a new identity starts with (an existing identity keeps its own). */
interface NewIdentityNames {
  firstName?: string | null;
  lastName?: string | null;
}

/** Identity (when new), membership and, for an identity without a password, an invitation token: all or nothing. */
async function createMembership(
  db: Database,
  inviter: Pick<WorkspaceActor, 'app' | 'tenantId'>,
  email: string,
  role: Role,
  names: NewIdentityNames = {},
): Promise<Created> {
  const appId = inviter.app.id;
  return db.transaction(async (tx) => {
    let identity = await findIdentity(tx, appId, email);
    let newIdentity = false;
    if (!identity) {
      const [inserted] = await tx
        .insert(users)
        .values({ id: randomUUID(), appId, email, firstName: names.firstName || null, lastName: names.lastName || null })
        // Someone else created this address a moment ago: it is an existing identity now.
        .onConflictDoNothing()
        .returning({ id: users.id });
      newIdentity = Boolean(inserted);
      identity = inserted ? { id: inserted.id, email, locale: null, hasPassword: false } : await findIdentity(tx, appId, email);
      if (!identity) throw new Error('The invited identity was neither inserted nor found');
    }
    const tenantUserId = randomUUID();
    const [membership] = await tx
      .insert(tenantUsers)
      .values({
        id: tenantUserId,
        tenantId: inviter.tenantId,
        userId: identity.id,
        role,
        enabled: true,
        onboarded: false,
        invitationPending: true,
      })
      .onConflictDoNothing()
      .returning({ id: tenantUsers.id });
    if (!membership) return { kind: 'already-member' };
    // The link accepts the invitation (and sets a password when there is none yet). It names the
    // membership, so removing the member retires it, and disabling the member retires it too
    // (users/administration.ts).
    const token = await issueToken(tx, { appId, userId: identity.id, purpose: 'invite', tenantUserId });
    const webhookEventId = await emitTenantUserEvent(tx, appId, 'TENANT_USER_CREATED', tenantUserId);
    return {
      kind: 'created',
      tenantUserId,
      userId: identity.id,
      email: identity.email,
      newIdentity,
      locale: identity.locale,
      hasPassword: identity.hasPassword,
      token,
      webhookEventId,
    };
  });
}

/** Takes back an invitation whose mail could not go out. */
async function undoMembership(db: Database, created: Extract<Created, { kind: 'created' }>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(tenantUsers).where(eq(tenantUsers.id, created.tenantUserId));
    if (created.newIdentity) await tx.delete(users).where(eq(users.id, created.userId));
    await withdrawWebhookEvents(tx, [created.webhookEventId]);
  });
}

/** The invitation mail: its link accepts the invitation, setting a password when there is none yet. */
function mailInvitation(
  { notifier, config }: GraphQLContext,
  inviter: WorkspaceActor,
  invitee: { email: string; hasPassword: boolean; locale: string | null; token: string },
  workspace: { workspace: string; locale: string | null },
) {
  return notifier.send({
    appId: inviter.app.id,
    to: invitee.email,
    kind: invitee.hasPassword ? 'invite-existing' : 'invite',
    locale: invitee.locale ?? workspace.locale,
    link: `${config.urls.ui}/auth/set-password/${invitee.token}`,
    expiresInSeconds: TOKEN_TTL_SECONDS.invite,
    workspace: workspace.workspace,
  });
}

/** The audit trail's record of an invitation sent, naming whom it went to (the workspace log shows it). */
function auditInvitation(
  context: GraphQLContext,
  inviter: WorkspaceActor,
  target: { tenantUserId: string; userId: string; email: string },
  detail: Record<string, unknown>,
) {
  const { userId, tenantUserId, actorDetail } = auditActorOf(inviter);
  return recordAudit(context.db, {
    type: 'user.invited',
    appId: inviter.app.id,
    userId,
    tenantUserId,
    ip: context.clientIp,
    detail: { tenantId: inviter.tenantId, target, ...actorDetail, ...detail },
  });
}

/**
 * Mails a pending invitation again with a new link (the older link stops working). Only an invitation
 * still pending in the caller's workspace, of a role the caller manages; anything else is NOT_FOUND.
 */
export async function resendInvitation(context: GraphQLContext, inviter: MemberCaller, tenantUserId: string): Promise<boolean> {
  const { db } = context;
  const [pending] = await db
    .select({
      role: tenantUsers.role,
      userId: users.id,
      email: users.email,
      locale: users.locale,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
    })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(tenantUsers.id, tenantUserId), eq(tenantUsers.tenantId, inviter.tenantId), eq(tenantUsers.invitationPending, true)))
    .limit(1);
  if (!pending || !isRole(pending.role) || !mayManage(inviter.role, pending.role)) {
    throw foyerError('NOT_FOUND', 'There is no pending invitation to resend');
  }
  await checkMailAllowance(db, inviter, 1);
  const token = await issueToken(db, { appId: inviter.app.id, userId: pending.userId, purpose: 'invite', tenantUserId });
  const [tenant] = await db.select({ name: tenants.name, locale: tenants.locale }).from(tenants).where(eq(tenants.id, inviter.tenantId));
  const delivery = await mailInvitation(
    context,
    inviter,
    { ...pending, token },
    { workspace: tenant?.name || inviter.app.name, locale: tenant?.locale ?? null },
  );
  if (!delivery.delivered) throw foyerError('SERVICE_UNAVAILABLE', failureMessages.MAIL_NOT_SENT);
  await auditInvitation(context, inviter, { tenantUserId, userId: pending.userId, email: pending.email }, { resent: true });
  return true;
}

export async function inviteUsers(context: GraphQLContext, inviter: MemberCaller, userNames: readonly string[]): Promise<User[]> {
  const { db, log } = context;
  const addresses = invitedAddresses(userNames);
  if (addresses.length === 0) throw fieldErrors({ userNames: plainIssue('enterEmails') });
  if (addresses.length > MAX_INVITATIONS_PER_REQUEST) {
    throw fieldErrors({ userNames: maxAddressesIssue(MAX_INVITATIONS_PER_REQUEST) });
  }
  const role = defaultRoleOf(inviter);
  if (!mayGrant(inviter.role, role)) {
    throw foyerError('FORBIDDEN', `New members get the role ${role}, which you cannot grant`);
  }

  const failures = new Map<string, InvitationFailure>();
  const valid = addresses.filter((address) => {
    if (!isEmail(address)) failures.set(address, 'INVALID_EMAIL');
    return !failures.has(address);
  });
  await checkMailAllowance(db, inviter, valid.length);

  const [tenant] = await db.select({ name: tenants.name, locale: tenants.locale }).from(tenants).where(eq(tenants.id, inviter.tenantId));
  const workspace = tenant?.name || inviter.app.name;
  const invited: User[] = [];
  for (const email of valid) {
    const created = await createMembership(db, inviter, email, role);
    if (created.kind === 'already-member') {
      failures.set(email, 'ALREADY_MEMBER');
      continue;
    }
    const delivery = await mailInvitation(context, inviter, created, { workspace, locale: tenant?.locale ?? null });
    if (!delivery.delivered) {
      log.error({ appId: inviter.app.id, reason: delivery.reason }, 'invitation not delivered; invitation taken back');
      await undoMembership(db, created);
      failures.set(email, 'MAIL_NOT_SENT');
      continue;
    }
    await auditInvitation(
      context,
      inviter,
      { tenantUserId: created.tenantUserId, userId: created.userId, email: created.email },
      {
        role,
        newIdentity: created.newIdentity,
      },
    );
    invited.push(await getMember(db, inviter.app, inviter.tenantId, created.tenantUserId));
  }

  if (failures.size > 0) {
    const fields = Object.fromEntries([...failures].map(([address, reason]) => [address, keyedIssue(reason, failureMessages[reason])]));
    throw fieldErrors(fields, 'Some addresses were not invited', {
      reasons: Object.fromEntries(failures),
      invited: invited.map((user) => ({ id: user.id, email: user.email })),
    });
  }
  return invited;
}

export interface NewMember extends NewIdentityNames {
  email: string;
  /** Unset: the app's default role. */
  role?: string | null;
  /** No invitation mail: the app's back end hands the person their link (issuePasswordLink) itself. */
  muteNotifications?: boolean | null;
}

/**
 * One member added by the app's back end (the management API's POST /tenant/user): an invitation
 * like inviteUsers', with the role the back end names, the names a new identity starts with, and the
 * mail left out on request. A membership that exists already is CONFLICT (409), also when two calls
 * race for the same address.
 */
export async function addMember(context: GraphQLContext, actor: WorkspaceActor, input: NewMember): Promise<User> {
  const { db, log } = context;
  const email = input.email.trim();
  const problems: FieldErrors = {};
  if (!isEmail(email)) problems.username = keyedIssue('INVALID_EMAIL', failureMessages.INVALID_EMAIL);
  const role = input.role ?? defaultRoleOf(actor);
  if (!isRole(role)) problems.role = allowedValuesIssue(ROLES);
  if (Object.keys(problems).length > 0) throw fieldErrors(problems);
  if (actor.kind === 'member' && !mayGrant(actor.role, role))
    throw foyerError('FORBIDDEN', `As ${actor.role} you cannot grant the role ${role}`);
  const mute = input.muteNotifications === true;
  if (!mute) await checkMailAllowance(db, actor, 1);

  const created = await createMembership(db, actor, email, role as Role, input);
  if (created.kind === 'already-member') throw foyerError('CONFLICT', failureMessages.ALREADY_MEMBER);
  if (!mute) {
    const [tenant] = await db.select({ name: tenants.name, locale: tenants.locale }).from(tenants).where(eq(tenants.id, actor.tenantId));
    const delivery = await mailInvitation(context, actor, created, {
      workspace: tenant?.name || actor.app.name,
      locale: tenant?.locale ?? null,
    });
    if (!delivery.delivered) {
      log.error({ appId: actor.app.id, reason: delivery.reason }, 'invitation not delivered; invitation taken back');
      await undoMembership(db, created);
      throw foyerError('SERVICE_UNAVAILABLE', failureMessages.MAIL_NOT_SENT);
    }
  }
  await auditInvitation(
    context,
    actor,
    { tenantUserId: created.tenantUserId, userId: created.userId, email: created.email },
    { role, newIdentity: created.newIdentity, mailed: !mute },
  );
  return getMember(db, actor.app, actor.tenantId, created.tenantUserId);
}
