// The API host's OpenAPI 3.1 document, made by @fastify/swagger from the route schemas: the
// management API (server/management/plugin.ts) and the admin API routes that declare a schema, each
// route listed once it carries a tag. Served at /openapi.json; outside production a rendered
// reference (@fastify/swagger-ui) at /openapi.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyCorsOptions } from '@fastify/cors';
import type { ServerConfig } from '../config.ts';
import { MANAGEMENT_TAG } from './plugin.ts';

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

/** Registers the document's collector: call before any route of the listener is added. */
export async function registerOpenApi(api: FastifyInstance, config: ServerConfig): Promise<void> {
  await api.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Foyer API',
        version: '1',
        description:
          "The management API (an app's back end, with one of the app's API keys) and the admin API (the configurator and an owner's automation).",
      },
      servers: [{ url: config.urls.api }],
      tags: [
        {
          name: MANAGEMENT_TAG,
          description: "Workspaces and members of the key's app; compatible with the original product's Node client",
        },
        { name: 'Admin API', description: 'Apps, their settings, versions and API keys' },
      ],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: "One of the app's API keys" },
          consoleToken: { type: 'http', scheme: 'bearer', description: "A console owner's access token" },
        },
      },
    },
    hideUntagged: true,
  });
  api.get(OPENAPI_DOCUMENT_PATH, { schema: { hide: true } }, async () => api.swagger());
  if (config.env !== 'production') {
    await api.register(swaggerUi, { routePrefix: OPENAPI_REFERENCE_PATH, staticCSP: true });
  }
}
