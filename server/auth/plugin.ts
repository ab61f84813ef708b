// The auth service (auth origin): oidc-provider with its interaction UI and shorthands, and the
// session, password, magic-link, two-factor and social sign-in endpoints the hosted login screens
// call with the login session cookie.
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { FoyerContext } from '../context.ts';
import { createOidcProvider } from './oidc/provider.ts';
import { purgeExpiredPayloads } from './oidc/adapter.ts';
import { oidcPlugin } from './oidc/plugin.ts';
import { sessionRoutes } from './session/routes.ts';
import { LoginSessions } from './login-session.ts';
import { completeLogout } from './oidc/logout.ts';
import { DeferredWork } from './deferred.ts';
import { passwordRoutes } from './password/routes.ts';
import { magicLinkRoutes } from './magic-link/routes.ts';
import { mfaRoutes } from './mfa/routes.ts';
import { passkeyRoutes } from './passkeys/routes.ts';
import { sessionsRoutes } from './sessions/routes.ts';
import { purgeEndedSessions } from './sessions/service.ts';
import { trackSignInSessions } from './sessions/tracking.ts';
import { federationRoutes } from './federation/routes.ts';
import { purgeExpiredFederationStates } from './federation/service.ts';
import { enterpriseRoutes } from './enterprise/routes.ts';
import { purgeExpiredSamlIds } from './enterprise/saml.ts';
import { purgeExpiredChallenges } from './passkeys/service.ts';
import type { AuthServiceOptions } from './service-options.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export async function authServicePlugin(app: FastifyInstance, context: FoyerContext) {
  await app.register(cookie);
  // Only the hosted UI may call the session endpoints with the cookie. oidc-provider's own
  // endpoints opt out (they answer CORS themselves) and the token shorthands open up per route.
  await app.register(cors, {
    origin: context.config.urls.ui,
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    // authorization: the profile's passkey calls carry the API's access token.
    allowedHeaders: ['content-type', 'x-app-id', 'authorization'],
  });

  const sessions = new LoginSessions(context);
  const provider = await createOidcProvider(context, { afterLogout: (ctx) => completeLogout(context, sessions, ctx) });
  provider.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'oidc-provider failed'));
  trackSignInSessions(provider, context.db);
  const deferred = new DeferredWork(app.log);
  const options: AuthServiceOptions = { context, provider, sessions, deferred };
  for (const routes of [
    oidcPlugin,
    sessionRoutes,
    passwordRoutes,
    magicLinkRoutes,
    mfaRoutes,
    passkeyRoutes,
    sessionsRoutes,
    federationRoutes,
    enterpriseRoutes,
  ]) {
    await app.register(routes, options);
  }

  const purge = setInterval(() => {
    Promise.all([
      purgeExpiredPayloads(context.db),
      sessions.purgeExpired(),
      purgeExpiredChallenges(context.db),
      purgeEndedSessions(context.db),
      purgeExpiredFederationStates(context.db),
      purgeExpiredSamlIds(context.db),
    ]).catch((error: unknown) => app.log.warn({ err: error }, 'purging expired sign-in data failed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    // Mail still queued goes out before the database closes.
    await deferred.drained();
  });
}
