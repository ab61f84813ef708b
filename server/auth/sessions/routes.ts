// The profile's sessions list on the auth service, with the API's access token (server/auth/bearer.ts):
// list the caller's sessions in this app, end one, end all others, or sign out everywhere (this
// browser included). Only the caller's own sessions are ever found; any other id is "not found".
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.ts';
import { recordAudit } from '../../audit/service.ts';
import { AccessTokenVerifier } from '../access-tokens.ts';
import { bearerUser } from '../bearer.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { endIdentitySessions, listSessions, revokeOtherSessions, revokeSession } from './service.ts';
import { Type } from 'typebox';
import { authServiceRoute } from '../../http/openapi.ts';
import { refusals } from '../../../common/api/errors.ts';
import { SessionList, SessionParams, SessionsRevoked } from '../../../common/api/auth.ts';

export async function sessionsRoutes(app: FastifyInstance, { context, sessions }: AuthServiceOptions) {
  const { db, config } = context;
  const verifier = new AccessTokenVerifier(db, config.urls.auth);

  app.get(
    '/auth/sessions',
    {
      schema: {
        ...authServiceRoute("The caller's sessions in this app", 'accessToken'),
        response: { 200: SessionList, ...refusals(401, 403) },
      },
    },
    async (request) => {
      const { app: target, user, tokenId } = await bearerUser(db, verifier, request);
      return listSessions(db, { appId: target.id, userId: user.id }, tokenId);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/auth/sessions/:id',
    {
      schema: {
        ...authServiceRoute("End one of the caller's sessions", 'accessToken'),
        params: SessionParams,
        response: { 204: Type.Null(), ...refusals(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { app: target, user } = await bearerUser(db, verifier, request);
      if (!(await revokeSession(db, { appId: target.id, userId: user.id }, request.params.id))) {
        throw notFound('No such session', 'SESSION_NOT_FOUND');
      }
      await recordAudit(db, { type: 'session.revoked', appId: target.id, userId: user.id, ip: request.ip });
      return reply.status(204).send();
    },
  );

  app.post(
    '/auth/sessions/revoke-others',
    {
      schema: {
        ...authServiceRoute("End the caller's other sessions in this app", 'accessToken'),
        response: { 200: SessionsRevoked, ...refusals(401, 403) },
      },
    },
    async (request) => {
      const { app: target, user, tokenId } = await bearerUser(db, verifier, request);
      const revoked = await revokeOtherSessions(db, { appId: target.id, userId: user.id }, tokenId);
      await recordAudit(db, { type: 'session.others_revoked', appId: target.id, userId: user.id, ip: request.ip, detail: { revoked } });
      return { revoked };
    },
  );

  // Sign out everywhere: this browser's login cookie goes too; the runtime then drops its tokens.
  app.post(
    '/auth/sessions/revoke-all',
    {
      schema: {
        ...authServiceRoute('Sign out everywhere, this browser included', 'accessToken'),
        response: { 204: Type.Null(), ...refusals(401, 403) },
      },
    },
    async (request, reply) => {
      const { app: target, user } = await bearerUser(db, verifier, request);
      await db.transaction((tx) => endIdentitySessions(tx, user.id));
      await sessions.end(request, reply);
      await recordAudit(db, { type: 'session.all_revoked', appId: target.id, userId: user.id, ip: request.ip });
      return reply.status(204).send();
    },
  );
}
