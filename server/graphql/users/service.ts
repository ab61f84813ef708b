// Workspace members as GraphQL users: the identity (users) joined with the membership
// (tenant_users). A User's id is the membership's id, the same id access tokens carry as sub.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tenantUsers, users } from '../../db/schema.ts';
import type { AppRecord, MemberCaller } from '../context.ts';
import type { MeInput, User } from '../generated/resolvers.ts';
import { checkName, InputProblems } from '../input.ts';
import { customParamsOf } from '../custom-params/service.ts';

type UserRecord = typeof users.$inferSelect;

function fullName(firstName: string | null, lastName: string | null): string | null {
  const name = [firstName, lastName].filter((part) => part && part.trim()).join(' ');
  return name || null;
}

export async function getMember(db: Database, app: AppRecord, tenantId: string, tenantUserId: string): Promise<User> {
  const [row] = await db
    .select({ membership: tenantUsers, user: users })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(tenantUsers.id, tenantUserId), eq(tenantUsers.tenantId, tenantId)))
    .limit(1);
  // The membership check that admitted the caller found this row a moment ago.
  if (!row) throw new Error(`Tenant user ${tenantUserId} vanished during the request`);
  const { membership, user } = row;
  return {
    id: membership.id,
    email: user.email,
    username: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: fullName(user.firstName, user.lastName),
    role: membership.role,
    createdAt: membership.createdAt.toISOString(),
    lastSeen: membership.lastSeen?.toISOString() ?? null,
    enabled: membership.enabled,
    onboarded: membership.onboarded,
    consentsToPrivacyPolicy: user.consentsToPrivacyPolicy,
    // Teams have no storage yet: nobody belongs to one.
    teams: [],
    customParams: customParamsOf(app.settings, user.customParams),
  };
}

/**
 * The caller's own profile. Names are trimmed (empty clears them); giving a name, or onboarded:
 * true, marks both the identity and this membership onboarded. Onboarding is never undone here.
 */
export async function updateMe(db: Database, member: MemberCaller, input: MeInput): Promise<User> {
  const problems = new InputProblems();
  const changes: Partial<UserRecord> = {};
  if (input.firstName != null) changes.firstName = checkName(problems, 'firstName', input.firstName) || null;
  if (input.lastName != null) changes.lastName = checkName(problems, 'lastName', input.lastName) || null;
  problems.throwIfAny();
  if (input.consentsToPrivacyPolicy != null) changes.consentsToPrivacyPolicy = input.consentsToPrivacyPolicy;
  const namesGiven = Boolean(changes.firstName || changes.lastName);
  const onboarded = input.onboarded === true || namesGiven;
  if (onboarded) changes.onboarded = true;

  await db.transaction(async (tx) => {
    if (Object.keys(changes).length > 0) {
      await tx
        .update(users)
        .set(changes)
        .where(and(eq(users.id, member.userId), eq(users.appId, member.app.id)));
    }
    if (onboarded) await tx.update(tenantUsers).set({ onboarded: true }).where(eq(tenantUsers.id, member.tenantUserId));
  });
  return getMember(db, member.app, member.tenantId, member.tenantUserId);
}
