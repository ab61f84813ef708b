// Where a sign-in session is recorded: oidc-provider issues a code (the end of every sign-in, and of
// a single sign-on that reuses a grant) and later tokens under the same grant. Runs as provider
// middleware after the answer is built and before it is sent, so a session exists by the time the
// browser can use its code. Must be added before server/auth/oidc/mount.ts builds the provider's handler.
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import type { FoyerAccount } from '../oidc/provider.ts';
import { userAgentOf } from '../../http/request-device.ts';
import { hashId, LOGIN_SESSION_COOKIE } from '../login-session.ts';
import { recordSignIn, recordTokenIssue } from './service.ts';

export function trackSignInSessions(provider: Provider, db: Database): void {
  provider.use(async (ctx, next) => {
    await next();
    const { oidc } = ctx as Partial<KoaContextWithOIDC>;
    if (!oidc) return;
    const { AuthorizationCode: code, RefreshToken: refreshToken, AccessToken: accessToken } = oidc.entities;
    if ((oidc.route === 'authorization' || oidc.route === 'resume') && code?.grantId && oidc.client) {
      const account = oidc.account as FoyerAccount | undefined;
      if (!account?.membership) return;
      const loginCookie = ctx.cookies.get(LOGIN_SESSION_COOKIE);
      await recordSignIn(db, {
        grantId: code.grantId,
        appId: oidc.client.clientId,
        userId: account.membership.user.id,
        tenantUserId: account.accountId,
        loginSessionHash: loginCookie ? hashId(loginCookie) : null,
        userAgent: userAgentOf(ctx.get('user-agent')) ?? null,
        ip: ctx.ip,
      });
    } else if (oidc.route === 'token' && ctx.status === 200) {
      const grantId = refreshToken?.grantId ?? code?.grantId;
      if (grantId) await recordTokenIssue(db, grantId, { ip: ctx.ip, accessTokenJti: accessToken?.jti ?? null });
    }
  });
}
