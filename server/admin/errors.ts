// The admin API's refusals: the shared error shape {statusCode, message, error} plus, for invalid
// documents, `details` naming each problem by JSON pointer.
import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError, toErrorBody } from '../http/errors.ts';
import type { ProblemDetail } from '../../common/api/errors.ts';

export type { ProblemDetail };

export class AdminError extends HttpError {
  constructor(
    statusCode: number,
    code: string,
    message: string,
    readonly details?: ProblemDetail[],
  ) {
    super(statusCode, code, message);
  }
}

/** Another app's id, an unknown id and an app the caller does not own read the same. */
export const unknownApp = () => new AdminError(404, 'UNKNOWN_APP', 'Unknown app');
export const unauthenticated = () =>
  new AdminError(401, 'UNAUTHENTICATED', "Send a console access token (Authorization: Bearer) or the app's API key (x-api-key)");
export const forbidden = (message: string) => new AdminError(403, 'FORBIDDEN', message);

/** Answers every error of the admin routes; the logo route's size limit reads as FILE_TOO_LARGE. */
export function installAdminErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE' && request.routeOptions.url?.endsWith('/logo')) {
      error = new AdminError(413, 'FILE_TOO_LARGE', 'The logo is larger than 256 KiB');
    }
    const body = toErrorBody(error);
    if (body.statusCode >= 500) request.log.error({ err: error }, 'admin request failed');
    const details = error instanceof AdminError && error.details ? { details: error.details } : {};
    return reply.status(body.statusCode).send({ ...body, ...details });
  });
}
