// What a reset, signup or invitation link does to an identity: send it, tell what it is for, and use
// it — once — to set or confirm the password and prove the e-mail. Where the app switched passwords
// off (AppConfig.passwordEnabled false) no link sets a password: reset links are refused and signup
// and invitation links only confirm the e-mail.
import { recipientLocale } from '../../notify/recipient-locale.ts';
import { and, eq, isNull } from 'drizzle-orm';
import type { FoyerContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { tenantUsers, userTokens, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { App } from '../../apps/lookup.ts';
import { hashPassword } from '../passwords.ts';
import { findUserByEmail, passwordSignInEnabled, type User } from '../sign-in.ts';
import { consumeToken, findLiveToken, issueToken, type UserToken } from '../tokens/service.ts';
import { endIdentitySessions } from '../sessions/service.ts';
import { proveEmail } from '../email-proof.ts';
import { emitTenantUserEvent } from '../../outbox/outbox.ts';

/** The purposes of links that end on the set-password screen. */
export const PASSWORD_LINK_PURPOSES: ('reset' | 'signup' | 'invite')[] = ['reset', 'signup', 'invite'];

export type PasswordLinkToken = UserToken & { purpose: 'reset' | 'signup' | 'invite' };

export const linkExpired = () => new HttpError(400, 'LINK_EXPIRED', 'The link has expired or was already used');

export const passwordsDisabled = () =>
  new HttpError(403, 'PASSWORD_SIGN_IN_DISABLED', 'This app does not use passwords; sign in with another method');

export function setPasswordLink(context: FoyerContext, token: string): string {
  return `${context.config.urls.ui}/auth/set-password/${token}`;
}

/** A live reset, signup or invitation link and whom it is for. */
export async function findPasswordLink(db: Database, secret: string): Promise<{ token: PasswordLinkToken; user: User } | undefined> {
  const token = await findLiveToken(db, secret, PASSWORD_LINK_PURPOSES);
  if (!token) return undefined;
  const [user] = await db.select().from(users).where(eq(users.id, token.userId)).limit(1);
  return user && { token: token as PasswordLinkToken, user };
}

/**
 * What using the link does: `choose` asks for a new password (a reset, or an identity without one);
 * `confirm` only proves the e-mail, keeping a password chosen before — one typed on the signup form,
 * or the one the identity has — and, where the app has passwords off, setting none; `refused` is a
 * reset link of an app with passwords off.
 */
export function passwordLinkUse(app: App, token: PasswordLinkToken, user: User): 'choose' | 'confirm' | 'refused' {
  if (!passwordSignInEnabled(app)) return token.purpose === 'reset' ? 'refused' : 'confirm';
  if (token.purpose === 'reset') return 'choose';
  return user.passwordHash !== null || (token.purpose === 'signup' && token.pendingPasswordHash !== null) ? 'confirm' : 'choose';
}

/** Runs after POST /auth/password answered: only a known e-mail of an app with passwords on gets a link. */
export async function sendResetLink(context: FoyerContext, app: App, email: string): Promise<void> {
  if (!passwordSignInEnabled(app)) return;
  const user = await findUserByEmail(context.db, app.id, email);
  if (!user) return;
  // Issuing retires the user's earlier reset links.
  const token = await issueToken(context.db, {
    appId: app.id,
    userId: user.id,
    purpose: 'reset',
    ttlSeconds: context.config.resetTokenTtlSeconds,
  });
  // Delivery failures are logged by the mail module; the answer went out long ago.
  await context.notifier.send({
    appId: app.id,
    to: user.email,
    kind: 'reset',
    locale: await recipientLocale(context.db, app.id, user),
    link: setPasswordLink(context, token),
    expiresInSeconds: context.config.resetTokenTtlSeconds,
  });
}

/**
 * Uses the link: consumes the token (only one caller wins), sets `password` — or, for a link that
 * confirms a chosen password, the signup form's password unless the identity has one or the app has
 * switched passwords off since — marks the e-mail proven (the first proof ends what was set up
 * before it: server/auth/email-proof.ts), enables the membership a signup or invitation names,
 * retires the user's other reset links and, when the password changed, ends the user's other login
 * sessions. All or nothing; answers false when the token was no longer live.
 */
export async function applyPasswordLink(
  db: Database,
  app: App,
  secret: string,
  token: PasswordLinkToken,
  user: User,
  password: string | undefined,
  ip: string,
): Promise<boolean> {
  const pendingHash = passwordSignInEnabled(app) && !user.passwordHash ? token.pendingPasswordHash : null;
  const newHash = password !== undefined ? await hashPassword(password) : pendingHash;
  return db.transaction(async (tx) => {
    const consumed = await consumeToken(tx, secret, [token.purpose]);
    if (!consumed) return false;
    if (newHash) await tx.update(users).set({ passwordHash: newHash }).where(eq(users.id, user.id));
    const firstProof = await proveEmail(tx, { appId: app.id, userId: user.id, ip, purpose: token.purpose });
    await tx
      .update(userTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, 'reset'), isNull(userTokens.usedAt)));
    if (consumed.tenantUserId && consumed.purpose !== 'reset') {
      await tx
        .update(tenantUsers)
        .set({ enabled: true, invitationPending: false })
        .where(and(eq(tenantUsers.id, consumed.tenantUserId), eq(tenantUsers.userId, user.id)));
      // The signup confirmed or the invitation accepted: the membership can be used now.
      await emitTenantUserEvent(tx, app.id, 'TENANT_USER_UPDATED', consumed.tenantUserId);
    }
    // Whoever else was signing in with the old password has to start again, and every refresh token
    // issued under it dies (a first proof ended them already).
    if (newHash && !firstProof) await endIdentitySessions(tx, user.id);
    return true;
  });
}
