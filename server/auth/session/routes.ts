// Session endpoints on the auth origin (SERVER-CONTRACT "Auth service", ORIGINAL-CONTRACT 2.3):
// the hosted login screens call them with the login session cookie.
import { sql, and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { FoyerContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { recordAudit } from '../../audit/service.ts';
import { requireApp, type App } from '../app-lookup.ts';
import { findEnabledMembership, fullNameOf, listEnabledMemberships } from '../memberships.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../passwords.ts';
import { interactionPath } from '../../oidc/provider.ts';
import { isAuthenticated, LOGIN_SESSION_TTL_SECONDS, type LoginSession, type LoginSessions } from './service.ts';
import { isLoginThrottled } from './throttle.ts';

export interface SessionRoutesOptions {
  context: FoyerContext;
  provider: Provider;
  sessions: LoginSessions;
}

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

const normalizeUsername = (value: string) => value.trim().toLowerCase();

export async function sessionRoutes(app: FastifyInstance, { context, provider, sessions }: SessionRoutesOptions) {
  const { db, config } = context;

  /**
   * The app being signed in to: the pending authorization's app, else the x-app-id header (a login
   * screen opened without an authorization request), else the session's app.
   */
  async function resolveApp(request: FastifyRequest, session: LoginSession | undefined): Promise<App> {
    if (session?.interactionUid) return requireApp(db, session.appId);
    const header = request.headers['x-app-id'];
    if (typeof header === 'string' && header !== '') return requireApp(db, header);
    if (session) return requireApp(db, session.appId);
    throw new HttpError(400, 'APP_REQUIRED', 'Start signing in from the app, or name the app in the x-app-id header');
  }

  async function findUser(appId: string, name: string) {
    const [user] = await db
      .select()
      .from(users)
      .where(and(eq(users.appId, appId), sql`lower(${users.email}) = ${name}`))
      .limit(1);
    return user;
  }

  app.post<{ Body: { username: string } }>(
    '/auth/credentialsConfig',
    { schema: credentialsConfigSchema },
    async (request) => {
      const session = await sessions.read(request);
      const target = await resolveApp(request, session);
      const user = await findUser(target.id, normalizeUsername(request.body.username));
      // Unknown e-mails get the answer of a user with a password, so the answer reveals no account.
      return { hasPassword: user ? user.passwordHash !== null : true, hasPasskeys: false, federationConnections: [] };
    },
  );

  app.post<{ Body: { username: string; password: string } }>(
    '/auth/authenticate',
    { schema: authenticateSchema },
    async (request, reply) => {
      const session = await sessions.read(request);
      const target = await resolveApp(request, session);
      const name = normalizeUsername(request.body.username);
      const attempt = { appId: target.id, ip: request.ip, username: name };
      if (await isLoginThrottled(db, attempt)) {
        throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many failed sign-in attempts; try again later');
      }

      const user = await findUser(target.id, name);
      // Unknown users cost the same hash verification, so timing reveals no account either.
      const valid = await verifyPassword(user?.passwordHash ?? DUMMY_PASSWORD_HASH, request.body.password);
      if (!user || !user.passwordHash || !valid) {
        await recordAudit(db, { type: 'login.failure', appId: target.id, userId: user?.id, ip: request.ip, detail: { username: name } });
        throw new HttpError(401, 'WRONG_CREDENTIALS', 'Wrong credentials');
      }

      const memberships = await listEnabledMemberships(db, user.id, target.id);
      // Two-factor setup arrives with its own issue; until then such a sign-in cannot reach a workspace.
      const mfaState =
        target.settings.mfaEnabled && memberships.some((membership) => membership.tenant.mfa) ? 'SETUP' : 'DISABLED';
      await sessions.start(
        reply,
        {
          appId: target.id,
          userId: user.id,
          authenticated: mfaState === 'DISABLED',
          interactionUid: session?.appId === target.id ? session.interactionUid : null,
        },
        session,
      );
      await recordAudit(db, { type: 'login.success', appId: target.id, userId: user.id, ip: request.ip, detail: { username: name } });
      return {
        session: true,
        expiresIn: LOGIN_SESSION_TTL_SECONDS,
        mfaState,
        ...(memberships.length === 1 ? { tenantUserId: memberships[0]!.id } : {}),
      };
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
      // A code is only useful to the client holding the PKCE verifier, so the server cannot start an
      // authorization on its behalf: the app has to start signing in again.
      return reply.redirect(`${config.urls.ui}/auth/login?error=no_authorization_request`, 303);
    },
  );

  app.get('/auth/logout', async (request, reply) => {
    const ended = await sessions.end(request, reply);
    if (ended) await recordAudit(db, { type: 'logout', appId: ended.appId, userId: ended.userId, ip: request.ip });
    return reply.status(204).send();
  });
}
