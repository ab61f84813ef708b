// The original product's shorthand URLs (docs/ORIGINAL-CONTRACT.md 2.4) on top of the standard endpoints:
// /url/login|signup/{appId} build an /authorize request, /url/logout/{appId} one to /session/end,
// /token/code|refresh/{appId} are JSON front doors to /token, /handover/code/{appId} mints a one-time code.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { HttpError } from '../../http/errors.ts';
import { requireApp, type App } from '../../apps/lookup.ts';
import { appOfApiKey } from '../../apps/api-keys.ts';
import { openClientSecret } from '../../apps/client-secret.ts';
import { AccessTokenVerifier } from '../access-tokens.ts';
import { issueHandoverCode } from './handover.ts';
import { DEFAULT_SCOPE } from './claims.ts';
import { callTokenEndpoint, tokenError } from './token-endpoint.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { Type } from 'typebox';
import { authServiceRoute } from '../../http/openapi.ts';
import { refusals } from '../../../common/api/errors.ts';
import {
  CodeExchangeBody,
  HandoverCodeBody,
  HandoverCodeSchema,
  RefreshBody,
  TokenAnswerSchema,
  type CodeExchange,
  type HandoverCodeRequest,
  type Refresh,
} from '../../../common/api/auth.ts';

const redirect = { 303: Type.Null({ description: 'To the standard endpoint' }) };

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const appParams = { type: 'object', required: ['appId'], properties: { appId: text(100) } } as const;

const authorizeQuery = {
  type: 'object',
  properties: {
    redirectUri: text(2048),
    state: text(2048),
    forceFederation: text(100),
    code_challenge: text(128),
    code_challenge_method: { type: 'string', enum: ['S256'] },
  },
} as const;

const logoutQuery = {
  type: 'object',
  properties: { redirectUri: text(2048), state: text(2048), idTokenHint: text(8192) },
} as const;

interface LogoutQuery {
  redirectUri?: string;
  state?: string;
  idTokenHint?: string;
}

interface AuthorizeQuery {
  redirectUri?: string;
  state?: string;
  forceFederation?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

const invalidRedirect = () => new HttpError(400, 'INVALID_REDIRECT_URI', 'The redirect URI is not registered for this app');

// Token endpoints authenticate by code verifier or refresh token, never by cookie: any origin may call.
const openCors = { cors: { origin: '*', credentials: false } };

export async function shorthandRoutes(app: FastifyInstance, { context, provider }: AuthServiceOptions) {
  const { db, config } = context;
  const verifier = new AccessTokenVerifier(db, config.urls.auth);

  /**
   * How a shorthand caller authenticates a confidential app: HTTP Basic with its client secret, or the
   * app's API key (the original product's back-end client sends only that), for which Foyer presents
   * the app's secret itself.
   */
  async function clientAuthorization(request: FastifyRequest, target: App): Promise<string | undefined> {
    const { authorization } = request.headers;
    if (authorization?.startsWith('Basic ')) return authorization;
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey !== 'string' || !target.clientSecretSealed || (await appOfApiKey(db, apiKey)) !== target.id) return undefined;
    const secret = openClientSecret(config.secret, target.id, target.clientSecretSealed);
    return `Basic ${Buffer.from(`${encodeURIComponent(target.id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  }

  function authorizeShorthand(signup: boolean) {
    return async (request: { params: { appId: string }; query: AuthorizeQuery }, reply: import('fastify').FastifyReply) => {
      const target = await requireApp(db, request.params.appId);
      const redirectUri = request.query.redirectUri ?? target.defaultCallbackUri;
      if (!target.redirectUris.includes(redirectUri)) throw invalidRedirect();
      const query = new URLSearchParams({
        client_id: target.id,
        response_type: 'code',
        scope: DEFAULT_SCOPE,
        redirect_uri: redirectUri,
      });
      const { state, forceFederation, code_challenge, code_challenge_method } = request.query;
      if (state) query.set('state', state);
      if (forceFederation) query.set('force_federation', forceFederation);
      if (code_challenge) query.set('code_challenge', code_challenge);
      if (code_challenge_method) query.set('code_challenge_method', code_challenge_method);
      if (signup) query.set('signup', 'true');
      return reply.redirect(`${config.urls.auth}/authorize?${query.toString()}`, 303);
    };
  }

  const authorizeSchema = { params: appParams, querystring: authorizeQuery };
  app.get<{ Params: { appId: string }; Querystring: AuthorizeQuery }>(
    '/url/login/:appId',
    {
      schema: {
        ...authServiceRoute("The app's sign-in address (a browser navigation to /authorize)", 'none'),
        ...authorizeSchema,
        response: redirect,
      },
    },
    authorizeShorthand(false),
  );
  app.get<{ Params: { appId: string }; Querystring: AuthorizeQuery }>(
    '/url/signup/:appId',
    {
      schema: {
        ...authServiceRoute("The app's signup address (a browser navigation to /authorize)", 'none'),
        ...authorizeSchema,
        response: redirect,
      },
    },
    authorizeShorthand(true),
  );

  // The original product's logout URL, now a front door to the standard end-session endpoint: a GET
  // anyone can trigger signs nobody out by itself. With the ID token of the signed-in person
  // (idTokenHint) it completes at once; otherwise the hosted sign-out screen asks first.
  app.get<{ Params: { appId: string }; Querystring: LogoutQuery }>(
    '/url/logout/:appId',
    {
      schema: {
        ...authServiceRoute("The app's sign-out address (a browser navigation to /session/end)", 'none'),
        params: appParams,
        querystring: logoutQuery,
        response: redirect,
      },
    },
    async (request, reply) => {
      const target = await requireApp(db, request.params.appId);
      const { redirectUri, state, idTokenHint } = request.query;
      if (redirectUri !== undefined && !target.postLogoutRedirectUris.includes(redirectUri)) throw invalidRedirect();
      const query = new URLSearchParams({ client_id: target.id });
      if (redirectUri) query.set('post_logout_redirect_uri', redirectUri);
      if (state) query.set('state', state);
      if (idTokenHint) query.set('id_token_hint', idTokenHint);
      return reply.redirect(`${config.urls.auth}/session/end?${query.toString()}`, 303);
    },
  );

  app.post<{ Params: { appId: string }; Body: CodeExchange }>(
    '/token/code/:appId',
    {
      config: openCors,
      schema: {
        ...authServiceRoute("Exchange an authorization code for tokens (the app's secret, API key or PKCE proves it)", 'none'),
        response: { 200: TokenAnswerSchema, ...refusals(400, 401, 404) },
        params: appParams,
        body: CodeExchangeBody,
      },
    },
    async (request, reply) => {
      const target = await requireApp(db, request.params.appId);
      const answer = await callTokenEndpoint(
        app,
        {
          grant_type: 'authorization_code',
          client_id: target.id,
          code: request.body.code,
          redirect_uri: request.body.redirectUri ?? target.defaultCallbackUri,
          ...(request.body.codeVerifier ? { code_verifier: request.body.codeVerifier } : {}),
        },
        request.ip,
        { authorization: await clientAuthorization(request, target) },
      );
      if (answer.statusCode !== 200) throw tokenError(answer);
      const idToken = answer.body.id_token;
      const profile = typeof idToken === 'string' ? decodeJwt(idToken) : undefined;
      return reply.headers(answer.headers).send({ ...answer.body, ...(profile ? { user_profile: profile } : {}) });
    },
  );

  app.post<{ Params: { appId: string }; Body: Refresh }>(
    '/token/refresh/:appId',
    {
      config: openCors,
      schema: {
        ...authServiceRoute('Refresh tokens', 'none'),
        response: { 200: TokenAnswerSchema, ...refusals(400, 401, 404) },
        params: appParams,
        body: RefreshBody,
      },
    },
    async (request, reply) => {
      const target = await requireApp(db, request.params.appId);
      const answer = await callTokenEndpoint(
        app,
        { grant_type: 'refresh_token', client_id: target.id, refresh_token: request.body.refreshToken },
        request.ip,
        { authorization: await clientAuthorization(request, target) },
      );
      if (answer.statusCode !== 200) throw tokenError(answer);
      return reply.headers(answer.headers).send(answer.body);
    },
  );

  app.post<{ Params: { appId: string }; Body: HandoverCodeRequest }>(
    '/handover/code/:appId',
    {
      schema: {
        ...authServiceRoute(
          "A one-time code of a member, for the hosted screens (the app's x-api-key; a public app's code needs a PKCE challenge)",
          'none',
        ),
        security: [{ apiKey: [] }],
        response: { 200: HandoverCodeSchema, ...refusals(400, 401, 404) },
        params: appParams,
        body: HandoverCodeBody,
      },
    },
    async (request, reply) => {
      const target = await requireApp(db, request.params.appId);
      const apiKey = request.headers['x-api-key'];
      if (typeof apiKey !== 'string' || (await appOfApiKey(db, apiKey)) !== target.id) {
        throw new HttpError(401, 'UNAUTHENTICATED', "The app's API key is required");
      }
      const { accessToken, codeChallenge } = request.body;
      return reply.send({ code: await issueHandoverCode({ db, provider, verifier }, target, accessToken, codeChallenge) });
    },
  );

  // Preflights for the JSON token shorthands; @fastify/cors answers them from the route's settings.
  for (const url of ['/token/code/:appId', '/token/refresh/:appId']) {
    app.options(url, { config: openCors }, async (_request, reply) => reply.status(204).send());
  }
}
