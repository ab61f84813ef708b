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
