// The legacy auth mode on the API host: /auth-proxy/* and GET /auth/currentUser (routes.ts).
//
// CORS: like /graphql (server/graphql/plugin.ts), any origin and never credentials. The calls read
// no cookies; the caller is only what the x-auth-token (or Authorization) header proves.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { FoyerContext } from '../context.ts';
import { DeferredWork } from '../auth/deferred.ts';
import { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { authProxyRoutes, currentUserRoute, type AuthProxyOptions } from './routes.ts';

export async function authProxyPlugin(app: FastifyInstance, context: FoyerContext): Promise<void> {
  const deferred = new DeferredWork(app.log);
  const options: AuthProxyOptions = { context, verifier: new AccessTokenVerifier(context.db, context.config.urls.auth), deferred };
  // One scope per prefix, so the CORS preflight route covers these paths only.
  for (const [prefix, routes] of [
    ['/auth-proxy', authProxyRoutes],
    ['/auth', currentUserRoute],
  ] as const) {
    await app.register(
      async (scope) => {
        await scope.register(cors, {
          origin: '*',
          methods: ['GET', 'POST', 'PUT'],
          allowedHeaders: ['content-type', 'x-auth-token', 'x-tenant-user-id', 'x-app-id', 'authorization'],
          maxAge: 600,
        });
        await routes(scope, options);
      },
      { prefix },
    );
  }
  // Reset mail still queued goes out before the database closes.
  app.addHook('onClose', () => deferred.drained());
}
