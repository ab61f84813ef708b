// Workspace memberships (tenant users) as the auth service sees them: who may sign in to which
// workspace of which app. Only enabled memberships count anywhere, and an invitation counts once accepted.
import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';
import { tenants, tenantUsers, users } from '../db/schema.ts';

export interface Membership {
  id: string;
  role: string;
  onboarded: boolean;
  appId: string;
  user: typeof users.$inferSelect;
  tenant: typeof tenants.$inferSelect;
}

const selection = { membership: tenantUsers, user: users, tenant: tenants };

function toMembership<User extends { id: string; appId: string }, Tenant extends { appId: string }>(row: {
  membership: { id: string; role: string; onboarded: boolean };
  user: User;
  tenant: Tenant;
}) {
  return {
    id: row.membership.id,
    role: row.membership.role,
    onboarded: row.membership.onboarded,
    appId: row.tenant.appId,
    user: row.user,
    tenant: row.tenant,
  };
}

const enabled = and(eq(tenantUsers.enabled, true), eq(tenantUsers.invitationPending, false));

/** The checks every lookup by id makes once the row is read. */
function acceptable(
  membership: { appId: string; user: { id: string; appId: string } },
  expect: { userId?: string; appId?: string },
): boolean {
  if (expect.userId !== undefined && membership.user.id !== expect.userId) return false;
  if (expect.appId !== undefined && membership.appId !== expect.appId) return false;
  // A user belongs to one app; a membership crossing apps would be corrupt data.
  return membership.user.appId === membership.appId;
}

/** An enabled membership by id, optionally required to belong to a user and an app. */
export async function findEnabledMembership(
  db: Database,
  tenantUserId: string,
  expect: { userId?: string; appId?: string } = {},
): Promise<Membership | undefined> {
  const [row] = await db
    .select(selection)
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .where(and(eq(tenantUsers.id, tenantUserId), enabled))
    .limit(1);
  if (!row) return undefined;
  const membership = toMembership(row);
  return acceptable(membership, expect) ? membership : undefined;
}

const others = alias(tenantUsers, 'others');

/**
 * A membership as its tokens and claims name it (server/auth/oidc/claims.ts, the access token's
 * claims in server/auth/oidc/provider.ts): only the columns they use, so the read every token
 * refresh makes carries no password hash, second-factor secret or billing column, and PGlite and
 * drizzle encode and decode a third of a whole membership's columns (bench/token-refresh.bench.ts).
 */
const accountSelection = {
  membership: { id: tenantUsers.id, role: tenantUsers.role, onboarded: tenantUsers.onboarded },
  user: {
    id: users.id,
    appId: users.appId,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    locale: users.locale,
    onboarded: users.onboarded,
  },
  tenant: {
    id: tenants.id,
    appId: tenants.appId,
    name: tenants.name,
    locale: tenants.locale,
    logo: tenants.logo,
    onboarded: tenants.onboarded,
    plan: tenants.plan,
  },
};

interface AccountRow {
  membership: Pick<typeof tenantUsers.$inferSelect, keyof typeof accountSelection.membership>;
  user: Pick<typeof users.$inferSelect, keyof typeof accountSelection.user>;
  tenant: Pick<typeof tenants.$inferSelect, keyof typeof accountSelection.tenant>;
}

/** What tokens and claims read of a membership; a whole Membership is one too. */
export interface AccountMembership {
  id: string;
  role: string;
  onboarded: boolean;
  appId: string;
  user: AccountRow['user'];
  tenant: AccountRow['tenant'];
}

export interface CountedMembership {
  membership: AccountMembership;
  workspaceCount: number;
}

/**
 * The columns of a membership as tokens name it, with how many enabled memberships its user has
 * (the `multi_tenant` claim), for a select that joins tenant_users, users and tenants. The token
 * endpoint reads them on every refresh, within the refresh token's own read (server/auth/oidc/adapter.ts).
 */
export const countedMembershipColumns = {
  ...accountSelection,
  workspaceCount:
    sql<number>`(select count(*) from ${tenantUsers} as ${others} where ${others.userId} = ${tenantUsers.userId} and ${others.enabled} and not ${others.invitationPending})`.mapWith(
      Number,
    ),
};

/** Only an enabled membership (the join condition of a membership read along with something else). */
export const enabledMembership = enabled;

/** A row of countedMembershipColumns, its parts null when a left join found no enabled membership. */
export interface CountedMembershipRow {
  membership: AccountRow['membership'] | null;
  user: AccountRow['user'] | null;
  tenant: AccountRow['tenant'] | null;
  workspaceCount: number;
}

/** A row of countedMembershipColumns, when it is there and passes the checks of `expect`. */
export function countedMembershipOf(
  row: CountedMembershipRow,
  expect: { userId?: string; appId?: string } = {},
): CountedMembership | undefined {
  if (!row.membership || !row.user || !row.tenant) return undefined;
  const membership = toMembership({ membership: row.membership, user: row.user, tenant: row.tenant });
  return acceptable(membership, expect) ? { membership, workspaceCount: row.workspaceCount } : undefined;
}

/** An enabled membership by id with its user's workspace count, in one statement. */
export async function findEnabledMembershipCounted(
  db: Database,
  tenantUserId: string,
  expect: { userId?: string; appId?: string } = {},
): Promise<CountedMembership | undefined> {
  const [row] = await db
    .select(countedMembershipColumns)
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .where(and(eq(tenantUsers.id, tenantUserId), enabled))
    .limit(1);
  return row ? countedMembershipOf(row, expect) : undefined;
}

/** A user's enabled memberships in an app, in the order the workspace picker shows them. */
export async function listEnabledMemberships(db: Database, userId: string, appId: string): Promise<Membership[]> {
  const rows = await db
    .select(selection)
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .where(and(eq(tenantUsers.userId, userId), enabled, eq(tenants.appId, appId)))
    .orderBy(asc(tenants.name), asc(tenants.createdAt), asc(tenants.id));
  return rows.map(toMembership);
}

export function fullNameOf(user: { firstName: string | null; lastName: string | null }): string | undefined {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return name || undefined;
}

/** A membership as the workspace picker reads it (docs/ORIGINAL-CONTRACT.md 2.3 AuthTenantUserResponseDto). */
export function tenantUserAnswer(membership: Membership) {
  return {
    id: membership.id,
    role: membership.role,
    email: membership.user.email,
    username: membership.user.email,
    fullName: fullNameOf(membership.user),
    onboarded: membership.onboarded,
    tenant: {
      id: membership.tenant.id,
      name: membership.tenant.name,
      locale: membership.tenant.locale,
      logo: membership.tenant.logo,
    },
  };
}
