// The management API's refusals: Foyer's shape {statusCode, message, error} (error is Foyer's code)
// plus `code`, the original product's code where one fits (ORIGINAL-CONTRACT.md section 4, "Error
// codes"), so a back end written against the original keeps telling refusals apart, and `fields`
// naming each bad input. The services it calls raise GraphQL errors (server/graphql/errors.ts);
// they are answered here with the same status and code.
import type { FastifyError, FastifyInstance } from 'fastify';
import { GraphQLError } from 'graphql';
import { HttpError, toErrorBody } from '../http/errors.ts';

export type OriginalCode =
  | 'NBLOCKS_CONFLICT'
  | 'NBLOCKS_USER_NOT_FOUND'
  | 'NBLOCKS_NOT_FOUND_TENANT_EXCEPTION'
  | 'NBLOCKS_INVALID_ROLE'
  | 'NBLOCKS_OWNER_ROLE_MUST_EXIST'
  | 'NBLOCKS_UNAUTHORIZED_EXCEPTION'
  | 'NBLOCKS_FORBIDDEN_EXCEPTION';

export class ManagementError extends HttpError {
  constructor(
    statusCode: number,
    code: string,
    message: string,
    readonly originalCode?: OriginalCode,
    readonly fields?: Record<string, unknown>,
  ) {
    super(statusCode, code, message);
  }
}

export const unauthenticated = () =>
  new ManagementError(401, 'UNAUTHENTICATED', "Send one of the app's API keys in x-api-key", 'NBLOCKS_UNAUTHORIZED_EXCEPTION');
/** Another app's workspace, an unknown id and a malformed one read the same. */
export const unknownTenant = () =>
  new ManagementError(404, 'NOT_FOUND', 'There is no such workspace in this app', 'NBLOCKS_NOT_FOUND_TENANT_EXCEPTION');
export const unknownUser = () => new ManagementError(404, 'NOT_FOUND', 'There is no such user in this workspace', 'NBLOCKS_USER_NOT_FOUND');
export const badInput = (fields: Record<string, string>, message = 'Some fields are not valid') =>
  new ManagementError(400, 'BAD_USER_INPUT', message, undefined, fields);

/** A service's GraphQL error as the management API answers it. */
function fromGraphQLError(error: GraphQLError): ManagementError {
  const extensions = error.extensions as { code?: string; response?: { statusCode?: number }; fields?: Record<string, unknown> };
  const code = extensions.code ?? 'INTERNAL_SERVER_ERROR';
  const status = extensions.response?.statusCode ?? 500;
  const fields = extensions.fields;
  const original: OriginalCode | undefined =
    code === 'NOT_FOUND'
      ? 'NBLOCKS_USER_NOT_FOUND'
      : code === 'CONFLICT'
        ? 'NBLOCKS_CONFLICT'
        : code === 'OWNER_ROLE_MUST_EXIST'
          ? 'NBLOCKS_OWNER_ROLE_MUST_EXIST'
          : code === 'BAD_USER_INPUT' && fields && 'role' in fields
            ? 'NBLOCKS_INVALID_ROLE'
            : code === 'FORBIDDEN' || code === 'SELF_CHANGE_FORBIDDEN'
              ? 'NBLOCKS_FORBIDDEN_EXCEPTION'
              : code === 'UNAUTHENTICATED'
                ? 'NBLOCKS_UNAUTHORIZED_EXCEPTION'
                : undefined;
  return new ManagementError(status, code, error.message, original, fields);
}

export function installManagementErrors(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError | HttpError | GraphQLError, request, reply) => {
    const error = raw instanceof GraphQLError ? fromGraphQLError(raw) : raw;
    const body = toErrorBody(error);
    if (body.statusCode >= 500) request.log.error({ err: raw }, 'management request failed');
    const extra =
      error instanceof ManagementError
        ? { ...(error.originalCode ? { code: error.originalCode } : {}), ...(error.fields ? { fields: error.fields } : {}) }
        : {};
    const retryAfter =
      raw instanceof GraphQLError
        ? (raw.extensions.http as { headers?: Record<string, string> } | undefined)?.headers?.['retry-after']
        : undefined;
    if (retryAfter) void reply.header('retry-after', retryAfter);
    return reply.status(body.statusCode).send({ ...body, ...extra });
  });
}
