// The management API's refusals: Foyer's shape {statusCode, message, error} (error is Foyer's code)
// plus `code`, the original product's code where one fits (ORIGINAL-CONTRACT.md section 4, "Error
// codes"), so a back end written against the original keeps telling refusals apart. A bad input
// answers `details`, each problem coded as the admin API names them (server/admin/errors.ts:
// {path, code, params, message}, path a JSON pointer into the body), and `fields`, the original's
// field -> English text. The services it calls raise GraphQL errors (server/graphql/errors.ts) and
// admin errors; they are answered here with the same status, code and issues.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorObject } from 'ajv';
// The error class alone, as server/graphql/errors.ts imports it.
import { GraphQLError } from 'graphql/error/GraphQLError.js';
import { HttpError, toErrorBody } from '../http/errors.ts';
import { ajvIssue, plainIssue, type FieldIssue } from '../http/field-issues.ts';
import { AdminError, type ProblemDetail } from '../admin/errors.ts';

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
    readonly details?: ProblemDetail[],
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

/** A body field name ('owner.email', a custom label) as a JSON pointer (RFC 6901). */
const pointerOf = (field: string) =>
  `/${field
    .split('.')
    .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
    .join('/')}`;

const detailsOf = (issues: Record<string, FieldIssue | FieldIssue[]>): ProblemDetail[] =>
  Object.entries(issues).flatMap(([field, each]) => [each].flat().map((issue) => ({ path: pointerOf(field), ...issue })));

/** Bad input, each field with its coded issue(s). */
export const badInput = (issues: Record<string, FieldIssue | FieldIssue[]>, message = 'Some fields are not valid') =>
  new ManagementError(400, 'BAD_USER_INPUT', message, undefined, detailsOf(issues));

/** The original's `fields`: each field's first English text, by field name (the path without its first slash). */
function fieldsOf(details: ProblemDetail[]): Record<string, string> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const detail of details) {
    const field = detail.path.slice(1).split('/').join('.') || 'body';
    fields[field] ??= detail.message;
  }
  return fields;
}

/** A service's GraphQL error as the management API answers it. */
function fromGraphQLError(error: GraphQLError): ManagementError {
  const extensions = error.extensions as {
    code?: string;
    response?: { statusCode?: number };
    fields?: Record<string, unknown>;
    fieldIssues?: Record<string, FieldIssue[]>;
  };
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
  const details = extensions.fieldIssues ? detailsOf(extensions.fieldIssues) : undefined;
  return new ManagementError(status, code, error.message, original, details);
}

/** The schema's problem with a request part, coded like the form's (ajv's keyword and params). */
function fromValidation(error: FastifyError & { validation: ErrorObject[] }): ManagementError {
  const details = error.validation.map((problem) => {
    const path =
      problem.keyword === 'required'
        ? `${problem.instancePath}/${(problem.params as { missingProperty: string }).missingProperty}`
        : problem.keyword === 'additionalProperties'
          ? `${problem.instancePath}/${(problem.params as { additionalProperty: string }).additionalProperty}`
          : problem.instancePath;
    const issue = problem.keyword === 'required' ? { ...plainIssue('required'), params: {} } : ajvIssue(problem);
    return { path: path || '/', ...issue };
  });
  return new ManagementError(400, 'BAD_REQUEST', error.message, undefined, details);
}

function asManagementError(raw: FastifyError | HttpError | GraphQLError): FastifyError | HttpError {
  if (raw instanceof GraphQLError) return fromGraphQLError(raw);
  if (raw instanceof AdminError) return new ManagementError(raw.statusCode, raw.code, raw.message, undefined, raw.details);
  if ('validation' in raw && Array.isArray(raw.validation)) return fromValidation(raw as Parameters<typeof fromValidation>[0]);
  return raw;
}

export function installManagementErrors(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError | HttpError | GraphQLError, request, reply) => {
    const error = asManagementError(raw);
    const body = toErrorBody(error);
    if (body.statusCode >= 500) request.log.error({ err: raw }, 'management request failed');
    const extra =
      error instanceof ManagementError
        ? {
            ...(error.originalCode ? { code: error.originalCode } : {}),
            ...(error.details ? { fields: fieldsOf(error.details), details: error.details } : {}),
          }
        : {};
    const retryAfter =
      raw instanceof GraphQLError
        ? (raw.extensions.http as { headers?: Record<string, string> } | undefined)?.headers?.['retry-after']
        : error instanceof HttpError && error.statusCode === 429
          ? '60'
          : undefined;
    if (retryAfter) void reply.header('retry-after', retryAfter);
    return reply.status(body.statusCode).send({ ...body, ...extra });
  });
}
