// The legacy auth mode's REST calls on the API host (docs/SPEC.md section 7 "Legacy mode",
// docs/ORIGINAL-CONTRACT.md 2.3 "Legacy auth-proxy REST"), for apps that switched it on (AppConfig.authLegacy).
// Each call reuses the auth service's own steps — password check and attempt limits, two-factor,
// reset links, audit — with a legacy token (server/auth/legacy-tokens.ts) where the OAuth mode has the
// login session cookie. Calls about a workspace resolve the caller where GraphQL does
// (server/auth/callers.ts), so the headers prove the same things there and here.
import type { FastifyInstance, FastifyRequest } from 'fastify';
// The error class alone, as server/graphql/errors.ts imports it.
import { GraphQLError } from 'graphql/error/GraphQLError.js';
import type { FoyerContext } from '../context.ts';
import { HttpError, unauthorized } from '../http/errors.ts';
import { recordAudit } from '../audit/service.ts';
import { requireApp, type App } from '../apps/lookup.ts';
import type { DeferredWork } from '../auth/deferred.ts';
import { findEnabledMembership, listEnabledMemberships, tenantUserAnswer } from '../auth/memberships.ts';
import { secondFactorRoutes } from '../auth/mfa/routes.ts';
import { findPasswordLink } from '../auth/password/service.ts';
import { describePasswordLink, refusePassword, requestResetLink, setPasswordSchema, usePasswordLink } from '../auth/password/routes.ts';
import { authenticateSchema } from '../auth/session/routes.ts';
import {
  checkPasswordSignIn,
  firstFactorOutcome,
  firstFactorPassed,
  usernameBodySchema,
  type SignInMethod,
  type SignInMembership,
  type SignInUser,
} from '../auth/sign-in.ts';
import { resolveCaller } from '../auth/callers.ts';
import type { Caller, MemberCaller } from '../auth/caller-kinds.ts';
import { updateMe } from '../graphql/users/service.ts';
import type { AccessTokenVerifier } from '../auth/access-tokens.ts';
import {
  issueLegacyToken,
  legacyCaller,
  legacyModeEnabled,
  passSecondFactor,
  readLegacyToken,
  revokeLegacyToken,
  type HeldToken,
} from '../auth/legacy-tokens.ts';
import { Type } from 'typebox';
import { authProxyRoute } from '../http/openapi.ts';
import { refusals } from '../../common/api/errors.ts';
import {
  CurrentUserSchema,
  Empty,
  LegacyAuthenticated,
  LegacySignInSchema,
  LegacyUserBody,
  PasswordTokenSchema,
  TenantUserList,
  TenantUserSchema,
  TokenParams,
} from '../../common/api/auth.ts';

export interface AuthProxyOptions {
  context: FoyerContext;
  verifier: AccessTokenVerifier;
  deferred: DeferredWork;
}

const legacyOff = () => new HttpError(403, 'LEGACY_AUTH_DISABLED', 'This app does not use the legacy auth mode');
const signInFirst = () => unauthorized('Sign in first', 'UNAUTHENTICATED');

/** A fetch Headers of the request's, as resolveCaller reads them. */
function headersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  return headers;
}

/** The app x-app-id names, which must use the legacy mode. */
async function legacyApp(context: FoyerContext, request: FastifyRequest): Promise<App> {
  const header = request.headers['x-app-id'];
  if (typeof header !== 'string' || header === '') throw new HttpError(400, 'APP_REQUIRED', 'Name the app in the x-app-id header');
  const app = await requireApp(context.db, header);
  if (!legacyModeEnabled(app)) throw legacyOff();
  return app;
}

/** The live token of x-auth-token, of an app in legacy mode and the app x-app-id names (when it names one). */
async function heldToken(context: FoyerContext, request: FastifyRequest): Promise<HeldToken | undefined> {
  const header = request.headers['x-auth-token'];
  const held = await readLegacyToken(context.db, typeof header === 'string' ? header : undefined);
  if (!held) return undefined;
  const appId = request.headers['x-app-id'];
  if (typeof appId === 'string' && appId !== '' && appId !== held.token.appId) return undefined;
  const app = await requireApp(context.db, held.token.appId);
  return legacyModeEnabled(app) ? held : undefined;
}

/** A workspace member by the request's headers (legacy or bearer), as GraphQL would see them. */
function requireMember(caller: Caller): MemberCaller {
  if (caller.kind === 'member') return caller;
  if (caller.kind === 'rejected' && caller.membershipEnded)
    throw unauthorized('Your membership of this workspace has ended', 'MEMBERSHIP_ENDED');
  throw signInFirst();
}

/** updateMe reports bad input as GraphQL errors; REST callers get the same code and status. */
function restError(error: unknown): unknown {
  if (!(error instanceof GraphQLError)) return error;
  const { code, response } = error.extensions as { code?: string; response?: { statusCode?: number } };
  return new HttpError(response?.statusCode ?? 400, code ?? 'BAD_REQUEST', error.message);
}

/** Under /auth-proxy (server/auth-proxy/plugin.ts). */
export async function authProxyRoutes(app: FastifyInstance, { context, verifier, deferred }: AuthProxyOptions) {
  const { db } = context;

  /** Opens a legacy sign-in once the first factor passed: answers the token, as authenticate does. */
  async function signInLegacy(
    target: App,
    user: SignInUser,
    ip: string,
    method: SignInMethod,
    password?: { memberships: SignInMembership[]; reservation: number },
  ) {
    const { memberships, mfaState } = await firstFactorOutcome(db, target, user, password?.memberships);
    const { token, session } = await issueLegacyToken(context, { app: target, user, authenticated: mfaState === 'DISABLED' });
    const answer = await firstFactorPassed(context, {
      app: target,
      user,
      session,
      memberships,
      mfaState,
      ip,
      method,
      ...(password ? { reservation: password.reservation } : {}),
    });
    return { token, mfaState: answer.mfaState, ...(answer.tenantUserId ? { tenantUserId: answer.tenantUserId } : {}) };
  }

  app.post<{ Body: { username: string; password: string } }>(
    '/authenticate',
    {
      schema: {
        ...authProxyRoute('Sign in with e-mail and password (x-app-id names the app)', 'none'),
        ...authenticateSchema,
        response: { 200: LegacySignInSchema, ...refusals(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const target = await legacyApp(context, request);
      const { user, memberships, reservation } = await checkPasswordSignIn(db, target.id, { ...request.body, ip: request.ip });
      return signInLegacy(target, user, request.ip, 'password', { memberships, reservation });
    },
  );

  app.get(
    '/authenticated',
    { schema: { ...authProxyRoute('Whether the headers sign a member in'), response: { 200: LegacyAuthenticated } } },
    async (request) => ({ authenticated: (await legacyCaller(db, headersOf(request))).kind === 'member' }),
  );

  app.get(
    '/deauthenticate',
    { schema: { ...authProxyRoute('Sign out: the token stops working'), response: { 204: Type.Null() } } },
    async (request, reply) => {
      const held = await heldToken(context, request);
      if (held) {
        await revokeLegacyToken(db, held);
        await recordAudit(db, { type: 'logout', appId: held.token.appId, userId: held.token.userId, ip: request.ip });
      }
      return reply.status(204).send();
    },
  );

  app.get(
    '/tenantUsers',
    { schema: { ...authProxyRoute("The signed-in person's workspaces"), response: { 200: TenantUserList, ...refusals(401) } } },
    async (request) => {
      const held = await heldToken(context, request);
      if (!held?.signedIn) throw signInFirst();
      const memberships = await listEnabledMemberships(db, held.token.userId, held.token.appId);
      return memberships.map(tenantUserAnswer);
    },
  );

  app.put<{ Body: { firstName?: string; lastName?: string; consentsToPrivacyPolicy?: boolean } }>(
    '/user',
    {
      schema: {
        ...authProxyRoute("Change the signed-in member's own names and consent"),
        body: LegacyUserBody,
        response: { 200: TenantUserSchema, ...refusals(400, 401, 403) },
      },
    },
    async (request) => {
      const caller = await resolveCaller(db, verifier, headersOf(request));
      const member = requireMember(caller);
      try {
        await updateMe({ ...context, caller, clientIp: request.ip, log: request.log }, member, request.body);
      } catch (error) {
        throw restError(error);
      }
      const membership = await findEnabledMembership(db, member.tenantUserId, { userId: member.userId, appId: member.app.id });
      if (!membership) throw signInFirst();
      return tenantUserAnswer(membership);
    },
  );

  app.post<{ Body: { username: string } }>(
    '/password',
    {
      schema: {
        ...authProxyRoute('Mail a password reset link (x-app-id names the app)', 'none'),
        ...usernameBodySchema,
        response: { 200: Empty, ...refusals(400, 403, 404, 429) },
      },
    },
    async (request) => {
      await requestResetLink(context, deferred, await legacyApp(context, request), request.body.username, request.ip);
      return {};
    },
  );

  app.get<{ Params: { token: string } }>(
    '/password/:token',
    {
      schema: {
        ...authProxyRoute('What a mailed set-password link stands for', 'none'),
        params: TokenParams,
        response: { 200: PasswordTokenSchema, ...refusals(400, 403) },
      },
    },
    (request) => describePasswordLink(db, request.params.token),
  );

  // Signs in afterwards like authenticate, as PUT /auth/password does in the OAuth mode.
  app.put<{ Body: { token: string; password?: string } }>(
    '/password',
    {
      schema: {
        ...authProxyRoute('Use a mailed link: set (or confirm) the password, which signs in', 'none'),
        ...setPasswordSchema,
        response: { 200: LegacySignInSchema, ...refusals(400, 403) },
      },
    },
    async (request, reply) => {
      // Refused before the link is used, so it still works where it belongs.
      const link = await findPasswordLink(db, request.body.token);
      if (link && !legacyModeEnabled(await requireApp(db, link.token.appId))) throw legacyOff();
      const used = await usePasswordLink(db, request.body, request.ip);
      if ('problems' in used) return refusePassword(reply, used.problems);
      return signInLegacy(used.app, used.user, request.ip, used.purpose);
    },
  );

  await secondFactorRoutes(app, context, '', {
    documented: authProxyRoute(''),
    async session(request) {
      return (await heldToken(context, request))?.session;
    },
    async passed(_reply, session) {
      return { mfaToken: await passSecondFactor(db, session) };
    },
  });
}

/**
 * GET /auth/currentUser: the workspace membership the headers prove, as the picker lists it, with
 * the role's privileges (what an access token's scope tells the OAuth mode's runtime).
 */
export async function currentUserRoute(app: FastifyInstance, { context, verifier }: AuthProxyOptions) {
  const { db } = context;
  app.get(
    '/currentUser',
    {
      schema: {
        ...authProxyRoute("The signed-in member and the role's privileges (x-auth-token, or a bearer access token)"),
        response: { 200: CurrentUserSchema, ...refusals(401) },
      },
    },
    async (request) => {
      const member = requireMember(await resolveCaller(db, verifier, headersOf(request)));
      const membership = await findEnabledMembership(db, member.tenantUserId, { userId: member.userId, appId: member.app.id });
      if (!membership) throw signInFirst();
      return { ...tenantUserAnswer(membership), privileges: [...member.privileges] };
    },
  );
}
