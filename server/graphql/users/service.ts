// Workspace members as GraphQL users: the identity (users) joined with the membership
// (tenant_users). A User's id is the membership's id, the same id access tokens carry as sub.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tenantUsers, users } from '../../db/schema.ts';
import { recordAudit } from '../../audit/service.ts';
import type { GraphQLContext } from '../context.ts';
import type { MemberCaller } from '../../auth/caller-kinds.ts';
import type { App } from '../../apps/lookup.ts';
import type { MeInput, User } from '../generated/resolvers.ts';
import { checkName, InputProblems } from '../input.ts';
import { customParamsOf } from '../custom-params/service.ts';
import { auditActorOf, type WorkspaceActor } from '../../auth/app-key-caller.ts';
import { foyerError } from '../errors.ts';
import { emitTenantUserEvent } from '../../outbox/outbox.ts';
import { attributeCatalog } from '../attributes/catalog.ts';
import { applyAttributeChanges, checkAttributeEdit } from '../attributes/check.ts';

/** The flow whose steps show the profile settings: the person's and membership's attributes it collects are edited there. */
export const PROFILE_FLOW_ID = 'profile';

type UserRecord = typeof users.$inferSelect;

// What the identity says of itself (names, consent) is the workspace's to see only once the
// person joined it: an invitation still pending shows none of it (server/graphql/invitations/service.ts).
const joined = sql`not ${tenantUsers.invitationPending}`;
export const shownFirstName = sql<string | null>`case when ${joined} then ${users.firstName} end`;
export const shownLastName = sql<string | null>`case when ${joined} then ${users.lastName} end`;

/** The columns a User is made of; the password hash and tokens never leave the database. */
export const memberColumns = {
  id: tenantUsers.id,
  role: tenantUsers.role,
  enabled: tenantUsers.enabled,
  invitationPending: tenantUsers.invitationPending,
  onboarded: tenantUsers.onboarded,
  createdAt: tenantUsers.createdAt,
  lastSeen: tenantUsers.lastSeen,
  email: users.email,
  firstName: shownFirstName,
  lastName: shownLastName,
  consentsToPrivacyPolicy: sql<boolean>`${joined} and ${users.consentsToPrivacyPolicy}`,
  customParams: tenantUsers.customParams,
  attributes: tenantUsers.attributes,
};

export interface MemberRow {
  id: string;
  role: string;
  enabled: boolean;
  invitationPending: boolean;
  onboarded: boolean;
  createdAt: Date;
  lastSeen: Date | null;
  email: string;
  firstName: string | null;
  lastName: string | null;
  consentsToPrivacyPolicy: boolean;
  customParams: Record<string, string>;
  attributes: Record<string, unknown>;
}

/** First and last name joined by a space, or null when both are blank (the table shows 'Invited user'). */
export function fullName(firstName: string | null, lastName: string | null): string | null {
  const name = [firstName?.trim(), lastName?.trim()].filter(Boolean).join(' ');
  return name || null;
}

export function toUser(app: App, row: MemberRow): User {
  return {
    id: row.id,
    email: row.email,
    username: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    fullName: fullName(row.firstName, row.lastName),
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    lastSeen: row.lastSeen?.toISOString() ?? null,
    enabled: row.enabled,
    invitationPending: row.invitationPending,
    onboarded: row.onboarded,
    consentsToPrivacyPolicy: row.consentsToPrivacyPolicy,
    // Teams have no storage yet: nobody belongs to one.
    teams: [],
    customParams: customParamsOf(app.settings, row.customParams),
    attributes: row.attributes,
  };
}

export async function getMember(db: Database, app: App, tenantId: string, tenantUserId: string): Promise<User> {
  const [row] = await db
    .select(memberColumns)
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(tenantUsers.id, tenantUserId), eq(tenantUsers.tenantId, tenantId)))
    .limit(1);
  // Callers found this membership in the caller's workspace a moment ago.
  if (!row) throw new Error(`Tenant user ${tenantUserId} vanished during the request`);
  return toUser(app, row);
}

/**
 * The caller's own profile. Names are trimmed (empty clears them); giving a name, or onboarded:
 * true, marks both the identity and this membership onboarded. Onboarding is never undone here.
 */
export async function updateMe(context: GraphQLContext, member: MemberCaller, input: MeInput): Promise<User> {
  const { db } = context;
  const problems = new InputProblems();
  const changes: Partial<UserRecord> = {};
  if (input.firstName != null) changes.firstName = checkName(problems, 'firstName', input.firstName) || null;
  if (input.lastName != null) changes.lastName = checkName(problems, 'lastName', input.lastName) || null;
  const attributes = input.attributes
    ? checkAttributeEdit(attributeCatalog(context.config), PROFILE_FLOW_ID, input.attributes, ['user', 'membership'], problems)
    : {};
  problems.throwIfAny();
  if (input.consentsToPrivacyPolicy != null) changes.consentsToPrivacyPolicy = input.consentsToPrivacyPolicy;
  const namesGiven = Boolean(changes.firstName || changes.lastName);
  const onboarded = input.onboarded === true || namesGiven;
  if (onboarded) changes.onboarded = true;

  await db.transaction(async (tx) => {
    // Read and written in one transaction, under the rows' locks: two edits never lose each other's values.
    if (attributes.user) {
      const [row] = await tx
        .select({ attributes: users.attributes })
        .from(users)
        .where(and(eq(users.id, member.userId), eq(users.appId, member.app.id)))
        .for('update');
      changes.attributes = applyAttributeChanges(row?.attributes ?? {}, attributes.user);
    }
    if (attributes.membership) {
      const [row] = await tx
        .select({ attributes: tenantUsers.attributes })
        .from(tenantUsers)
        .where(eq(tenantUsers.id, member.tenantUserId))
        .for('update');
      const next = applyAttributeChanges(row?.attributes ?? {}, attributes.membership);
      await tx.update(tenantUsers).set({ attributes: next }).where(eq(tenantUsers.id, member.tenantUserId));
    }
    const identityChanged = Object.keys(changes).length > 0;
    if (identityChanged) {
      await tx
        .update(users)
        .set(changes)
        .where(and(eq(users.id, member.userId), eq(users.appId, member.app.id)));
    }
    const fields = [...Object.keys(changes), ...(attributes.membership ? ['membership.attributes'] : [])];
    if (fields.length > 0) {
      await recordAudit(tx, {
        type: 'user.profile_updated',
        appId: member.app.id,
        userId: member.userId,
        tenantUserId: member.tenantUserId,
        ip: context.clientIp,
        detail: { tenantId: member.tenantId, fields },
      });
    }
    if (onboarded) await tx.update(tenantUsers).set({ onboarded: true }).where(eq(tenantUsers.id, member.tenantUserId));
    // The identity's names and consent show in every membership of it; onboarding and membership attributes only in this one.
    const changed = identityChanged
      ? (await tx.select({ id: tenantUsers.id }).from(tenantUsers).where(eq(tenantUsers.userId, member.userId))).map((row) => row.id)
      : onboarded || attributes.membership
        ? [member.tenantUserId]
        : [];
    for (const tenantUserId of changed) await emitTenantUserEvent(tx, member.app.id, 'TENANT_USER_UPDATED', tenantUserId);
  });
  return getMember(db, member.app, member.tenantId, member.tenantUserId);
}

/** What an app's back end may set of a member besides role and enabled (the management API). */
export interface MemberProfileInput {
  firstName?: string | null;
  lastName?: string | null;
  onboarded?: boolean | null;
}

/**
 * A member's names (on their identity, which is the app's) and onboarding, set by the app's back end
 * with its API key: the app owns its identities, so it may correct what a person says of themselves.
 * NOT_FOUND unless the membership is in the actor's workspace; audited as user.updated.
 */
export async function updateMemberProfile(
  context: GraphQLContext,
  actor: WorkspaceActor,
  tenantUserId: string,
  input: MemberProfileInput,
): Promise<void> {
  const problems = new InputProblems();
  const changes: Partial<UserRecord> = {};
  if (input.firstName != null) changes.firstName = checkName(problems, 'firstName', input.firstName) || null;
  if (input.lastName != null) changes.lastName = checkName(problems, 'lastName', input.lastName) || null;
  problems.throwIfAny();
  const onboarded = input.onboarded ?? undefined;
  if (Object.keys(changes).length === 0 && onboarded === undefined) return;
  await context.db.transaction(async (tx) => {
    const [target] = await tx
      .select({ userId: tenantUsers.userId, email: users.email })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(and(eq(tenantUsers.id, tenantUserId), eq(tenantUsers.tenantId, actor.tenantId)))
      .limit(1);
    if (!target) throw foyerError('NOT_FOUND', 'There is no such user in this workspace');
    if (Object.keys(changes).length > 0) {
      await tx
        .update(users)
        .set(changes)
        .where(and(eq(users.id, target.userId), eq(users.appId, actor.app.id)));
    }
    if (onboarded !== undefined) await tx.update(tenantUsers).set({ onboarded }).where(eq(tenantUsers.id, tenantUserId));
    const { userId, tenantUserId: actingMembership, actorDetail } = auditActorOf(actor);
    await recordAudit(tx, {
      type: 'user.updated',
      appId: actor.app.id,
      userId,
      tenantUserId: actingMembership,
      ip: context.clientIp,
      detail: {
        tenantId: actor.tenantId,
        target: { tenantUserId, userId: target.userId, email: target.email },
        ...actorDetail,
        fields: [...Object.keys(changes), ...(onboarded === undefined ? [] : ['onboarded'])],
      },
    });
    await emitTenantUserEvent(tx, actor.app.id, 'TENANT_USER_UPDATED', tenantUserId);
  });
}
