// Session endpoints on the auth origin (SERVER-CONTRACT "Auth service", ORIGINAL-CONTRACT 2.3):
// the hosted login screens call them with the login session cookie.
import type { FastifyInstance } from 'fastify';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { recordAudit } from '../../audit/service.ts';
import { findEnabledMembership, fullNameOf, listEnabledMemberships } from '../memberships.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../passwords.ts';
import { interactionPath } from '../../oidc/provider.ts';
import { isAuthenticated } from './service.ts';
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
      if (!isAuthenticated(session)) throw unauthorized('Not signed in', 'UNAUTHENTICATED');
      const { tenantUserId } = request.params;
      const membership = await findEnabledMembership(db, tenantUserId, { userId: session.userId, appId: session.appId });
      // Someone else's, disabled and non-existent memberships get the same answer.
      if (!membership) throw new HttpError(403, 'FORBIDDEN', 'This workspace is not available');

      const uid = session.interactionUid;
      const interaction = uid ? await provider.Interaction.find(uid) : undefined;
      if (uid && interaction && interaction.params.client_id === session.appId) {
        // Finished under the interaction's path, where oidc-provider's interaction cookie is sent.
        return reply.redirect(`${interactionPath(uid)}/finish/${encodeURIComponent(membership.id)}`, 303);
      }
      // A code is only useful to the client holding the PKCE verifier, so the server cannot finish an
      // authorization on the app's behalf: the app's start page begins a new one, which finds this
      // session signed in and goes straight to the workspace picker.
      return reply.redirect(`${config.urls.ui}/`, 303);
    },
  );

  app.get('/auth/logout', async (request, reply) => {
    const ended = await sessions.end(request, reply);
    if (ended) await recordAudit(db, { type: 'logout', appId: ended.appId, userId: ended.userId, ip: request.ip });
    return reply.status(204).send();
  });
}
