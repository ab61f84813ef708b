// A Fastify instance per origin, with the shared error shape and limits.
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';
import { installErrorHandling, refuseUnstorableText, sendError } from './errors.ts';
import { logSerializers } from './log-redaction.ts';
import { trackRequestDevice } from './request-device.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Every listener's pino settings: its level, its name, and the redacting serializers. */
export function loggerOptions(config: ServerConfig, name: string) {
  return { level: config.logLevel, base: { origin: name }, serializers: logSerializers };
}

export interface ListenerOptions {
  /** The listener's modules answer unknown paths themselves (the UI's page fallback). */
  ownNotFound?: boolean;
  /** People visit this origin: failed page loads go to the hosted error page (server/http/errors.ts). */
  errorPage?: (code: string) => string;
}

/** A year, without includeSubDomains or preload: the operator's other hosts are not Foyer's to pin. */
export const HSTS = 'max-age=31536000';

/** `name` is the origin the listener serves; its public URL decides whether browsers are told to keep to https. */
export function createListener(config: ServerConfig, name: keyof ServerConfig['urls'], options: ListenerOptions = {}): FastifyInstance {
  const handling = { notFound: !options.ownNotFound, errorPage: options.errorPage };
  const app = Fastify({
    logger: loggerOptions(config, name),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Path parameters up to the longest value a route accepts (mailed-link tokens, server/auth/tokens/service.ts),
    // so an overlong one gets that route's answer rather than a bare 404.
    routerOptions: { maxParamLength: 2048 },
    // A malformed address (bad percent-encoding) fails before routing; it gets the same answers.
    frameworkErrors: (error, request, reply) => {
      sendError(request, reply, { statusCode: 400, message: error.message, error: 'BAD_REQUEST' }, handling);
    },
  });
  if (config.urls[name].startsWith('https:')) {
    // On the raw response, so the answers oidc-provider writes itself (server/auth/oidc/mount.ts) carry it too.
    app.addHook('onRequest', async (_request, reply) => {
      reply.raw.setHeader('strict-transport-security', HSTS);
    });
  }
  // Before any route or @fastify/static (server/ui/plugin.ts), so their answers are compressed too:
  // brotli or gzip as the client's accept-encoding prefers, text bodies of 1 KiB and more. Request
  // bodies are read as sent (no decompression), so the body limit is what arrives.
  void app.register(fastifyCompress, { encodings: ['br', 'gzip'], globalDecompression: false });
  installErrorHandling(app, handling);
  refuseUnstorableText(app);
  trackRequestDevice(app);
  return app;
}
