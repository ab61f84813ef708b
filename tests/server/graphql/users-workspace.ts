// Shared by the users-table tests: a workspace of the demo app with members made to order, calls
// as any of them, and a snapshot of everything a refused mutation must leave as it was.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, like } from 'drizzle-orm';
import type { TestFoyer } from '../../../server/testing.ts';
import { auditEvents, outbox, tenants, tenantUsers, users, userTokens } from '../../../server/db/schema.ts';
import type { Role } from '../../../common/roles.ts';
import { bearer, postGraphQL, type GraphQLAnswer } from '../support/graphql.ts';
import { mintAccessToken, type Membership } from '../support/tokens.ts';

export interface Member extends Membership {
  userId: string;
}

export async function createWorkspace(foyer: TestFoyer, name: string): Promise<string> {
  const id = randomUUID();
  await foyer.db.insert(tenants).values({ id, appId: foyer.demo.appId, name, onboarded: true });
  return id;
}

export interface MemberSpec {
  role: Role;
  email?: string;
  firstName?: string | null;
  lastName?: string | null;
  enabled?: boolean;
  createdAt?: Date;
  passwordHash?: string | null;
}

/** A new identity of the demo app with one membership in `tenantId`. */
export async function addMember(foyer: TestFoyer, tenantId: string, spec: MemberSpec): Promise<Member> {
  const userId = randomUUID();
  const tenantUserId = randomUUID();
  const email = spec.email ?? `${randomUUID().slice(0, 8)}@users.foyer.test`;
  await foyer.db.insert(users).values({
    id: userId,
    appId: foyer.demo.appId,
    email,
    firstName: spec.firstName ?? null,
    lastName: spec.lastName ?? null,
    passwordHash: spec.passwordHash ?? null,
  });
  await foyer.db.insert(tenantUsers).values({
    id: tenantUserId,
    tenantId,
    userId,
    role: spec.role,
    enabled: spec.enabled ?? true,
    ...(spec.createdAt ? { createdAt: spec.createdAt } : {}),
  });
  return { tenantUserId, tenantId, appId: foyer.demo.appId, role: spec.role, email, plan: null, userId };
}

const tokens = new Map<string, string>();

/** Posts an operation as `member` (no token for null). */
export async function ask(
  foyer: TestFoyer,
  member: Membership | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<GraphQLAnswer> {
  if (!member) return postGraphQL(foyer.urls.api, { query, variables });
  let token = tokens.get(member.tenantUserId);
  if (!token) {
    token = await mintAccessToken(foyer.db, member, { issuer: foyer.urls.auth });
    tokens.set(member.tenantUserId, token);
  }
  return postGraphQL(foyer.urls.api, { query, variables }, bearer(token));
}

/** Everything a user-management mutation could change: memberships, identities, links, mail, audit. */
export async function snapshot(foyer: TestFoyer, tenantId: string) {
  const memberships = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, tenantId)).orderBy(asc(tenantUsers.id));
  const [identities] = await foyer.db.select({ total: count() }).from(users);
  const liveTokens = await foyer.db.select().from(userTokens).orderBy(asc(userTokens.idHash));
  const [mail] = await foyer.db.select({ total: count() }).from(outbox);
  const [audited] = await foyer.db.select({ total: count() }).from(auditEvents).where(like(auditEvents.type, 'user.%'));
  return { memberships, identities: identities!.total, tokens: liveTokens, mail: mail!.total, audited: audited!.total };
}

export async function membershipOf(foyer: TestFoyer, tenantUserId: string) {
  const [row] = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, tenantUserId));
  return row;
}

export async function auditOf(foyer: TestFoyer, type: string, actor: Membership) {
  return foyer.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.type, type), eq(auditEvents.tenantUserId, actor.tenantUserId)))
    .orderBy(asc(auditEvents.id));
}
