// @fastify/cors reads a route's own settings from its `config.cors` (server/auth/oidc/shorthands.ts,
// userinfo.ts, mount.ts) but does not declare it; once another plugin (@fastify/swagger) adds fields
// to FastifyContextConfig, an undeclared one no longer type-checks.
import type { FastifyCorsOptions } from '@fastify/cors';

declare module 'fastify' {
  interface FastifyContextConfig {
    cors?: boolean | FastifyCorsOptions;
  }
}
