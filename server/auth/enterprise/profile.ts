// Who an enterprise connection signed in, and who that is in the app: the identity linked to the
// connection's subject, else the app's identity with the e-mail (the connection's verified domain
// vouches for its addresses), else a new identity made just in time; and in every case a membership
// of the connection's workspace, made with the connection's default role when there is none.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { federatedIdentities, tenantUsers, users } from '../../db/schema.ts';
import { recordAudit } from '../../audit/service.ts';
import { findUserByEmail, normalizeUsername, type User } from '../sign-in.ts';
import { servesVerifiedDomain, type EnterpriseConnection } from './connections.ts';

export interface EnterpriseProfile {
  /** OIDC `sub`, SAML NameID. */
  subject: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
}

/** The federated identity's provider name: the connection, so two connections' subjects never meet. */
export const connectionProvider = (connection: EnterpriseConnection) => `${connection.kind}:${connection.id}`;

export type EnterpriseOutcome = { kind: 'user'; user: User } | { kind: 'unverifiedDomain' } | { kind: 'noEmail' };

export async function resolveEnterpriseUser(
  db: Database,
  connection: EnterpriseConnection,
  profile: EnterpriseProfile,
  ip: string,
): Promise<EnterpriseOutcome> {
  if (!profile.email) return { kind: 'noEmail' };
  const email = normalizeUsername(profile.email);
  const domain = email.slice(email.lastIndexOf('@') + 1);
  // Only the domains this connection proved: an IdP cannot sign in addresses of someone else's domain.
  if (!(await servesVerifiedDomain(db, connection.id, domain))) return { kind: 'unverifiedDomain' };
  const provider = connectionProvider(connection);
  const user = await db.transaction(async (tx) => {
    const [linked] = await tx
      .select({ user: users })
      .from(federatedIdentities)
      .innerJoin(users, eq(users.id, federatedIdentities.userId))
      .where(
        and(
          eq(federatedIdentities.appId, connection.appId),
          eq(federatedIdentities.provider, provider),
          eq(federatedIdentities.subject, profile.subject),
        ),
      )
      .limit(1);
    let person = linked?.user ?? (await findUserByEmail(tx, connection.appId, email));
    if (!person) {
      [person] = await tx
        .insert(users)
        .values({
          id: randomUUID(),
          appId: connection.appId,
          email,
          firstName: profile.firstName,
          lastName: profile.lastName,
          emailVerifiedAt: new Date(),
          onboarded: Boolean(profile.firstName && profile.lastName),
        })
        .returning();
    }
    if (!linked) {
      await tx
        .insert(federatedIdentities)
        .values({ id: randomUUID(), appId: connection.appId, userId: person!.id, provider, subject: profile.subject, email })
        .onConflictDoNothing();
    }
    const [membership] = await tx
      .insert(tenantUsers)
      .values({
        id: randomUUID(),
        tenantId: connection.tenantId,
        userId: person!.id,
        role: connection.defaultRole,
        enabled: true,
        onboarded: true,
        customParams: {},
      })
      .onConflictDoNothing()
      .returning();
    if (membership) {
      await recordAudit(tx, {
        type: 'enterprise.joined',
        appId: connection.appId,
        userId: person!.id,
        tenantUserId: membership.id,
        ip,
        detail: { tenantId: connection.tenantId, connectionId: connection.id, role: connection.defaultRole },
      });
    }
    return person!;
  });
  return { kind: 'user', user };
}
