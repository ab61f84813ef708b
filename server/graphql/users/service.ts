// Workspace members as GraphQL users: the identity (users) joined with the membership
// (tenant_users). A User's id is the membership's id, the same id access tokens carry as sub.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tenantUsers, users } from '../../db/schema.ts';
import type { User } from '../generated/resolvers.ts';

function fullName(firstName: string | null, lastName: string | null): string | null {
  const name = [firstName, lastName].filter((part) => part && part.trim()).join(' ');
  return name || null;
}

export async function getMember(db: Database, tenantId: string, tenantUserId: string): Promise<User> {
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
    // Teams and custom parameters have no storage yet: nobody belongs to a team or has values.
    teams: [],
    customParams: [],
  };
}
