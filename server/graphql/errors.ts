// GraphQL errors as Foyer's clients read them (docs/SPEC.md section 8): extensions.code is the machine
// code and extensions.response.statusCode the HTTP status the runtime maps (401 → sign out, 403 →
// forbidden handler). The HTTP response carries the highest status among its errors, so plain HTTP
// tooling sees the same answer.
import type { ExecutionResult } from 'graphql';
// The error class alone: graphql's index is CommonJS, so the bundle cannot leave its engine out, and
// the REST routes that throw these errors load at start (tests/unit/build/server-start-modules.test.ts).
import { GraphQLError } from 'graphql/error/GraphQLError.js';
import type { Plugin } from 'graphql-yoga';
import type { FieldIssue } from '../http/field-issues.ts';

export type FoyerErrorCode =
  | 'UNAUTHENTICATED'
  /** A valid token whose membership was disabled or deleted since: the runtime tells the person why. */
  | 'MEMBERSHIP_ENDED'
  | 'FORBIDDEN'
  | 'UNKNOWN_APP'
  | 'BAD_USER_INPUT'
  | 'BAD_REQUEST'
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'NOT_FOUND'
  /** What was to be created exists already (the management API's duplicate member). */
  | 'CONFLICT'
  | 'SELF_SIGNUP_DISABLED'
  /** The app has passwords off (AppConfig.passwordEnabled false), and a password was sent. */
  | 'PASSWORD_SIGN_IN_DISABLED'
  /** updateUser, deleteUser and sendPasswordResetLink never act on the caller's own membership. */
  | 'SELF_CHANGE_FORBIDDEN'
  /** The change would leave the workspace without an enabled OWNER. */
  | 'OWNER_ROLE_MUST_EXIST'
  | 'TOO_MANY_REQUESTS'
  /** A paid plan of an app that has no payment provider (production without Stripe keys). */
  | 'PAYMENTS_NOT_CONFIGURED'
  | 'NOT_IMPLEMENTED'
  | 'INTERNAL_SERVER_ERROR'
  | 'SERVICE_UNAVAILABLE';

const statusOf: Record<FoyerErrorCode, number> = {
  UNAUTHENTICATED: 401,
  MEMBERSHIP_ENDED: 401,
  FORBIDDEN: 403,
  UNKNOWN_APP: 404,
  BAD_USER_INPUT: 400,
  BAD_REQUEST: 400,
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  SELF_SIGNUP_DISABLED: 403,
  PASSWORD_SIGN_IN_DISABLED: 403,
  SELF_CHANGE_FORBIDDEN: 403,
  OWNER_ROLE_MUST_EXIST: 403,
  TOO_MANY_REQUESTS: 429,
  PAYMENTS_NOT_CONFIGURED: 409,
  NOT_IMPLEMENTED: 501,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

function isFoyerErrorCode(code: unknown): code is FoyerErrorCode {
  return typeof code === 'string' && code in statusOf;
}

function extensionsFor(code: FoyerErrorCode, extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
  const statusCode = statusOf[code];
  // `http` is read by the HTTP layer and stripped from the answer; `spec: false` keeps the status
  // even for clients that accept plain application/json.
  return { ...extra, code, response: { statusCode }, http: { status: statusCode, spec: false, headers } };
}

export function foyerError(code: FoyerErrorCode, message: string, path?: readonly (string | number)[]): GraphQLError {
  return new GraphQLError(message, { path, extensions: extensionsFor(code) });
}

/** What is wrong with each named input field: one issue, or a list (the password policy's problems). */
export type FieldErrors = Record<string, FieldIssue | FieldIssue[]>;

/**
 * 400 naming the fields at fault: extensions.fields has each field's English message (or list of
 * them), extensions.fieldIssues each field's issues as {code, params, message}, which the runtime
 * translates; `extra` adds further extensions (createUsers: a code per address and who was invited
 * all the same).
 */
export function fieldErrors(fields: FieldErrors, message = 'Some fields are not valid', extra: Record<string, unknown> = {}): GraphQLError {
  const messages = Object.fromEntries(
    Object.entries(fields).map(([name, issues]) => [name, Array.isArray(issues) ? issues.map((issue) => issue.message) : issues.message]),
  );
  const fieldIssues = Object.fromEntries(Object.entries(fields).map(([name, issues]) => [name, [issues].flat()]));
  return new GraphQLError(message, { extensions: extensionsFor('BAD_USER_INPUT', { ...extra, fields: messages, fieldIssues }) });
}

export function tooManyRequests(message: string, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(message, {
    extensions: extensionsFor('TOO_MANY_REQUESTS', {}, { 'retry-after': String(retryAfterSeconds) }),
  });
}

export const unauthenticated = (message = 'Sign in to do this') => foyerError('UNAUTHENTICATED', message);
export const notImplemented = (field: string) => foyerError('NOT_IMPLEMENTED', `${field} is not available on this server yet`);

export interface ErrorShapeOptions {
  /** Drop graphql-js's "Did you mean ...?" hints, which would spell out a schema that is not public. */
  hideSuggestions: boolean;
}

const SUGGESTION = / Did you mean .+\?$/;

/**
 * Gives every error of an answer a code and a status. Errors graphql-js and Yoga raise before
 * execution (unreadable documents, validation, variables that do not fit their types) are the
 * caller's fault: 400. A field error without a code is a server fault: 500.
 */
export function normalizeError(error: GraphQLError, options: ErrorShapeOptions): GraphQLError {
  const code = error.extensions?.code;
  const hasResponse = typeof error.extensions?.response === 'object';
  const message = options.hideSuggestions ? error.message.replace(SUGGESTION, '') : error.message;
  if (isFoyerErrorCode(code) && hasResponse && message === error.message) return error;
  const resolved: FoyerErrorCode = isFoyerErrorCode(code) ? code : error.path === undefined ? 'BAD_USER_INPUT' : 'INTERNAL_SERVER_ERROR';
  const { http: _http, unexpected: _unexpected, originalError: _originalError, ...kept } = error.extensions ?? {};
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: extensionsFor(resolved, kept),
  });
}

function normalizeResult(result: ExecutionResult, options: ErrorShapeOptions): ExecutionResult {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map((error) => normalizeError(error, options)) };
}

/** The one place answers get their error shape, whatever phase raised the error. */
export function useFoyerErrorShape(options: ErrorShapeOptions): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result)) setResult(result.map((item) => normalizeResult(item as ExecutionResult, options)));
      else if (result && typeof result === 'object' && 'errors' in result) {
        setResult(normalizeResult(result as ExecutionResult, options));
      }
    },
  };
}
