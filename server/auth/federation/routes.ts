// Social sign-in entry points on the auth origin: GET /federated/{provider}/login and /signup, where
// the login screen's social buttons lead. No provider has working upstream credentials yet, so after
// checking the provider and the app the browser goes back to the app's login screen with an error the
// screen explains ("not available yet"). Talking to the providers is a later issue.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { socialProviders, type SocialProvider } from '../../../common/app-config.ts';
import { requireApp, type App } from '../../apps/lookup.ts';
import type { LoginSession } from '../session/service.ts';
import { enabledSocialProviders } from '../../apps/settings.ts';
import type { AuthServiceOptions } from '../service-options.ts';

const federationSchema = {
  params: {
    type: 'object',
    required: ['provider'],
    properties: { provider: { type: 'string', minLength: 1, maxLength: 50 } },
  },
  querystring: {
    type: 'object',
    properties: { appId: { type: 'string', minLength: 1, maxLength: 100 } },
  },
} as const;

interface FederationRequest {
  Params: { provider: string };
  Querystring: { appId?: string };
}

function isSocialProvider(name: string): name is SocialProvider {
  return (socialProviders as readonly string[]).includes(name);
}

/**
 * The app being signed in to: a pending authorization's app, else the one the login screen names in
 * ?appId=, else the login session's app (the same order as the other sign-in endpoints).
 */
async function appOf(context: FoyerContext, session: LoginSession | undefined, appId: string | undefined): Promise<App> {
  if (session?.interactionUid) return requireApp(context.db, session.appId);
  if (appId) return requireApp(context.db, appId);
  if (session) return requireApp(context.db, session.appId);
  throw new HttpError(400, 'APP_REQUIRED', 'Start signing in from the app, or name the app in the appId query parameter');
}

export async function federationRoutes(app: FastifyInstance, { context, sessions }: AuthServiceOptions) {
  const { config } = context;

  const handler = async (request: FastifyRequest<FederationRequest>, reply: FastifyReply) => {
    const { provider } = request.params;
    if (!isSocialProvider(provider)) {
      throw new HttpError(400, 'UNKNOWN_PROVIDER', `There is no sign-in provider named ${provider}`);
    }
    const target = await appOf(context, await sessions.read(request), request.query.appId);
    // Enabled or not, the browser hears the same: the provider cannot be used yet (and the answer does
    // not reveal which providers the app has switched on). The log tells operators which it was.
    const enabled = enabledSocialProviders(target.settings).includes(provider);
    request.log.info({ provider, appId: target.id, enabled }, 'federated sign-in requested; not available yet');
    const query = new URLSearchParams({ appId: target.id, error: 'federation', errorDetails: 'unavailable' });
    return reply.redirect(`${config.urls.ui}/auth/login?${query.toString()}`, 303);
  };

  app.get<FederationRequest>('/federated/:provider/login', { schema: federationSchema }, handler);
  app.get<FederationRequest>('/federated/:provider/signup', { schema: federationSchema }, handler);
}
