// Legacy auth tokens (server/db/schema.ts legacyTokens): opaque random values handed out by POST
// /auth-proxy/authenticate, stored only as SHA-256 hashes. Each is bound to one app and identity and
// to a login session of its own, where two-factor codes wait (server/auth/mfa). A token whose sign-in
// needed a second factor works only joined to the MFA token that passing it answered
// (`x-auth-token: token_mfaToken`), and an MFA token works with no other auth token.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FoyerContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import { legacyTokens, loginSessions, tenants, tenantUsers } from '../db/schema.ts';
import { findApp, type App } from '../apps/lookup.ts';
import { isRole, privilegesOf } from '../../common/roles.ts';
import { LoginSessions, type LoginSession } from './login-session.ts';
import type { User } from './sign-in.ts';
import type { Caller } from './caller-kinds.ts';

export type LegacyToken = typeof legacyTokens.$inferSelect;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

/** base64url of 32 random bytes: anything else in the header is no token of ours. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The app the legacy mode serves: only apps that switched it on (AppConfig.authLegacy) accept its tokens. */
export function legacyModeEnabled(app: App): boolean {
  return app.settings.authLegacy === true;
}

/**
 * A new token for `user` in `app`, with its login session: authenticated at once unless a second
 * factor is still due. Both live as long as a login session (LOGIN_SESSION_TTL_SECONDS).
 */
export async function issueLegacyToken(
  context: FoyerContext,
  input: { app: Pick<App, 'id'>; user: Pick<User, 'id'>; authenticated: boolean },
): Promise<{ token: string; session: LoginSession }> {
  const { session } = await new LoginSessions(context).create({
    appId: input.app.id,
    userId: input.user.id,
    authenticated: input.authenticated,
  });
  const token = newSecret();
  await context.db.insert(legacyTokens).values({
    idHash: sha256(token),
    loginSessionHash: session.idHash,
    appId: input.app.id,
    userId: input.user.id,
    expiresAt: session.expiresAt,
  });
  return { token, session };
}

/** The parts of an x-auth-token header: the auth token, and the MFA token joined by an underscore. */
function splitHeader(header: string): { token: string; mfaToken: string | undefined } | undefined {
  // Both parts are base64url, which has underscores of its own: the token is always 43 characters.
  const token = header.slice(0, 43);
  const rest = header.slice(43);
  if (!SECRET.test(token)) return undefined;
  if (rest === '') return { token, mfaToken: undefined };
  if (!rest.startsWith('_') || !SECRET.test(rest.slice(1))) return undefined;
  return { token, mfaToken: rest.slice(1) };
}

export interface HeldToken {
  token: LegacyToken;
  session: LoginSession;
  /** Every factor passed and proven by this header (with its MFA token when one was answered). */
  signedIn: boolean;
}

/** The live token an x-auth-token header names, with its login session; undefined for anything else. */
export async function readLegacyToken(db: Database, header: string | undefined): Promise<HeldToken | undefined> {
  const parts = header === undefined ? undefined : splitHeader(header.trim());
  if (!parts) return undefined;
  const [row] = await db
    .select({ token: legacyTokens, session: loginSessions })
    .from(legacyTokens)
    .innerJoin(loginSessions, eq(loginSessions.idHash, legacyTokens.loginSessionHash))
    .where(and(eq(legacyTokens.idHash, sha256(parts.token)), gt(legacyTokens.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return undefined;
  const expected = row.token.mfaTokenHash;
  const mfaProven =
    expected === null
      ? parts.mfaToken === undefined
      : parts.mfaToken !== undefined && timingSafeEqual(Buffer.from(sha256(parts.mfaToken)), Buffer.from(expected));
  return { ...row, signedIn: row.session.authenticatedAt !== null && mfaProven };
}

/** The second factor passed: the token's session is signed in, and the answered MFA token is now required with it. */
export async function passSecondFactor(db: Database, session: LoginSession): Promise<string> {
  const mfaToken = newSecret();
  await db.transaction(async (tx) => {
    await tx.update(loginSessions).set({ authenticatedAt: new Date() }).where(eq(loginSessions.idHash, session.idHash));
    await tx
      .update(legacyTokens)
      .set({ mfaTokenHash: sha256(mfaToken) })
      .where(eq(legacyTokens.loginSessionHash, session.idHash));
  });
  return mfaToken;
}

/** Ends one token: deleting its login session takes the token and any waiting codes with it. */
export async function revokeLegacyToken(db: Database, held: HeldToken): Promise<void> {
  await db.delete(loginSessions).where(eq(loginSessions.idHash, held.session.idHash));
}

/** Ends every legacy token of an identity (its membership was disabled). */
export async function revokeIdentityLegacyTokens(tx: Database, userId: string): Promise<void> {
  await tx
    .delete(loginSessions)
    .where(
      inArray(
        loginSessions.idHash,
        tx.select({ hash: legacyTokens.loginSessionHash }).from(legacyTokens).where(eq(legacyTokens.userId, userId)),
      ),
    );
}

/**
 * The caller legacy headers prove (used by server/auth/callers.ts): a signed-in token of an
 * app in legacy mode, and x-tenant-user-id naming an enabled membership of the token's own identity
 * in the token's app. The workspace comes only from that membership; one of another identity, app
 * or a disabled one is refused, as is an x-app-id naming another app. The privileges are the role's,
 * as an access token's scope would be.
 */
export async function legacyCaller(db: Database, headers: Headers): Promise<Caller> {
  const held = await readLegacyToken(db, headers.get('x-auth-token') ?? undefined);
  if (!held?.signedIn) return { kind: 'rejected', reason: 'legacy token unknown, expired, revoked or without its MFA token' };
  const { token } = held;
  const appId = headers.get('x-app-id')?.trim();
  if (appId && appId !== token.appId) return { kind: 'rejected', reason: 'legacy token of another app' };
  const app = await findApp(db, token.appId);
  if (!app || !legacyModeEnabled(app)) return { kind: 'rejected', reason: 'legacy mode is off for the app' };
  const tenantUserId = headers.get('x-tenant-user-id')?.trim();
  if (!tenantUserId) return { kind: 'rejected', reason: 'no x-tenant-user-id' };
  const [membership] = await db
    .select({ membership: tenantUsers })
    .from(tenantUsers)
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .where(and(eq(tenantUsers.id, tenantUserId), eq(tenantUsers.userId, token.userId), eq(tenants.appId, token.appId)))
    .limit(1);
  if (!membership) return { kind: 'rejected', reason: 'x-tenant-user-id is no membership of the token' };
  const { membership: row } = membership;
  if (!row.enabled) return { kind: 'rejected', reason: 'membership disabled', membershipEnded: true };
  if (row.invitationPending) return { kind: 'rejected', reason: 'invitation not accepted' };
  if (!isRole(row.role)) return { kind: 'rejected', reason: 'unknown role' };
  return {
    kind: 'member',
    app,
    tenantId: row.tenantId,
    tenantUserId: row.id,
    userId: row.userId,
    role: row.role,
    privileges: new Set(privilegesOf(row.role)),
  };
}
