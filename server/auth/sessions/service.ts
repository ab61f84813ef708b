// A person's sign-in sessions in one app: every browser holding a live grant of one of their
// memberships (server/db/schema.ts signInSessions). Ending one revokes its grant (refresh tokens,
// codes, the sign-on session) and the browser's login session, so nothing issued to it works again.
import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, ne, or, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { loginSessions, oidcPayloads, signInSessions, tenants, tenantUsers } from '../../db/schema.ts';
import { fixedWrite, write } from '../../db/write-batch.ts';
import { revokeAccountGrants, revokeGrants } from '../oidc/adapter.ts';
import { deviceOf } from '../../audit/device.ts';
import { emitWebhookEvent } from '../../outbox/outbox.ts';
import { tenantUserModel } from '../../outbox/models.ts';

/** Whose sessions: one identity (an identity belongs to one app). */
export interface SessionOwner {
  appId: string;
  userId: string;
}

export interface SessionSummary {
  id: string;
  browser: string | null;
  os: string | null;
  ip: string | null;
  workspace: string;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
}

/** A row is a session while its Grant lives (revocation, reuse detection or expiry remove it). */
const grantLives = sql`exists (select 1 from ${oidcPayloads} where ${oidcPayloads.type} = 'Grant' and ${oidcPayloads.grantId} = ${signInSessions.grantId} and (${oidcPayloads.expiresAt} is null or ${oidcPayloads.expiresAt} > now()))`;

const ownedBy = (owner: SessionOwner) => and(eq(signInSessions.appId, owner.appId), eq(signInSessions.userId, owner.userId));

export interface SignIn {
  grantId: string;
  appId: string;
  userId: string;
  tenantUserId: string;
  loginSessionHash: string | null;
  userAgent: string | null;
  ip: string | null;
}

/** A code was issued under `grantId`: the grant is this browser's session (a reused grant is the same one). */
export async function recordSignIn(db: Database, signIn: SignIn): Promise<void> {
  const { grantId, ...fields } = signIn;
  await db.transaction(async (tx) => {
    await tx
      .insert(signInSessions)
      .values({ id: randomBytes(18).toString('base64url'), grantId, ...fields })
      .onConflictDoUpdate({
        target: signInSessions.grantId,
        set: { loginSessionHash: fields.loginSessionHash, userAgent: fields.userAgent, ip: fields.ip, lastActiveAt: sql`now()` },
      });
    // The member's sign-in to the app finished: the app hears who, in which workspace.
    const member = await tenantUserModel(tx, fields.tenantUserId);
    if (member) await emitWebhookEvent(tx, fields.appId, 'USER_SIGNED_IN', member);
  });
}

/** Fixed: every refresh writes it (server/db/write-batch.ts). */
const touchSession = fixedWrite<{ grantId: string; ip: string | null; accessTokenJti: string | null }>((db) =>
  db
    .update(signInSessions)
    .set({ ip: sql`${sql.placeholder('ip')}`, accessTokenJti: sql`${sql.placeholder('accessTokenJti')}`, lastActiveAt: sql`now()` })
    .where(eq(signInSessions.grantId, sql.placeholder('grantId'))),
);

/** Tokens were issued under `grantId` (the code exchanged, a refresh): the session was active now. */
export async function recordTokenIssue(
  db: Database,
  grantId: string,
  fields: { ip: string | null; accessTokenJti: string | null },
): Promise<void> {
  await write(db, touchSession(db, { grantId, ...fields }));
}

/** The owner's live sessions, most recently active first; `tokenId` (the caller's access token) marks this device. */
export async function listSessions(db: Database, owner: SessionOwner, tokenId: string | undefined): Promise<SessionSummary[]> {
  const rows = await db
    .select({ session: signInSessions, workspace: tenants.name })
    .from(signInSessions)
    .innerJoin(tenantUsers, eq(tenantUsers.id, signInSessions.tenantUserId))
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .where(and(ownedBy(owner), grantLives))
    .orderBy(desc(signInSessions.lastActiveAt), desc(signInSessions.createdAt));
  return rows.map(({ session, workspace }) => ({
    id: session.id,
    ...deviceOf(session.userAgent),
    ip: session.ip,
    workspace,
    signedInAt: session.createdAt.toISOString(),
    lastActiveAt: session.lastActiveAt.toISOString(),
    current: tokenId !== undefined && session.accessTokenJti === tokenId,
  }));
}

/** Revokes the grants of the sessions removed, and ends their browsers' login sessions. */
async function revokeRemoved(tx: Database, removed: { grantId: string; loginSessionHash: string | null }[]): Promise<void> {
  await revokeGrants(
    tx,
    removed.map((row) => row.grantId),
  );
  const hashes = removed.flatMap((row) => (row.loginSessionHash ? [row.loginSessionHash] : []));
  if (hashes.length > 0) await tx.delete(loginSessions).where(inArray(loginSessions.idHash, hashes));
}

const removedFields = { grantId: signInSessions.grantId, loginSessionHash: signInSessions.loginSessionHash };

/**
 * Ends one of the owner's sessions. False when `id` names none of theirs (another person's, another
 * app's, or one already ended), which the caller answers like an unknown id. The row's delete is
 * what decides: of two concurrent calls for one session, only one finds it.
 */
export async function revokeSession(db: Database, owner: SessionOwner, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(signInSessions)
      .where(and(ownedBy(owner), eq(signInSessions.id, id)))
      .returning(removedFields);
    await revokeRemoved(tx, removed);
    return removed.length > 0;
  });
}

/** Ends every session of the owner except the one the caller's access token (`tokenId`) belongs to. */
export async function revokeOtherSessions(db: Database, owner: SessionOwner, tokenId: string | undefined): Promise<number> {
  return db.transaction(async (tx) => {
    const notThisOne =
      tokenId === undefined ? undefined : or(isNull(signInSessions.accessTokenJti), ne(signInSessions.accessTokenJti, tokenId));
    const removed = await tx
      .delete(signInSessions)
      .where(and(ownedBy(owner), notThisOne))
      .returning(removedFields);
    await revokeRemoved(tx, removed);
    return removed.length;
  });
}

/**
 * Signs an identity out everywhere: its login sessions, and every grant and sign-on session of its
 * memberships. For a password set through a link and for "sign out everywhere".
 */
export async function endIdentitySessions(tx: Database, userId: string): Promise<void> {
  await tx.delete(loginSessions).where(eq(loginSessions.userId, userId));
  await revokeAccountGrants(tx, sql`select ${tenantUsers.id} from ${tenantUsers} where ${tenantUsers.userId} = ${userId}`);
  await tx.delete(signInSessions).where(eq(signInSessions.userId, userId));
}

/** Rows whose grant is gone (revoked, reused, expired) are never listed again; this keeps the table small. */
export async function purgeEndedSessions(db: Database): Promise<void> {
  await db.delete(signInSessions).where(sql`not ${grantLives}`);
}
