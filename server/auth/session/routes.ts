// Session endpoints on the auth origin (docs/ORIGINAL-CONTRACT.md 2.3):
// the hosted login screens call them with the login session cookie.
import type { FastifyInstance } from 'fastify';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { recordAudit } from '../../audit/service.ts';
import { findEnabledMembership, listEnabledMemberships, tenantUserAnswer } from '../memberships.ts';
import { interactionPath } from '../oidc/provider.ts';
import { endSingleSignOn } from '../oidc/single-sign-on.ts';
import { signInStartUrl } from '../../apps/sign-in-start.ts';
import { requireApp } from '../../apps/lookup.ts';
import { isAuthenticated, type LoginSession } from '../login-session.ts';
import { checkPasswordSignIn, normalizeUsername, passwordSignInEnabled, requestedAppId, resolveApp, signIn } from '../sign-in.ts';
import { connectionsForDomain } from '../enterprise/connections.ts';
import { ENTERPRISE_LINK_COOKIE, dropPendingLink, isFor, readPendingLink } from '../enterprise/link.ts';
import { withWriteBatch } from '../../db/write-batch.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { Type } from 'typebox';
import { authServiceRoute } from '../../http/openapi.ts';
import { refusals } from '../../../common/api/errors.ts';
import {
  AuthenticateBody,
  ChooseTenantUserParams,
  ContinueQuery,
  CredentialsConfigBody,
  CredentialsConfigSchema,
  SignInAnswerSchema,
  TenantUserList,
} from '../../../common/api/auth.ts';

/** POST /auth/authenticate's schema; POST /auth-proxy/authenticate takes the same body. */
export const authenticateSchema = { body: AuthenticateBody } as const;

const redirect = { 303: Type.Null({ description: 'To the next step' }) };

export async function sessionRoutes(app: FastifyInstance, { context, provider, sessions }: AuthServiceOptions) {
  const { db, config } = context;

  /** The authorization request the session is signing in for, while oidc-provider still holds it. */
  async function pendingInteraction(session: LoginSession) {
    if (!session.interactionUid) return undefined;
    const interaction = await provider.Interaction.find(session.interactionUid);
    return interaction && interaction.params.client_id === session.appId ? interaction : undefined;
  }

  app.post<{ Body: { username: string } }>(
    '/auth/credentialsConfig',
    {
      schema: {
        ...authServiceRoute('What the login screen offers an address', 'none'),
        body: CredentialsConfigBody,
        response: { 200: CredentialsConfigSchema, ...refusals(400, 403, 404) },
      },
    },
    async (request) => {
      const session = await sessions.read(request);
      const target = await resolveApp(db, request, session);
      // The same answer for every address (known, unknown, invited without a password yet), so it
      // reveals no account; where the app switched passwords off, nobody has one to sign in with. The
      // connections depend on the domain alone: those whose claim on it is verified.
      const address = normalizeUsername(request.body.username);
      const domain = address.includes('@') ? address.slice(address.lastIndexOf('@') + 1) : '';
      const connections = domain && target.settings.authLegacy !== true ? await connectionsForDomain(db, target.id, domain) : [];
      return {
        hasPassword: passwordSignInEnabled(target),
        hasPasskeys: false,
        federationConnections: connections.map((connection) => ({ id: connection.id, name: connection.name, type: connection.kind })),
      };
    },
  );

  app.post<{ Body: { username: string; password: string } }>(
    '/auth/authenticate',
    {
      schema: {
        ...authServiceRoute('Sign in with e-mail and password', 'none'),
        ...authenticateSchema,
        response: { 200: SignInAnswerSchema, ...refusals(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const session = await sessions.read(request);
      const appId = requestedAppId(request, session);
      // The app, the identity, its workspaces and the attempt's reservation are one statement
      // (checkPasswordSignIn); the reservation made the sign-in's audit event, the new login session
      // and the end of the previous one go out as one more (server/db/write-batch.ts,
      // bench/password-login.bench.ts).
      return withWriteBatch(db, async () => {
        const { app: target, user, memberships, reservation } = await checkPasswordSignIn(db, appId, { ...request.body, ip: request.ip });
        const { answer } = await signIn(context, sessions, reply, {
          app: target,
          user,
          memberships,
          reservation,
          previous: session,
          ip: request.ip,
          method: 'password',
        });
        return answer;
      });
    },
  );

  app.get(
    '/auth/tenantUsers',
    { schema: { ...authServiceRoute("The signed-in person's workspaces"), response: { 200: TenantUserList, ...refusals(401) } } },
    async (request) => {
      const session = await sessions.read(request);
      if (!isAuthenticated(session)) throw unauthorized('Not signed in', 'UNAUTHENTICATED');
      const memberships = await listEnabledMemberships(db, session.userId, session.appId);
      return memberships.map(tenantUserAnswer);
    },
  );

  app.get<{ Params: { tenantUserId: string } }>(
    '/auth/chooseTenantUser/:tenantUserId',
    {
      schema: {
        ...authServiceRoute('Continue in one of the workspaces (a browser navigation)'),
        params: ChooseTenantUserParams,
        response: { ...redirect, ...refusals(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const session = await sessions.read(request);
      if (!isAuthenticated(session)) throw unauthorized('Your sign-in has ended; sign in again', 'UNAUTHENTICATED');
      const { tenantUserId } = request.params;
      const membership = await findEnabledMembership(db, tenantUserId, { userId: session.userId, appId: session.appId });
      // Someone else's, disabled and non-existent memberships get the same answer.
      if (!membership) throw new HttpError(403, 'FORBIDDEN', 'This workspace is not available');
      const linkId = request.cookies[ENTERPRISE_LINK_COOKIE];
      if (linkId) {
        // An enterprise connection waits for this identity to confirm a link (server/auth/enterprise/link.ts).
        const link = await readPendingLink(db, linkId);
        if (link && isFor(link, session)) return reply.redirect(`/federated/link?${new URLSearchParams({ continue: membership.id })}`, 303);
        // Another identity signed in, or the time passed: nothing links.
        await dropPendingLink(db, linkId);
        reply.clearCookie(ENTERPRISE_LINK_COOKIE, sessions.cookieOptions());
      }

      const interaction = await pendingInteraction(session);
      if (interaction) {
        // Finished under the interaction's path, where oidc-provider's interaction cookie is sent.
        return reply.redirect(`${interactionPath(interaction.uid)}/finish/${encodeURIComponent(membership.id)}`, 303);
      }
      // No authorization request is waiting (a login opened directly, a switch while signed in). The
      // choice is kept for the app's next one, and the single sign-on session ends so that request
      // cannot answer for the workspace signed in before.
      await sessions.update(session, { chosenTenantUserId: membership.id, chosenAt: new Date() });
      await endSingleSignOn(provider, db, request, reply, session.appId);
      return reply.redirect(signInStartUrl(await requireApp(db, session.appId), config.urls.ui), 303);
    },
  );

  // "Back to login" after a mailed link: back into the authorization request this browser is signing
  // in for, else to the app's sign-in start; either way the screens then ask only what is missing.
  app.get<{ Querystring: { appId?: string } }>(
    '/auth/continue',
    {
      schema: {
        ...authServiceRoute('Back into the sign-in after a mailed link (a browser navigation)', 'none'),
        querystring: ContinueQuery,
        response: { ...redirect, ...refusals(400, 404) },
      },
    },
    async (request, reply) => {
      const session = await sessions.read(request);
      const interaction = session ? await pendingInteraction(session) : undefined;
      if (interaction) return reply.redirect(interactionPath(interaction.uid), 303);
      const appId = session?.appId ?? request.query.appId;
      if (!appId) throw new HttpError(400, 'APP_REQUIRED', 'Start signing in from the app');
      return reply.redirect(signInStartUrl(await requireApp(db, appId), config.urls.ui), 303);
    },
  );

  // 'Try a different email': the identity is forgotten, the authorization request being signed in for is kept.
  app.post(
    '/auth/restart',
    {
      schema: {
        ...authServiceRoute('Forget the identity, keep the authorization request being signed in for'),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const session = await sessions.read(request);
      if (session) await sessions.start(reply, { appId: session.appId, interactionUid: session.interactionUid }, session);
      return reply.status(204).send();
    },
  );

  // POST only: a cross-site page can make a browser GET this with its cookie, but not POST it.
  app.post(
    '/auth/logout',
    { schema: { ...authServiceRoute("End this browser's login session"), response: { 204: Type.Null() } } },
    async (request, reply) => {
      const ended = await sessions.end(request, reply);
      if (ended) await recordAudit(db, { type: 'logout', appId: ended.appId, userId: ended.userId, ip: request.ip });
      return reply.status(204).send();
    },
  );
}
