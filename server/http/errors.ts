// Every error a client sees has the same shape: {statusCode, message, error}, where `error` is a
// machine-readable code. Unexpected failures are logged and answered without details.
import type { FastifyError, FastifyInstance } from 'fastify';

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

export function installErrorHandling(app: FastifyInstance, options: { notFound: boolean }): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const body = toErrorBody(error);
    if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof HttpError && error.statusCode === 429) reply.header('retry-after', '60');
    return reply.status(body.statusCode).send(body);
  });
  if (!options.notFound) return;
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ statusCode: 404, message: 'Not found', error: 'NOT_FOUND' } satisfies ErrorBody),
  );
}
