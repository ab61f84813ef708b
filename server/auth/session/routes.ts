// Session endpoints on the auth origin (SERVER-CONTRACT "Auth service", ORIGINAL-CONTRACT 2.3):
// the hosted login screens call them with the login session cookie.
import type { FastifyInstance } from 'fastify';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { recordAudit } from '../../audit/service.ts';
import { findEnabledMembership, fullNameOf, listEnabledMemberships } from '../memberships.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../passwords.ts';
import { interactionPath } from '../../oidc/provider.ts';
import { endSingleSignOn } from '../../oidc/single-sign-on.ts';
import { signInStartUrl } from '../../apps/sign-in-start.ts';
import { requireApp } from '../app-lookup.ts';
import { isAuthenticated, type LoginSession } from './service.ts';
import { findUserByEmail, normalizeUsername, passwordSignInEnabled, resolveApp, signIn } from './sign-in.ts';
import { releaseAttempt, reserveLoginAttempt } from '../../audit/limits.ts';
import type { AuthServiceOptions } from '../service-options.ts';

const username = { type: 'string', minLength: 1, maxLength: 320 } as const;

const credentialsConfigSchema = {
  body: { type: 'object', required: ['username'], properties: { username } },
} as const;

const authenticateSchema = {
  body: {
    type: 'object',
    required: ['username', 'password'],
    properties: { username, password: { type: 'string', minLength: 1, maxLength: 1024 } },
  },
} as const;

const chooseSchema = {
  params: {
    type: 'object',
    required: ['tenantUserId'],
    properties: { tenantUserId: { type: 'string', minLength: 1, maxLength: 100 } },
  },
} as const;

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
    { schema: credentialsConfigSchema },
    async (request) => {
      const session = await sessions.read(request);
      const target = await resolveApp(db, request, session);
      // The same answer for every address (known, unknown, invited without a password yet), so it
      // reveals no account; where the app switched passwords off, nobody has one to sign in with.
      return { hasPassword: passwordSignInEnabled(target), hasPasskeys: false, federationConnections: [] };
    },
  );

  app.post<{ Body: { username: string; password: string } }>(
    '/auth/authenticate',
    { schema: authenticateSchema },
    async (request, reply) => {
      const session = await sessions.read(request);
      const target = await resolveApp(db, request, session);
      if (!passwordSignInEnabled(target)) {
        throw new HttpError(403, 'PASSWORD_SIGN_IN_DISABLED', 'This app does not allow signing in with a password');
      }
      const name = normalizeUsername(request.body.username);
      const attempt = { appId: target.id, ip: request.ip, username: name };
      const user = await findUserByEmail(db, target.id, name);
      // Recorded as a failure before the password is verified (server/audit/limits.ts), taken back on success.
      const reservation = await reserveLoginAttempt(db, attempt, user?.id);
      if (reservation === null) {
        throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many failed sign-in attempts; try again later');
      }
      // Unknown users cost the same hash verification, so timing reveals no account either.
      const valid = await verifyPassword(user?.passwordHash ?? DUMMY_PASSWORD_HASH, request.body.password);
      if (!user || !user.passwordHash || !valid) throw new HttpError(401, 'WRONG_CREDENTIALS', 'Wrong credentials');
      await releaseAttempt(db, reservation);

      const { answer } = await signIn(context, sessions, reply, { app: target, user, previous: session, ip: request.ip, method: 'password' });
      return answer;
    },
  );

  app.get('/auth/tenantUsers', async (request) => {
    const session = await sessions.read(request);
    if (!isAuthenticated(session)) throw unauthorized('Not signed in', 'UNAUTHENTICATED');
    const memberships = await listEnabledMemberships(db, session.userId, session.appId);
    return memberships.map((membership) => ({
      id: membership.id,
      role: membership.role,
      email: membership.user.email,
      username: membership.user.email,
      fullName: fullNameOf(membership.user),
      onboarded: membership.onboarded,
      tenant: {
        id: membership.tenant.id,
        name: membership.tenant.name,
        locale: membership.tenant.locale,
        logo: membership.tenant.logo,
      },
    }));
  });

  app.get<{ Params: { tenantUserId: string } }>(
    '/auth/chooseTenantUser/:tenantUserId',
    { schema: chooseSchema },
    async (request, reply) => {
      const session = await sessions.read(request);
      if (!isAuthenticated(session)) throw unauthorized('Your sign-in has ended; sign in again', 'UNAUTHENTICATED');
      const { tenantUserId } = request.params;
      const membership = await findEnabledMembership(db, tenantUserId, { userId: session.userId, appId: session.appId });
      // Someone else's, disabled and non-existent memberships get the same answer.
      if (!membership) throw new HttpError(403, 'FORBIDDEN', 'This workspace is not available');

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
    { schema: { querystring: { type: 'object', properties: { appId: { type: 'string', minLength: 1, maxLength: 100 } } } } },
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
  app.post('/auth/restart', async (request, reply) => {
    const session = await sessions.read(request);
    if (session) await sessions.start(reply, { appId: session.appId, interactionUid: session.interactionUid }, session);
    return reply.status(204).send();
  });

  // POST only: a cross-site page can make a browser GET this with its cookie, but not POST it.
  app.post('/auth/logout', async (request, reply) => {
    const ended = await sessions.end(request, reply);
    if (ended) await recordAudit(db, { type: 'logout', appId: ended.appId, userId: ended.userId, ip: request.ip });
    return reply.status(204).send();
  });
}
