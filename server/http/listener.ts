// A Fastify instance per origin, with the shared error shape and limits.
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';
import { installErrorHandling, refuseUnstorableText } from './errors.ts';
import { logSerializers } from './log-redaction.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Every listener's pino settings: its level, its name, and the redacting serializers. */
export function loggerOptions(config: ServerConfig, name: string) {
  return { level: config.logLevel, base: { origin: name }, serializers: logSerializers };
}

/** `ownNotFound`: the listener's modules answer unknown paths themselves (the UI's page fallback). */
export function createListener(config: ServerConfig, name: string, options = { ownNotFound: false }): FastifyInstance {
  const app = Fastify({
    logger: loggerOptions(config, name),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
  });
  installErrorHandling(app, { notFound: !options.ownNotFound });
  refuseUnstorableText(app);
  return app;
}
