// Everything oidc-provider answers on the auth origin, plus the interaction UI and the shorthands.
import type { FastifyInstance } from 'fastify';
import { interactionRoutes } from './interactions.ts';
import { mountProvider } from './mount.ts';
import { shorthandRoutes } from './shorthands.ts';
import { userinfoRoutes } from './userinfo.ts';
import type { AuthServiceOptions } from '../service-options.ts';

export async function oidcPlugin(app: FastifyInstance, options: AuthServiceOptions) {
  // Its own scope: the provider's body handling must not leak into Foyer's JSON routes.
  await app.register(mountProvider, { provider: options.provider, publicUrl: options.context.config.urls.auth });
  await app.register(interactionRoutes, options);
  await app.register(shorthandRoutes, options);
  await app.register(userinfoRoutes, options);
}
