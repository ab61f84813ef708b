// Enterprise sign-in on the auth origin: GET /federated/{oidc|saml}/login/{id}, where the login
// screen's FEDERATION-CONNECTIONS step leads, sends the browser to the workspace's IdP with a state
// kept like social sign-in's (server/auth/federation/service.ts: hashed, single use, ten minutes, and
// in a cookie, so a callback opened in another browser is refused). The OpenID Provider comes back to
// /federated/oidc/callback; the SAML IdP posts to /federated/saml/acs/{id}, which checks the response
// and hands it, under the same state, to the GET /federated/saml/callback the browser is sent on to
// (a cross-site form post carries no SameSite=Lax cookie). Both then sign the person in, joining the
// workspace just in time, and continue the login like a password would; or, for an identity that is
// not the connection's alone, send the browser to the login and, once that identity signed in,
// ask it to confirm the link (GET and POST /federated/link, link.ts).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { federationStates, tenants, users } from '../../db/schema.ts';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { requireApp } from '../../apps/lookup.ts';
import { signIn } from '../sign-in.ts';
import { isAuthenticated } from '../login-session.ts';
import { nextStepAfterSignIn } from '../magic-link/service.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { FEDERATION_COOKIE } from '../federation/routes.ts';
import { countFederationStart, FEDERATION_STATE_TTL_SECONDS, federationFailed, stateInvalid } from '../federation/service.ts';
import { connectionById, type EnterpriseConnection } from './connections.ts';
import { finishOidc, oidcLoginUrl } from './oidc.ts';
import { checkSamlResponse, samlClient, samlLoginUrl } from './saml.ts';
import { resolveEnterpriseUser, type EnterpriseProfile } from './profile.ts';
import { confirmDomainProof, findDomainProof } from './domains.ts';
import {
  ENTERPRISE_LINK_COOKIE,
  LINK_PAGE_CSP,
  confirmLink,
  dropPendingLink,
  isFor,
  readPendingLink,
  renderLinkPage,
  startPendingLink,
  takePendingLink,
} from './link.ts';
import { DOMAIN_PROOF_CSP, renderDomainProofPage } from './domain-proof-page.ts';

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

const connectionNotFound = () => new HttpError(404, 'CONNECTION_NOT_FOUND', 'There is no such sign-in connection for this app');

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

const kindParams = {
  type: 'object',
  required: ['kind', 'id'],
  properties: { kind: { type: 'string', enum: ['oidc', 'saml'] }, id: idParams.properties.id },
} as const;

const stateQuery = {
  type: 'object',
  properties: Object.fromEntries(['code', 'state', 'error', 'iss'].map((field) => [field, { type: 'string', maxLength: 4096 }])),
} as const;

const acsBody = {
  type: 'object',
  required: ['SAMLResponse'],
  properties: { SAMLResponse: { type: 'string', minLength: 1, maxLength: 200_000 }, RelayState: { type: 'string', maxLength: 200 } },
} as const;

export async function enterpriseRoutes(app: FastifyInstance, { context, sessions }: AuthServiceOptions) {
  const { config, db } = context;
  const hosted = (path: string, query: Record<string, string>) => `${config.urls.ui}${path}?${new URLSearchParams(query).toString()}`;
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, path: '/federated', secure: config.urls.auth.startsWith('https:') };

  app.get<{ Params: { kind: 'oidc' | 'saml'; id: string } }>(
    '/federated/:kind/login/:id',
    { schema: { params: kindParams } },
    async (request, reply) => {
      const connection = await connectionById(db, request.params.id);
      if (!connection || connection.kind !== request.params.kind) throw connectionNotFound();
      const session = await sessions.read(request);
      // A sign-in for one app never goes through another app's connection.
      if (session?.interactionUid && session.appId !== connection.appId) throw connectionNotFound();
      await countFederationStart(db, connection.appId, request.ip);
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      await db.insert(federationStates).values({
        stateHash: hashState(state),
        appId: connection.appId,
        provider: connection.kind,
        intent: 'login',
        upstream: 'app',
        nonce,
        codeVerifier,
        connectionId: connection.id,
        expiresAt: new Date(Date.now() + FEDERATION_STATE_TTL_SECONDS * 1000),
      });
      const url =
        connection.kind === 'oidc'
          ? await oidcLoginUrl(config, connection, { state, nonce, codeVerifier })
          : await samlLoginUrl(config, db, connection, state);
      reply.setCookie(FEDERATION_COOKIE, state, { ...cookieOptions, maxAge: FEDERATION_STATE_TTL_SECONDS });
      return reply.redirect(url, 303);
    },
  );

  /** The started sign-in the browser's state names, taken (single use) when the browser carries it in its cookie too. */
  async function takeState(request: FastifyRequest<{ Querystring: { state?: string } }>, reply: FastifyReply, kind: 'oidc' | 'saml') {
    const { state } = request.query;
    const carried = request.cookies[FEDERATION_COOKIE];
    reply.clearCookie(FEDERATION_COOKIE, cookieOptions);
    if (!state || !carried || carried !== state) throw stateInvalid();
    const [row] = await db
      .delete(federationStates)
      .where(and(eq(federationStates.stateHash, hashState(state)), gt(federationStates.expiresAt, sql`now()`)))
      .returning();
    if (!row || row.provider !== kind || !row.connectionId) throw stateInvalid();
    const connection = await connectionById(db, row.connectionId);
    if (!connection) throw stateInvalid();
    return { row, connection };
  }

  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    connection: EnterpriseConnection,
    profile: EnterpriseProfile,
  ): Promise<FastifyReply> {
    const target = await requireApp(db, connection.appId);
    const outcome = await resolveEnterpriseUser(db, connection, profile, request.ip);
    if (outcome.kind === 'confirmLink') {
      // Not on the IdP's word alone: the person signs in the old way in this browser, then confirms.
      const id = await startPendingLink(db, connection, outcome.user.id, profile);
      reply.setCookie(ENTERPRISE_LINK_COOKIE, id, { ...sessions.cookieOptions(), maxAge: FEDERATION_STATE_TTL_SECONDS });
      return reply.redirect(hosted('/auth/login', { appId: target.id, email: outcome.user.email, notice: 'enterpriseLink' }), 303);
    }
    if (outcome.kind === 'unverifiedEmail') {
      request.log.warn({ connectionId: connection.id }, 'enterprise sign-in refused: the IdP did not verify the e-mail');
      return reply.redirect(
        hosted('/auth/login', { appId: target.id, error: 'federation', errorDetails: 'enterpriseUnverifiedEmail' }),
        303,
      );
    }
    if (outcome.kind !== 'user') {
      request.log.warn({ connectionId: connection.id, outcome: outcome.kind }, 'enterprise sign-in refused');
      throw new HttpError(
        403,
        'FEDERATION_DOMAIN_UNVERIFIED',
        "This connection does not sign in this e-mail address: its domain is not one of the connection's verified domains",
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
  }

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/federated/oidc/callback',
    { schema: { querystring: stateQuery } },
    async (request, reply) => {
      const { row, connection } = await takeState(request, reply, 'oidc');
      if (request.query.error || !request.query.code) {
        // Cancelled (or refused) at the IdP: back to the app's login, nothing signed in.
        return reply.redirect(hosted('/auth/login', { appId: connection.appId }), 303);
      }
      const callbackUrl = new URL(`${config.urls.auth}/federated/oidc/callback`);
      for (const [field, value] of Object.entries(request.query)) if (value !== undefined) callbackUrl.searchParams.set(field, value);
      let profile: EnterpriseProfile;
      try {
        profile = await finishOidc(config, connection, row, callbackUrl);
      } catch (error) {
        request.log.warn({ err: error, connectionId: connection.id }, 'enterprise OIDC sign-in refused');
        throw federationFailed();
      }
      return finish(request, reply, connection, profile);
    },
  );

  // The IdP's form post: checked here, the person kept under the state it relayed, then the browser
  // goes on to the GET below, which carries the state cookie and the login session.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post<{ Params: { id: string }; Body: { SAMLResponse: string; RelayState?: string } }>(
    '/federated/saml/acs/:id',
    { schema: { params: idParams, body: acsBody } },
    async (request, reply) => {
      const connection = await connectionById(db, request.params.id);
      if (!connection || connection.kind !== 'saml') throw connectionNotFound();
      const relayState = request.body.RelayState;
      // Only answers to Foyer's own requests: an IdP-initiated response names no started sign-in.
      if (!relayState) throw stateInvalid();
      const [started] = await db
        .select({ stateHash: federationStates.stateHash })
        .from(federationStates)
        .where(
          and(
            eq(federationStates.stateHash, hashState(relayState)),
            eq(federationStates.connectionId, connection.id),
            isNull(federationStates.profile),
            gt(federationStates.expiresAt, sql`now()`),
          ),
        )
        .limit(1);
      if (!started) throw stateInvalid();
      let profile: EnterpriseProfile;
      try {
        profile = await checkSamlResponse(config, db, connection, request.body.SAMLResponse);
      } catch (error) {
        request.log.warn({ err: error, connectionId: connection.id }, 'enterprise SAML response refused');
        throw federationFailed();
      }
      const kept = await db
        .update(federationStates)
        .set({ profile: { ...profile } })
        .where(and(eq(federationStates.stateHash, started.stateHash), isNull(federationStates.profile)))
        .returning({ stateHash: federationStates.stateHash });
      if (kept.length === 0) throw stateInvalid();
      return reply.redirect(`${config.urls.auth}/federated/saml/callback?${new URLSearchParams({ state: relayState }).toString()}`, 303);
    },
  );

  app.get<{ Querystring: { state?: string } }>(
    '/federated/saml/callback',
    { schema: { querystring: stateQuery } },
    async (request, reply) => {
      const { row, connection } = await takeState(request, reply, 'saml');
      if (!row.profile) throw stateInvalid();
      return finish(request, reply, connection, row.profile as unknown as EnterpriseProfile);
    },
  );

  // What the IdP registers: Foyer's entity id for the connection, its ACS URL and binding.
  app.get<{ Params: { id: string } }>('/federated/saml/metadata/:id', { schema: { params: idParams } }, async (request, reply) => {
    const connection = await connectionById(db, request.params.id);
    if (!connection || connection.kind !== 'saml') throw connectionNotFound();
    const metadata = (await samlClient(config, db, connection)).generateServiceProviderMetadata(null);
    return reply.type('application/samlmetadata+xml').send(metadata);
  });

  // The confirmation of a pending link, for the identity it was made for once signed in (the handover sends it here).
  const linkQuery = {
    type: 'object',
    required: ['continue'],
    properties: { continue: { type: 'string', minLength: 1, maxLength: 100 } },
  } as const;
  const linkBody = {
    type: 'object',
    required: ['decision', 'continue'],
    properties: { decision: { type: 'string', enum: ['link', 'decline'] }, continue: linkQuery.properties.continue },
  } as const;
  const linkPage = (reply: FastifyReply, status: number, html: string) =>
    reply
      .status(status)
      .header('content-security-policy', LINK_PAGE_CSP)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);
  const signedInPerson = async (request: FastifyRequest) => {
    const session = await sessions.read(request);
    if (!isAuthenticated(session)) throw unauthorized('Sign in first', 'UNAUTHENTICATED');
    const [person] = await db.select({ email: users.email, locale: users.locale }).from(users).where(eq(users.id, session.userId));
    return { session, person: person! };
  };
  const continuation = (tenantUserId: string) => `/auth/chooseTenantUser/${encodeURIComponent(tenantUserId)}`;

  app.get<{ Querystring: { continue: string } }>('/federated/link', { schema: { querystring: linkQuery } }, async (request, reply) => {
    const { session, person } = await signedInPerson(request);
    const id = request.cookies[ENTERPRISE_LINK_COOKIE];
    const link = await readPendingLink(db, id);
    if (!link || !isFor(link, session)) {
      if (id) await dropPendingLink(db, id);
      reply.clearCookie(ENTERPRISE_LINK_COOKIE, sessions.cookieOptions());
      return linkPage(reply, 410, renderLinkPage(person.locale, { kind: 'gone', continueWith: request.query.continue }));
    }
    const [workspace] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, link.connection.tenantId));
    return linkPage(
      reply,
      200,
      renderLinkPage(person.locale, {
        kind: 'ask',
        email: person.email,
        connection: link.connection.name,
        workspace: workspace?.name ?? '',
        continueWith: request.query.continue,
      }),
    );
  });

  app.post<{ Body: { decision: 'link' | 'decline'; continue: string } }>(
    '/federated/link',
    { schema: { body: linkBody } },
    async (request, reply) => {
      const { session, person } = await signedInPerson(request);
      reply.clearCookie(ENTERPRISE_LINK_COOKIE, sessions.cookieOptions());
      const link = await takePendingLink(db, request.cookies[ENTERPRISE_LINK_COOKIE]);
      if (!link) return linkPage(reply, 410, renderLinkPage(person.locale, { kind: 'gone', continueWith: request.body.continue }));
      if (!isFor(link, session)) {
        // Someone else signed in in this browser: the link was for another identity, and is dropped.
        request.log.warn({ connectionId: link.connection.id }, 'enterprise link refused: another identity signed in');
        return linkPage(reply, 403, renderLinkPage(person.locale, { kind: 'gone', continueWith: request.body.continue }));
      }
      if (request.body.decision === 'decline') return reply.redirect(continuation(request.body.continue), 303);
      const tenantUserId = await confirmLink(db, link, request.ip);
      request.log.info({ connectionId: link.connection.id }, 'enterprise sign-in linked');
      return reply.redirect(continuation(tenantUserId), 303);
    },
  );

  // A domain proof mail's link: the page asks, its button (a POST) confirms; the token is looked up by its hash only.
  const proofParams = {
    type: 'object',
    required: ['token'],
    properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
  } as const;
  const page = (reply: FastifyReply, status: number, html: string) =>
    reply
      .status(status)
      .header('content-security-policy', DOMAIN_PROOF_CSP)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);

  app.get<{ Params: { token: string } }>('/federated/domain-proof/:token', { schema: { params: proofParams } }, async (request, reply) => {
    const about = await findDomainProof(db, request.params.token);
    return about
      ? page(reply, 200, renderDomainProofPage({ kind: 'ask', about }))
      : page(reply, 410, renderDomainProofPage({ kind: 'expired' }));
  });

  app.post<{ Params: { token: string } }>('/federated/domain-proof/:token', { schema: { params: proofParams } }, async (request, reply) => {
    const about = await confirmDomainProof(db, request.params.token);
    if (!about) return page(reply, 410, renderDomainProofPage({ kind: 'expired' }));
    if (about.refusal) return page(reply, 409, renderDomainProofPage({ kind: 'refused', refusal: about.refusal, about }));
    request.log.info({ domain: about.domain }, 'enterprise domain proved by mail');
    return page(reply, 200, renderDomainProofPage({ kind: 'done', about }));
  });
}
