// Passkey calls of docs/SPEC.md section 7 on the auth origin: sign-in with the login session cookie, and
// registration authorised by a live reset, invitation or signup link (forgotPasswordToken). A
// signed-in user manages their passkeys from the profile with the API's access token
// (Authorization: Bearer, verified like the GraphQL API): list, delete, and register without a link.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { HttpError, badRequest, notFound } from '../../http/errors.ts';
import { recordAudit } from '../../audit/service.ts';
import { recordWithinLimits, type RequestLimit } from '../../audit/limits.ts';
import { AccessTokenVerifier } from '../access-tokens.ts';
import { bearerUser } from '../bearer.ts';
import { requireApp, type App } from '../../apps/lookup.ts';
import { findPasswordLink, linkExpired } from '../password/service.ts';
import { normalizeUsername, resolveApp, signIn, type User } from '../sign-in.ts';
import { PASSKEY_NAME_MAX_LENGTH } from '../../../common/passkeys.ts';
import {
  authenticationOptions,
  deletePasskey,
  listPasskeys,
  passkeysEnabled,
  registrationOptions,
  relyingPartyOf,
  renamePasskey,
  verifyAuthentication,
  verifyRegistration,
  type RelyingParty,
} from './service.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { Type } from 'typebox';
import { authServiceRoute } from '../../http/openapi.ts';
import { refusals } from '../../../common/api/errors.ts';
import { PasskeyList, PasskeyRegistered, PasskeyTokenQuery, SignInAnswerSchema, WebAuthnOptionsSchema } from '../../../common/api/auth.ts';

const base64url = { type: 'string', minLength: 1, maxLength: 16384, pattern: '^[A-Za-z0-9_-]+={0,2}$' } as const;
const credentialId = { type: 'string', minLength: 1, maxLength: 1024, pattern: '^[A-Za-z0-9_-]+$' } as const;

const credentialFields = {
  id: credentialId,
  rawId: credentialId,
  type: { type: 'string', const: 'public-key' },
  clientExtensionResults: { type: 'object' },
  authenticatorAttachment: { type: 'string', enum: ['platform', 'cross-platform'] },
} as const;

const authenticationSchema = {
  body: {
    type: 'object',
    required: ['id', 'rawId', 'type', 'response'],
    properties: {
      ...credentialFields,
      response: {
        type: 'object',
        required: ['clientDataJSON', 'authenticatorData', 'signature'],
        properties: { clientDataJSON: base64url, authenticatorData: base64url, signature: base64url, userHandle: base64url },
      },
    },
  },
} as const;

const registrationBody = {
  type: 'object',
  required: ['id', 'rawId', 'type', 'response'],
  properties: {
    ...credentialFields,
    response: {
      type: 'object',
      required: ['clientDataJSON', 'attestationObject'],
      properties: {
        clientDataJSON: base64url,
        attestationObject: base64url,
        transports: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 32 } },
      },
    },
  },
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: credentialId } } as const;

const renameBody = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', maxLength: PASSKEY_NAME_MAX_LENGTH } },
} as const;

type TokenQuery = { Querystring: { forgotPasswordToken?: string } };

/** Every login page load asks once (autofill), so the cap is generous. */
export const PASSKEY_OPTIONS_LIMITS: readonly RequestLimit[] = [{ max: 300, windowMinutes: 15, per: ['app', 'ip'] }];

export async function passkeyRoutes(app: FastifyInstance, { context, sessions }: AuthServiceOptions) {
  const { db, config } = context;
  const rp = relyingPartyOf(config.urls.ui);
  const verifier = new AccessTokenVerifier(db, config.urls.auth);

  function relyingParty(target: App): RelyingParty {
    if (!passkeysEnabled(target)) throw new HttpError(403, 'PASSKEYS_DISABLED', 'Passkeys are not enabled for this app');
    if (!rp) throw new HttpError(503, 'PASSKEYS_UNAVAILABLE', 'Passkeys need the hosted UI on localhost or a domain name');
    return rp;
  }

  /** Whose passkey a registration call adds: the user of a live mailed link, else the bearer's. */
  async function registeringUser(request: FastifyRequest<TokenQuery>): Promise<{ app: App; user: User; via: string }> {
    const secret = request.query.forgotPasswordToken;
    if (secret === undefined) return { ...(await bearerUser(db, verifier, request)), via: 'profile' };
    const link = await findPasswordLink(db, secret);
    if (!link) throw linkExpired();
    return { app: await requireApp(db, link.token.appId), user: link.user, via: link.token.purpose };
  }

  app.get(
    '/auth/passkeys/authentication-options',
    {
      schema: {
        ...authServiceRoute('WebAuthn options to sign in with a passkey', 'none'),
        response: { 200: WebAuthnOptionsSchema, ...refusals(403, 404, 429, 503) },
      },
    },
    async (request, reply) => {
      const previous = await sessions.read(request);
      const target = await resolveApp(db, request, previous);
      // Each answer stores a challenge (and maybe a login session): cap what one address can make us store.
      if (
        !(await recordWithinLimits(
          db,
          'passkey.options_requested',
          { appId: target.id, ip: request.ip, username: '' },
          PASSKEY_OPTIONS_LIMITS,
        ))
      ) {
        throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many passkey sign-in attempts from this address; try again later');
      }
      const party = relyingParty(target);
      // The challenge belongs to a login session of this app; a browser without one gets one now.
      const session = previous?.appId === target.id ? previous : await sessions.start(reply, { appId: target.id }, previous);
      return authenticationOptions(context, party, session.idHash);
    },
  );

  app.post<{ Body: AuthenticationResponseJSON }>(
    '/auth/passkeys/verify-authentication',
    {
      schema: {
        ...authServiceRoute("Sign in with the browser's passkey answer", 'none'),
        ...authenticationSchema,
        response: { 200: SignInAnswerSchema, ...refusals(400, 401, 403, 404, 503) },
      },
    },
    async (request, reply) => {
      const session = await sessions.read(request);
      const target = await resolveApp(db, request, session);
      const party = relyingParty(target);
      let verified;
      try {
        if (!session || session.appId !== target.id)
          throw new HttpError(401, 'PASSKEY_NOT_VERIFIED', 'No passkey sign-in was started here');
        verified = await verifyAuthentication(context, party, { app: target, loginSessionHash: session.idHash, response: request.body });
      } catch (error) {
        if (error instanceof HttpError) {
          await recordAudit(db, {
            type: 'login.failure',
            appId: target.id,
            ip: request.ip,
            detail: { method: 'passkey', reason: error.message },
          });
        }
        throw error;
      }
      const { user } = verified;
      const { answer } = await signIn(context, sessions, reply, {
        app: target,
        user,
        previous: session,
        ip: request.ip,
        method: 'passkey',
      });
      return answer;
    },
  );

  app.get<TokenQuery>(
    '/auth/passkeys/registration-options',
    {
      schema: {
        ...authServiceRoute("WebAuthn options to add a passkey: the signed-in member's, or a mailed link's user", 'accessToken'),
        querystring: PasskeyTokenQuery,
        response: { 200: WebAuthnOptionsSchema, ...refusals(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const { app: target, user } = await registeringUser(request);
      return registrationOptions(context, relyingParty(target), { app: target, user });
    },
  );

  app.post<TokenQuery & { Body: RegistrationResponseJSON }>(
    '/auth/passkeys/verify-registration',
    {
      schema: {
        ...authServiceRoute("Add the passkey of the browser's answer", 'accessToken'),
        querystring: PasskeyTokenQuery,
        body: registrationBody,
        response: { 200: PasskeyRegistered, ...refusals(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const { app: target, user, via } = await registeringUser(request);
      const passkey = await verifyRegistration(context, relyingParty(target), { user, response: request.body });
      await recordAudit(db, {
        type: 'passkey.registered',
        appId: target.id,
        userId: user.id,
        ip: request.ip,
        detail: { username: normalizeUsername(user.email), passkey: passkey.name, via },
      });
      return { verified: true };
    },
  );

  app.get(
    '/auth/passkeys',
    {
      schema: {
        ...authServiceRoute("The signed-in member's passkeys", 'accessToken'),
        response: { 200: PasskeyList, ...refusals(401, 403) },
      },
    },
    async (request) => {
      const { user } = await bearerUser(db, verifier, request);
      const rows = await listPasskeys(db, user.id);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        createdAt: row.createdAt.toISOString(),
        lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      }));
    },
  );

  app.put<{ Params: { id: string }; Body: { name: string } }>(
    '/auth/passkeys/:id',
    {
      schema: {
        ...authServiceRoute('Rename a passkey', 'accessToken'),
        params: idParams,
        body: renameBody,
        response: { 204: Type.Null(), ...refusals(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { app: target, user } = await bearerUser(db, verifier, request);
      const name = request.body.name.trim();
      if (!name) throw badRequest('Give the passkey a name', 'PASSKEY_NAME_REQUIRED');
      // Another user's passkey and a non-existent one get the same answer.
      if (!(await renamePasskey(db, user.id, request.params.id, name))) throw notFound('No such passkey', 'PASSKEY_NOT_FOUND');
      await recordAudit(db, {
        type: 'passkey.renamed',
        appId: target.id,
        userId: user.id,
        ip: request.ip,
        detail: { passkey: request.params.id },
      });
      return reply.status(204).send();
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/auth/passkeys/:id',
    {
      schema: {
        ...authServiceRoute('Delete a passkey', 'accessToken'),
        params: idParams,
        response: { 204: Type.Null(), ...refusals(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { app: target, user } = await bearerUser(db, verifier, request);
      // Another user's passkey and a non-existent one get the same answer.
      if (!(await deletePasskey(db, user.id, request.params.id))) throw notFound('No such passkey', 'PASSKEY_NOT_FOUND');
      await recordAudit(db, {
        type: 'passkey.deleted',
        appId: target.id,
        userId: user.id,
        ip: request.ip,
        detail: { passkey: request.params.id },
      });
      return reply.status(204).send();
    },
  );
}
