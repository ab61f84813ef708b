// Magic links: a single-use sign-in link, valid 15 minutes, that works only in the browser (login
// session) that asked for it.
import { recipientLocale } from '../../notify/recipient-locale.ts';
import { eq } from 'drizzle-orm';
import type { ServerConfig } from '../../config.ts';
import type { FoyerContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { findApp, type App } from '../../apps/lookup.ts';
import type { LoginSession } from '../login-session.ts';
import { findUserByEmail, type SignInAnswer, type User } from '../sign-in.ts';
import { consumeToken, findLiveToken, issueToken, TOKEN_TTL_SECONDS } from '../tokens/service.ts';
import { proveEmail } from '../email-proof.ts';

/** Runs after POST /auth/magic-link answered: only a known e-mail gets a link, bound to the asking session. */
export async function sendMagicLink(context: FoyerContext, app: App, email: string, loginSessionHash: string): Promise<void> {
  const user = await findUserByEmail(context.db, app.id, email);
  if (!user) return;
  const token = await issueToken(context.db, { appId: app.id, userId: user.id, purpose: 'magic-link', loginSessionHash });
  await context.notifier.send({
    appId: app.id,
    to: user.email,
    kind: 'magic-link',
    locale: await recipientLocale(context.db, app.id, user),
    link: `${context.config.urls.auth}/auth/magic-link/${token}`,
    expiresInSeconds: TOKEN_TTL_SECONDS['magic-link'],
  });
}

/**
 * Uses a magic link opened with `session`: it must be live, issued to this very login session, and
 * its app must still allow magic links. A link opened elsewhere stays unused (a mail scanner
 * following it cannot spend it). Opening it proves the e-mail (server/auth/email-proof.ts).
 */
export async function useMagicLink(
  db: Database,
  secret: string,
  session: LoginSession,
  ip: string,
): Promise<{ app: App; user: User } | undefined> {
  const token = await findLiveToken(db, secret, ['magic-link']);
  if (!token || token.loginSessionHash !== session.idHash || token.appId !== session.appId) return undefined;
  const app = await findApp(db, token.appId);
  if (!app?.settings.magicLinkEnabled) return undefined;
  return db.transaction(async (tx) => {
    if (!(await consumeToken(tx, secret, ['magic-link']))) return undefined;
    await proveEmail(tx, { appId: app.id, userId: token.userId, ip, purpose: 'magic-link' });
    const [user] = await tx.select().from(users).where(eq(users.id, token.userId));
    return user && { app, user };
  });
}

/**
 * Where a full-page sign-in continues, as the login screens do after a password: a second factor
 * first; with one workspace, straight to the handover; otherwise the workspace picker.
 */
export function nextStepAfterSignIn(config: ServerConfig, answer: SignInAnswer): string {
  if (answer.mfaState === 'SETUP') return `${config.urls.ui}/auth/mfa/setup`;
  if (answer.mfaState === 'REQUIRED') return `${config.urls.ui}/auth/mfa/required`;
  if (answer.tenantUserId) return `/auth/chooseTenantUser/${encodeURIComponent(answer.tenantUserId)}`;
  return `${config.urls.ui}/auth/choose-user`;
}
