// A Fastify instance per origin, with the shared error shape and limits.
import fastifyCompress from '@fastify/compress';
import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import Fastify, { type FastifyInstance, type FastifySchemaCompiler } from 'fastify';
import type { ServerConfig } from '../config.ts';
import { installErrorHandling, refuseUnstorableText, sendError } from './errors.ts';
import { logSerializers } from './log-redaction.ts';
import { trackRequestDevice } from './request-device.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Every listener's pino settings: its level, its name, and the redacting serializers. */
export function loggerOptions(config: ServerConfig, name: string) {
  return { level: config.logLevel, base: { origin: name }, serializers: logSerializers };
}

/** What the log lines (pino's JSON, one a line) can be written to. */
export interface LogStream {
  write(line: string): void;
}

export interface ListenerOptions {
  /** The listener's modules answer unknown paths themselves (the UI's page fallback). */
  ownNotFound?: boolean;
  /** People visit this origin: failed page loads go to the hosted error page (server/http/errors.ts). */
  errorPage?: (code: string) => string;
  /** Where the log goes instead of stdout (tests read what production would log). */
  logStream?: LogStream;
}

/**
 * Fastify's request validators (ajv) and answer serializers (fast-json-stringify), each compiled when
 * its route first needs it rather than every route's at start: compiling them all took a third of the
 * server's start (npm run bench -- server-start). A route's schemas are still checked the first time
 * it is called, which every route's tests do.
 */
type Validator = ReturnType<FastifySchemaCompiler<unknown>>;
/** One pool for every listener: an ajv instance per set of options, as Fastify's default keeps one. */
const validatorPool = AjvCompiler();

function lazyValidators(...factoryArguments: Parameters<BuildCompilerFromPool>): FastifySchemaCompiler<unknown> {
  // @fastify/ajv-compiler declares its compiler as taking a schema; it takes the route's definition.
  const compile = validatorPool(...factoryArguments) as unknown as FastifySchemaCompiler<unknown>;
  return (route) => {
    let validate: Validator | undefined;
    // Fastify reads a failed check's problems from the function it was given.
    const lazy: Validator = (data) => {
      validate ??= compile(route);
      const valid = validate(data);
      lazy.errors = validate.errors;
      return valid;
    };
    return lazy;
  };
}

const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((document: unknown) => string) | undefined;
    return (document) => (serialize ??= compile(route))(document);
  };
};

/** A year, without includeSubDomains or preload: the operator's other hosts are not Foyer's to pin. */
export const HSTS = 'max-age=31536000';

/** `name` is the origin the listener serves; its public URL decides whether browsers are told to keep to https. */
export function createListener(config: ServerConfig, name: keyof ServerConfig['urls'], options: ListenerOptions = {}): FastifyInstance {
  const handling = { notFound: !options.ownNotFound, errorPage: options.errorPage };
  const app = Fastify({
    logger: { ...loggerOptions(config, name), ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Path parameters up to the longest value a route accepts (mailed-link tokens, server/auth/tokens/service.ts),
    // so an overlong one gets that route's answer rather than a bare 404.
    routerOptions: { maxParamLength: 2048 },
    schemaController: {
      compilersFactory: { buildValidator: lazyValidators as unknown as BuildCompilerFromPool, buildSerializer: lazySerializers },
    },
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
  // bodies are read as sent (no decompression), so the body limit is what arrives. An answer of up to
  // 64 KiB (a drawn page is some 50 KB) is compressed at once, a millisecond or two at brotli's quality 4,
  // and sent whole with its length: the plugin's default on two cores, 8 KiB, streamed such a page
  // through zlib's threads, so its body came after its headers and a wait for the thread pool.
  // Hashed assets are compressed by the build (scripts/precompress.ts).
  void app.register(fastifyCompress, { encodings: ['br', 'gzip'], globalDecompression: false, syncThreshold: 64 * 1024 });
  // Answers sent once the listener is closing end their connection (server/app.ts waits for the
  // requests in flight): a keep-alive connection left idle after its answer would otherwise hold the
  // shutdown until Node's keep-alive timeout or the grace period ends it.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  installErrorHandling(app, handling);
  refuseUnstorableText(app);
  trackRequestDevice(app);
  return app;
}
