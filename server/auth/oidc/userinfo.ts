// The OpenID Connect userinfo endpoint: the standard claims (and docs/SPEC.md section 3's) of the
// membership an access token names, for the OpenID scopes its grant holds. oidc-provider's own
// endpoint refuses access tokens with an audience, and every Foyer access token names its app.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findEnabledMembershipCounted } from '../memberships.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { AccessTokenVerifier } from '../access-tokens.ts';
import { liveOpenIdScopes } from './adapter.ts';
import { accountClaimsOf, CLAIMS_BY_SCOPE, SCOPES } from './claims.ts';
import { authServiceRoute } from '../../http/openapi.ts';
import { UserinfoSchema } from '../../../common/api/auth.ts';

export const USERINFO_PATH = '/userinfo';

// A bearer token authenticates the call, never a cookie: any origin may ask.
const openCors = { cors: { origin: '*', credentials: false } };

/** RFC 6750's answer to a missing or unusable token, in Foyer's error shape. */
function invalidToken(reply: FastifyReply, message: string) {
  return reply
    .status(401)
    .header('www-authenticate', `Bearer error="invalid_token", error_description="${message}"`)
    .send({ statusCode: 401, error: 'invalid_token', message });
}

export async function userinfoRoutes(app: FastifyInstance, { context }: AuthServiceOptions) {
  const { db, config } = context;
  const verifier = new AccessTokenVerifier(db, config.urls.auth);

  async function userinfo(request: FastifyRequest, reply: FastifyReply) {
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) return invalidToken(reply, 'An access token is required');
    const verified = await verifier.verify(token);
    if (!verified.ok) return invalidToken(reply, 'The access token is invalid or expired');
    const { sub, aid, gid } = verified.claims;
    const scopes = gid ? await liveOpenIdScopes(db, gid, sub, aid) : new Set<string>();
    if (!scopes.has('openid')) return invalidToken(reply, 'The sign-in behind this access token has ended');
    const found = await findEnabledMembershipCounted(db, sub, { appId: aid });
    if (!found) return invalidToken(reply, 'The workspace membership behind this access token has ended');
    const claims: Record<string, unknown> = accountClaimsOf(found.membership, found.workspaceCount);
    const released = SCOPES.filter((scope) => scopes.has(scope)).flatMap((scope) => CLAIMS_BY_SCOPE[scope]);
    return reply
      .header('cache-control', 'no-store')
      .send(Object.fromEntries(released.filter((name) => claims[name] !== undefined).map((name) => [name, claims[name]])));
  }

  // No refusal in the schema: a refused token answers RFC 6750's header with Foyer's error body.
  const schema = {
    ...authServiceRoute("The claims of the access token's granted OpenID scopes", 'accessToken'),
    response: { 200: UserinfoSchema },
  };
  app.get(USERINFO_PATH, { config: openCors, schema }, userinfo);
  app.post(USERINFO_PATH, { config: openCors, schema }, userinfo);
  app.options(USERINFO_PATH, { config: openCors }, async (_request, reply) => reply.status(204).send());
}
