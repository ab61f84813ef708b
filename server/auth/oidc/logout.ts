// RP-initiated logout (/session/end) with Foyer's screens instead of oidc-provider's: the request is
// checked by oidc-provider, then the browser goes to the hosted sign-out screen, which posts the
// confirmation back (at once when the app proved whom it signs out). Confirmed, oidc-provider ends
// this browser's sign-on session, and completeLogout revokes the grants it held (oidc-provider keeps
// grants whose refresh tokens outlive the session, as Foyer's do) and ends Foyer's login session.
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { FoyerContext } from '../../context.ts';
import { recordAudit } from '../../audit/service.ts';
import { revokeGrantFamily } from './adapter.ts';
import { LOGIN_SESSION_COOKIE, type LoginSessions } from '../login-session.ts';

export const SIGN_OUT_SCREEN = '/auth/sign-out';

export async function confirmSignOut(uiUrl: string, ctx: KoaContextWithOIDC): Promise<void> {
  const { session, client, entities } = ctx.oidc;
  const hint = entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
  // An ID token issued to this app for the account signed in here: nothing is left to ask.
  const proven = Boolean(client && session?.accountId && hint?.payload?.sub === session.accountId);
  const query = new URLSearchParams({ xsrf: String(session?.state?.secret ?? '') });
  if (client) query.set('appId', client.clientId);
  if (proven) query.set('confirmed', '1');
  ctx.status = 303;
  ctx.redirect(`${uiUrl}${SIGN_OUT_SCREEN}?${query.toString()}`);
}

/** After a logout that named no post-logout address: the hosted login of the app. */
export async function toLoginAfterLogout(uiUrl: string, ctx: KoaContextWithOIDC): Promise<void> {
  const query = ctx.oidc.client ? `?${new URLSearchParams({ appId: ctx.oidc.client.clientId }).toString()}` : '';
  ctx.status = 303;
  ctx.redirect(`${uiUrl}/auth/login${query}`);
}

/**
 * After a confirmed logout: every grant the ended sign-on session held is revoked (refresh tokens
 * die) and Foyer's login session ends, so the next sign-in asks for the password again.
 */
export async function completeLogout(context: FoyerContext, sessions: LoginSessions, ctx: KoaContextWithOIDC): Promise<void> {
  if (!ctx.oidc.params?.logout) return;
  for (const authorization of Object.values(ctx.oidc.session?.authorizations ?? {})) {
    if (authorization.grantId) await revokeGrantFamily(context.db, authorization.grantId);
  }
  const id = ctx.cookies.get(LOGIN_SESSION_COOKIE, { signed: false });
  const session = await sessions.readById(id);
  if (session) await sessions.remove(session);
  if (id !== undefined) ctx.cookies.set(LOGIN_SESSION_COOKIE, null, { ...sessions.cookieOptions(), signed: false });
  const accountId = ctx.oidc.session?.accountId;
  if (session || accountId) {
    await recordAudit(context.db, {
      type: 'logout',
      appId: ctx.oidc.client?.clientId ?? session?.appId,
      userId: session?.userId,
      tenantUserId: accountId,
      ip: ctx.ip,
    });
  }
}
