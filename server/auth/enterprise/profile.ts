// Who an enterprise connection signed in, and who that is in the app: the identity linked to the
// connection's subject; else, when the IdP verified the e-mail, the app's identity with it if every
// membership it has is in the connection's own workspace (anyone else signs in the old way and confirms
// the link first: link.ts), or a new identity made just in time; and then a membership of the
// connection's workspace, made with the connection's default role when there is none.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { federatedIdentities, tenantUsers, users } from '../../db/schema.ts';
import { recordAudit } from '../../audit/service.ts';
import { CONSOLE_APP_ID } from '../../apps/console.ts';
import { findUserByEmail, normalizeUsername, type User } from '../sign-in.ts';
import type { FederatedProfile } from '../federation/providers.ts';
import { servesVerifiedDomain, type EnterpriseConnection } from './connections.ts';

/** OIDC `sub` or SAML NameID as `subject`; `emailVerified` the IdP's word on the address. */
export type EnterpriseProfile = FederatedProfile;

/** The federated identity's provider name: the connection, so two connections' subjects never meet. */
export const connectionProvider = (connection: EnterpriseConnection) => `${connection.kind}:${connection.id}`;

export type EnterpriseOutcome =
  | { kind: 'user'; user: User }
  /** An identity has the e-mail but is not the connection's alone: it signs in the old way and confirms the link. */
  | { kind: 'confirmLink'; user: User }
  | { kind: 'unverifiedDomain' }
  /** The IdP does not vouch for the e-mail, which then neither links nor creates anyone. */
  | { kind: 'unverifiedEmail' }
  | { kind: 'noEmail' };

/** Links the connection's subject to `userId` (kept when the subject is linked already). */
export async function linkSubject(db: Database, connection: EnterpriseConnection, userId: string, profile: EnterpriseProfile) {
  await db
    .insert(federatedIdentities)
    .values({
      id: randomUUID(),
      appId: connection.appId,
      userId,
      provider: connectionProvider(connection),
      subject: profile.subject,
      email: profile.email,
    })
    .onConflictDoNothing();
}

/** The person's membership of the connection's workspace, made with its default role (and audited) when there is none. */
export async function joinConnectionWorkspace(db: Database, connection: EnterpriseConnection, userId: string, ip: string): Promise<string> {
  const [made] = await db
    .insert(tenantUsers)
    .values({
      id: randomUUID(),
      tenantId: connection.tenantId,
      userId,
      role: connection.defaultRole,
      enabled: true,
      onboarded: true,
      customParams: {},
    })
    .onConflictDoNothing()
    .returning();
  if (made) {
    await recordAudit(db, {
      type: 'enterprise.joined',
      appId: connection.appId,
      userId,
      tenantUserId: made.id,
      ip,
      detail: { tenantId: connection.tenantId, connectionId: connection.id, role: connection.defaultRole },
    });
    return made.id;
  }
  const [kept] = await db
    .select({ id: tenantUsers.id })
    .from(tenantUsers)
    .where(and(eq(tenantUsers.tenantId, connection.tenantId), eq(tenantUsers.userId, userId)));
  return kept!.id;
}

/**
 * Whether the connection may take an existing identity on its e-mail alone: one with memberships, all
 * of them in the connection's workspace. A console owner never is: their apps would answer to the IdP.
 */
async function belongsToConnection(db: Database, connection: EnterpriseConnection, userId: string): Promise<boolean> {
  const memberships = await db
    .select({ tenantId: tenantUsers.tenantId, role: tenantUsers.role })
    .from(tenantUsers)
    .where(eq(tenantUsers.userId, userId));
  const consoleOwner = connection.appId === CONSOLE_APP_ID && memberships.some((membership) => membership.role === 'OWNER');
  return memberships.length > 0 && !consoleOwner && memberships.every((membership) => membership.tenantId === connection.tenantId);
}

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
  return db.transaction(async (tx): Promise<EnterpriseOutcome> => {
    const [linked] = await tx
      .select({ user: users })
      .from(federatedIdentities)
      .innerJoin(users, eq(users.id, federatedIdentities.userId))
      .where(
        and(
          eq(federatedIdentities.appId, connection.appId),
          eq(federatedIdentities.provider, connectionProvider(connection)),
          eq(federatedIdentities.subject, profile.subject),
        ),
      )
      .limit(1);
    let person = linked?.user;
    if (!person) {
      if (!profile.emailVerified) return { kind: 'unverifiedEmail' };
      const existing = await findUserByEmail(tx, connection.appId, email);
      if (existing && !(await belongsToConnection(tx, connection, existing.id))) return { kind: 'confirmLink', user: existing };
      [person] = existing
        ? [existing]
        : await tx
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
      await linkSubject(tx, connection, person!.id, { ...profile, email });
    }
    await joinConnectionWorkspace(tx, connection, person!.id, ip);
    return { kind: 'user', user: person! };
  });
}
