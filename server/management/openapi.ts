// Foyer's OpenAPI 3.1 document, made by @fastify/swagger from the route schemas: the management API
// (server/management/plugin.ts) and the admin API (server/admin/plugin.ts) of the API host, and the
// auth service's REST routes (server/auth/) of the auth origin, each route listed once it carries a
// tag. The auth service's paths name their own server, the auth origin. Served on the API host at
// /openapi.json; outside production a rendered reference (@fastify/swagger-ui) at /openapi. The
// OAuth 2.0 / OpenID Connect endpoints oidc-provider serves are described by the discovery document.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { FastifyCorsOptions } from '@fastify/cors';
import type { ServerConfig } from '../config.ts';
import { MANAGEMENT_TAG } from './plugin.ts';
import { ADMIN_TAG } from '../admin/plugin.ts';
import { AUTH_PROXY_TAG, AUTH_SERVICE_TAG, PAYMENTS_TAG, WORKSPACE_TAG } from '../http/openapi.ts';
import { LOGIN_SESSION_COOKIE } from '../auth/login-session.ts';

// @fastify/cors reads a route's own settings from `config.cors` (server/auth/oidc/shorthands.ts,
// userinfo.ts, mount.ts) without declaring it; once @fastify/swagger adds fields to
// FastifyContextConfig, an undeclared field no longer type-checks. Declared here, beside the import
// that brings swagger's fields in.
declare module 'fastify' {
  interface FastifyContextConfig {
    cors?: boolean | FastifyCorsOptions;
  }
}

export const OPENAPI_DOCUMENT_PATH = '/openapi.json';
export const OPENAPI_REFERENCE_PATH = '/openapi';

/** How callers authenticate, named by the routes' `security`. */
const securitySchemes = {
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: "One of the app's API keys" },
  consoleToken: { type: 'http', scheme: 'bearer', description: "A console owner's access token" },
  accessToken: { type: 'http', scheme: 'bearer', description: "A signed-in member's access token for the app" },
  legacyToken: { type: 'apiKey', in: 'header', name: 'x-auth-token', description: "The legacy auth mode's token" },
  loginSession: { type: 'apiKey', in: 'cookie', name: LOGIN_SESSION_COOKIE, description: "The auth origin's login session cookie" },
} as const;

/** Collects the auth service's documented routes: call before any route of the auth listener is added. */
export async function collectAuthServiceRoutes(auth: FastifyInstance): Promise<void> {
  await auth.register(swagger, {
    openapi: { openapi: '3.1.0', info: { title: 'Foyer auth service', version: '1' }, components: { securitySchemes } },
    hideUntagged: true,
  });
}

type OpenApiDocument = ReturnType<FastifyInstance['swagger']>;

/** The API host's document with the auth service's paths added, each naming the auth origin as its server. */
function withAuthService(document: OpenApiDocument, auth: FastifyInstance | undefined, authUrl: string): OpenApiDocument {
  if (!auth) return document;
  const authPaths = (auth.swagger() as { paths?: Record<string, object> }).paths ?? {};
  const paths: Record<string, object> = { ...(document as { paths?: Record<string, object> }).paths };
  for (const [path, item] of Object.entries(authPaths)) paths[path] = { servers: [{ url: authUrl }], ...(item as Record<string, unknown>) };
  return { ...(document as object), paths } as OpenApiDocument;
}

/**
 * Registers the document's collector on the API host: call before any route of the listener is
 * added. `auth`: the auth listener, whose routes collectAuthServiceRoutes collected.
 */
export async function registerOpenApi(api: FastifyInstance, config: ServerConfig, auth?: FastifyInstance): Promise<void> {
  await api.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Foyer API',
        version: '1',
        description:
          "The management API (an app's back end, with one of the app's API keys), the admin API (the configurator and an owner's automation) and the auth service's REST calls (the hosted screens and the profile). OAuth 2.0 and OpenID Connect endpoints: see the auth service's /.well-known/openid-configuration.",
      },
      servers: [{ url: config.urls.api }],
      tags: [
        {
          name: MANAGEMENT_TAG,
          description: "Workspaces and members of the key's app; compatible with the original product's Node client",
        },
        { name: ADMIN_TAG, description: 'Apps, their settings, versions, API keys, audit log and webhooks' },
        {
          name: AUTH_SERVICE_TAG,
          description:
            "The auth origin's calls: sign-in steps with the login session cookie, the profile's passkeys and sessions with the access token",
        },
        {
          name: AUTH_PROXY_TAG,
          description: "The legacy auth mode's sign-in calls on the API host, with the x-auth-token of an app that uses it",
        },
        { name: WORKSPACE_TAG, description: "The workspace settings page's logo upload, with the API's access token" },
        {
          name: PAYMENTS_TAG,
          description:
            "Checkout and the subscription portal (browser navigations with the payments cookie), and the payment providers' webhook",
        },
      ],
      components: { securitySchemes },
    },
    hideUntagged: true,
  });
  api.get(OPENAPI_DOCUMENT_PATH, { schema: { hide: true } }, async () => withAuthService(api.swagger(), auth, config.urls.auth));
  if (config.env !== 'production') {
    // Loaded only where it is served, so a production start does not load it (npm run bench -- server-start).
    const { default: swaggerUi } = await import('@fastify/swagger-ui');
    await api.register(swaggerUi, { routePrefix: OPENAPI_REFERENCE_PATH, staticCSP: true });
  }
}
