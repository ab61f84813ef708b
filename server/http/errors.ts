// Every error a client sees has the same shape: {statusCode, message, error}, where `error` is a
// machine-readable code. Unexpected failures are logged and answered without details.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, code, message);
export const unauthorized = (message = 'Unauthorized', code = 'UNAUTHORIZED') => new HttpError(401, code, message);
export const forbidden = (message = 'Forbidden', code = 'FORBIDDEN') => new HttpError(403, code, message);
export const notFound = (message = 'Not found', code = 'NOT_FOUND') => new HttpError(404, code, message);

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

const frameworkCodes: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_VALIDATION: 'BAD_REQUEST',
  // @fastify/static refusing a path no link names (a doubled slash, an aliased spelling: server/ui/plugin.ts).
  FST_STATIC_FORBIDDEN_PATH: 'FORBIDDEN',
};

export function toErrorBody(error: FastifyError | HttpError | Error): ErrorBody {
  if (error instanceof HttpError) return { statusCode: error.statusCode, message: error.message, error: error.code };
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const code = fastifyError.validation ? 'BAD_REQUEST' : (frameworkCodes[fastifyError.code] ?? 'BAD_REQUEST');
    return { statusCode: status, message: fastifyError.message, error: code };
  }
  return { statusCode: 500, message: 'Internal server error', error: 'INTERNAL_SERVER_ERROR' };
}

/** The hosted screen that shows an error to a person, with a way back (the runtime's /auth/error). */
export const ERROR_PAGE_PATH = '/auth/error';

export interface ErrorHandlingOptions {
  notFound: boolean;
  /**
   * Where a failed browser navigation goes instead of a JSON body: on the origins people visit, an
   * error that ends a page load shows as a branded page, never raw JSON.
   */
  errorPage?: (code: string) => string;
}

/** A page load (a link, a redirect, a typed address), as opposed to a script's fetch. */
export function isNavigation(request: { method?: string; headers: IncomingHttpHeaders }): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const mode = request.headers['sec-fetch-mode'];
  if (mode !== undefined) return mode === 'navigate';
  return (request.headers.accept ?? '').includes('text/html');
}

/** Answers `body` as JSON, or for a browser navigation sends the browser to the error page. */
export function sendError(request: FastifyRequest, reply: FastifyReply, body: ErrorBody, options: ErrorHandlingOptions) {
  if (options.errorPage && isNavigation(request)) return reply.redirect(options.errorPage(body.error), 303);
  return reply.status(body.statusCode).send(body);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** NUL (PostgreSQL text cannot hold it) or a UTF-16 surrogate without its pair (not Unicode). */
function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

function holdsUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isUnstorable(value);
  // Bodies are at most 1 MiB of JSON (server/http/listener.ts); nesting deeper than this is no input of Foyer's.
  if (depth > 64 || typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return false;
  for (const [key, item] of Object.entries(value)) {
    if (isUnstorable(key) || holdsUnstorableText(item, depth + 1)) return true;
  }
  return false;
}

/**
 * Refuses text no route can store, in the path, the query string or a parsed body, before any
 * handler runs: in one place rather than at every column it could reach.
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  // Before schema validation, so the answer is the same whatever a route's schema says.
  app.addHook('preValidation', async (request) => {
    if (holdsUnstorableText(request.params) || holdsUnstorableText(request.query) || holdsUnstorableText(request.body)) {
      throw new HttpError(400, 'INVALID_TEXT', 'Text must not contain NUL characters or unpaired surrogates');
    }
  });
}

export function installErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const body = toErrorBody(error);
    if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof HttpError && error.statusCode === 429) reply.header('retry-after', '60');
    return sendError(request, reply, body, options);
  });
  if (!options.notFound) return;
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, { statusCode: 404, message: 'Not found', error: 'NOT_FOUND' }, options),
  );
}
