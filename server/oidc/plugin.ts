// Everything oidc-provider answers on the auth origin, plus the interaction UI and the shorthands.
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { FoyerContext } from '../context.ts';
import type { LoginSessions } from '../auth/session/service.ts';
import { interactionRoutes } from './interactions.ts';
import { mountProvider } from './mount.ts';
import { shorthandRoutes } from './shorthands.ts';

export interface OidcPluginOptions {
  context: FoyerContext;
  provider: Provider;
  sessions: LoginSessions;
}

export async function oidcPlugin(app: FastifyInstance, options: OidcPluginOptions) {
  // Its own scope: the provider's body handling must not leak into Foyer's JSON routes.
  await app.register(mountProvider, { provider: options.provider });
  await app.register(interactionRoutes, options);
  await app.register(shorthandRoutes, options);
}
