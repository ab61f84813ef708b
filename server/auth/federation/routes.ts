// Social sign-in on the auth origin (SPEC.md section 7): GET /federated/{type}/login and /signup,
// where the social buttons lead, send the browser to the provider (server/auth/federation/providers.ts);
// the provider sends it back to /federated/{type}/callback (GET, or a form post that is turned into
// the GET, where the login-session cookie, SameSite=Lax, travels), which signs the person in like a
// password would and continues to the same next step. A signup on an e-mail the provider did not
// verify waits for the mailed link, GET /federated/confirm/{token}, opened in the same browser.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { federationTypes, socialProviderFlags, socialProviderOf, type FederationType } from '../../../common/app-config.ts';
import { requireApp, type App } from '../../apps/lookup.ts';
import type { LoginSession } from '../login-session.ts';
import { signIn } from '../sign-in.ts';
import { MAILED_LINK_LIMITS, recordWithinLimits } from '../../audit/limits.ts';
import { nextStepAfterSignIn } from '../magic-link/service.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { federationCallbackUrl } from '../../dev-idp/server.ts';
import { TokenParams } from '../../../common/api/auth.ts';
import { upstreamFor, type FederatedProfile } from './providers.ts';
import { appleUserName } from './apple.ts';
import {
  countFederationStart,
  FEDERATION_STATE_TTL_SECONDS,
  finishFederatedSignup,
  finishFederation,
  holdFederatedSignup,
  resolveFederatedUser,
  startFederation,
  stateInvalid,
  takeFederationState,
  type FederationIntent,
} from './service.ts';

/** Carries the started sign-in's state in this browser, so a callback opened elsewhere is refused. */
export const FEDERATION_COOKIE = 'foyer_federation';
const COOKIE_PATH = '/federated';

const typeParams = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', minLength: 1, maxLength: 50 } },
} as const;

const startSchema = {
  params: typeParams,
  querystring: { type: 'object', properties: { appId: { type: 'string', minLength: 1, maxLength: 100 } } },
} as const;

// `user`: Apple's first-authorization name (./apple.ts), posted beside the code.
const callbackFields = ['code', 'state', 'error', 'iss', 'user'] as const;
const callbackSchema = {
  params: typeParams,
  querystring: {
    type: 'object',
    properties: Object.fromEntries(callbackFields.map((field) => [field, { type: 'string', maxLength: 4096 }])),
  },
} as const;

interface StartRequest {
  Params: { type: string };
  Querystring: { appId?: string };
}

interface CallbackRequest {
  Params: { type: string };
  Querystring: Partial<Record<(typeof callbackFields)[number], string>>;
  Body: unknown;
}

function isFederationType(name: string): name is FederationType {
  return (federationTypes as readonly string[]).includes(name);
}

function requireType(name: string): FederationType {
  if (!isFederationType(name)) throw new HttpError(400, 'UNKNOWN_PROVIDER', `There is no sign-in provider named ${name}`);
  return name;
}

/** Switched on in the app's config, and the app signs in through the auth service (not legacy mode). */
export function federationEnabled(app: App, type: FederationType): boolean {
  return app.settings.authLegacy !== true && app.settings[socialProviderFlags[socialProviderOf(type)!]] === true;
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

function withAppleName(profile: FederatedProfile, user: string | undefined): FederatedProfile {
  const name = appleUserName(user);
  return { ...profile, firstName: profile.firstName ?? name.firstName, lastName: profile.lastName ?? name.lastName };
}

export async function federationRoutes(app: FastifyInstance, { context, sessions, deferred }: AuthServiceOptions) {
  const { config, db } = context;
  const hosted = (path: string, query: Record<string, string>) => `${config.urls.ui}${path}?${new URLSearchParams(query).toString()}`;
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, path: COOKIE_PATH, secure: config.urls.auth.startsWith('https:') };

  // Apple answers with a form post (response_mode=form_post).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const start = (intent: FederationIntent) => async (request: FastifyRequest<StartRequest>, reply: FastifyReply) => {
    const type = requireType(request.params.type);
    const target = await appOf(context, await sessions.read(request), request.query.appId);
    const upstream = federationEnabled(target, type) ? await upstreamFor(context, target, type) : undefined;
    if (!upstream) {
      // Switched off and not configured read alike: the answer does not tell which providers an app has.
      request.log.info({ type, appId: target.id }, 'federated sign-in requested for a provider the app cannot use');
      return reply.redirect(hosted('/auth/login', { appId: target.id, error: 'federation', errorDetails: 'unavailable' }), 303);
    }
    await countFederationStart(db, target.id, request.ip);
    const { url, state } = await startFederation(db, target, upstream, intent);
    reply.setCookie(FEDERATION_COOKIE, state, { ...cookieOptions, maxAge: FEDERATION_STATE_TTL_SECONDS });
    return reply.redirect(url, 303);
  };

  app.get<StartRequest>('/federated/:type/login', { schema: startSchema }, start('login'));
  app.get<StartRequest>('/federated/:type/signup', { schema: startSchema }, start('signup'));

  // A form post comes from the provider's site, so the Lax cookies stay home; the same fields as a
  // GET (a top-level navigation, which carries them) are read by the handler below.
  app.post<CallbackRequest>('/federated/:type/callback', { schema: { params: typeParams } }, async (request, reply) => {
    const type = requireType(request.params.type);
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
    const query = new URLSearchParams();
    for (const field of callbackFields) {
      if (typeof body[field] === 'string') query.set(field, body[field]);
    }
    return reply.redirect(`${federationCallbackUrl(config.urls.auth, type)}?${query.toString()}`, 303);
  });

  app.get<CallbackRequest>('/federated/:type/callback', { schema: callbackSchema }, async (request, reply) => {
    const type = requireType(request.params.type);
    const { state } = request.query;
    const carried = request.cookies[FEDERATION_COOKIE];
    reply.clearCookie(FEDERATION_COOKIE, cookieOptions);
    if (!state || !carried || carried !== state) throw stateInvalid();
    const started = await takeFederationState(db, type, state);
    const target = await requireApp(db, started.appId);
    if (request.query.error || !request.query.code) {
      // Cancelled (or refused) at the provider: back to the app's login, nothing signed in.
      return reply.redirect(hosted('/auth/login', { appId: target.id }), 303);
    }
    if (!federationEnabled(target, type)) {
      return reply.redirect(hosted('/auth/login', { appId: target.id, error: 'federation', errorDetails: 'unavailable' }), 303);
    }
    const callbackUrl = new URL(federationCallbackUrl(config.urls.auth, type));
    for (const field of callbackFields) {
      const value = request.query[field];
      if (value !== undefined && field !== 'user') callbackUrl.searchParams.set(field, value);
    }
    const { profile: verifiedProfile } = await finishFederation(context, target, started, callbackUrl).catch((error: unknown) => {
      request.log.warn({ err: (error as { cause?: unknown }).cause ?? error, type, appId: target.id }, 'federated sign-in refused');
      throw error;
    });
    // Apple names the person only in the form post; the ID token's identity and e-mail stay the sole proof.
    const profile = type === 'apple' ? withAppleName(verifiedProfile, request.query.user) : verifiedProfile;
    const outcome = await resolveFederatedUser(context, {
      app: target,
      type,
      intent: started.intent as FederationIntent,
      profile,
      ip: request.ip,
    });
    if (outcome.kind === 'missing') {
      return reply.redirect(
        target.settings.tenantSelfSignup
          ? hosted('/auth/signup', { appId: target.id, error: 'missing_user', federation: type })
          : hosted('/auth/login', { appId: target.id, error: 'true' }),
        303,
      );
    }
    if (outcome.kind === 'pending') {
      const { profile: held } = outcome;
      const attempt = { appId: target.id, ip: request.ip, username: held.email };
      if (!(await recordWithinLimits(db, 'federation.signup_link_requested', attempt, MAILED_LINK_LIMITS))) {
        throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many sign-up links asked for; try again later');
      }
      // The link works only in this browser: it names this login session (a new one when there is none).
      const current = await sessions.read(request);
      const session = current?.appId === target.id ? current : await sessions.start(reply, { appId: target.id }, current);
      deferred.enqueue('federated signup link', () =>
        holdFederatedSignup(context, { app: target, type, profile: held, loginSessionHash: session.idHash }),
      );
      return reply.redirect(hosted('/auth/signup', { appId: target.id, federation: type, sent: held.email }), 303);
    }
    if (outcome.kind === 'unverified') {
      return reply.redirect(
        hosted('/auth/login', { appId: target.id, error: 'federation', errorDetails: 'unverifiedEmail', federation: type }),
        303,
      );
    }
    const { answer } = await signIn(context, sessions, reply, {
      app: target,
      user: outcome.user,
      previous: await sessions.read(request),
      ip: request.ip,
      method: 'federation',
    });
    return reply.redirect(nextStepAfterSignIn(config, answer), 303);
  });

  app.get<{ Params: { token: string } }>('/federated/confirm/:token', { schema: { params: TokenParams } }, async (request, reply) => {
    const session = await sessions.read(request);
    const finished = session
      ? await finishFederatedSignup(context, { token: request.params.token, session, ip: request.ip, allowed: federationEnabled })
      : { kind: 'invalid' as const };
    if (finished.kind === 'invalid') {
      // Expired, used, unknown, or opened in another browser: one answer for all.
      return reply.redirect(`${config.urls.ui}/auth/login?error=federation&errorDetails=signupLinkExpired`, 303);
    }
    if (finished.kind === 'taken') {
      return reply.redirect(hosted('/auth/login', { appId: finished.app.id, error: 'federation', errorDetails: 'emailTaken' }), 303);
    }
    const { answer } = await signIn(context, sessions, reply, {
      app: finished.app,
      user: finished.user,
      previous: session,
      ip: request.ip,
      method: 'federation',
    });
    return reply.redirect(nextStepAfterSignIn(config, answer), 303);
  });
}
