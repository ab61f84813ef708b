// Route options for the OpenAPI document (server/management/openapi.ts) where a route's request
// part must not be Fastify's check.
import type { FastifySchema } from 'fastify';
import type { TSchema } from 'typebox';

/**
 * A body the route's handler checks itself, documented but never validated by Fastify: the
 * handler's refusals (a 400 with its own code, naming each field) are the route's answer, and
 * Fastify's schema check would answer some bodies differently first (another code, coerced types).
 */
export function handlerCheckedBody(body: TSchema, consumes?: string[]) {
  return {
    swaggerTransform: ({ schema, url }: { schema: FastifySchema; url: string }) => ({
      schema: { ...schema, body, ...(consumes ? { consumes } : {}) },
      url,
    }),
  };
}

/** The OpenAPI tag of the auth service's REST routes (server/management/openapi.ts). */
export const AUTH_SERVICE_TAG = 'Auth service';

/** The OpenAPI tag of the legacy auth mode's calls on the API host (server/auth-proxy/). */
export const AUTH_PROXY_TAG = 'Auth proxy (legacy mode)';

/**
 * How an auth-service call is authenticated: the login session cookie, a member's access token, the
 * legacy mode's token (x-auth-token), or nothing yet.
 */
export type AuthServiceCredential = 'loginSession' | 'accessToken' | 'legacyToken' | 'none';

const securityOf = (credential: AuthServiceCredential) => (credential === 'none' ? {} : { security: [{ [credential]: [] }] });

/** The OpenAPI description of an auth-service route: its tag, summary and credential. */
export function authServiceRoute(summary: string, credential: AuthServiceCredential = 'loginSession') {
  return { tags: [AUTH_SERVICE_TAG], summary, ...securityOf(credential) };
}

/** The OpenAPI description of a legacy auth-proxy route. */
export function authProxyRoute(summary: string, credential: AuthServiceCredential = 'legacyToken') {
  return { tags: [AUTH_PROXY_TAG], summary, ...securityOf(credential) };
}

/** The OpenAPI tags of the API host's calls the hosted screens make besides GraphQL. */
export const PAYMENTS_TAG = 'Payments';
export const WORKSPACE_TAG = 'Workspace';

/** The OpenAPI description of one of those calls. */
export function hostedScreensRoute(tag: typeof PAYMENTS_TAG | typeof WORKSPACE_TAG, summary: string, credential: AuthServiceCredential) {
  return { tags: [tag], summary, ...securityOf(credential) };
}
