// Errors of calls to Foyer's servers (docs/SPEC.md section 8, "Client status handling"), for the runtime,
// its auth clients and the configurator alike. A failure with no response (network error, abort) is
// never wrapped: callers get the original error.

/** A refused value of a request body: its JSON pointer and why (the admin API's `details`). */
export interface FieldIssue {
  path: string;
  message: string;
}

export interface ApiErrorInit {
  message: string;
  /** Machine code from the server: the REST body's `error` field or the GraphQL `extensions.code`. */
  code?: string;
  statusCode: number;
  details?: unknown;
  issues?: FieldIssue[];
}

export class ApiError extends Error {
  readonly code?: string;
  readonly statusCode: number;
  readonly details?: unknown;
  /** The refused fields the answer named (empty when it named none). */
  readonly issues: FieldIssue[];

  constructor({ message, code, statusCode, details, issues = [] }: ApiErrorInit) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = statusCode;
    this.details = details;
    this.issues = issues;
  }
}

/** HTTP 401: the caller is not (or no longer) signed in. */
export class UnauthenticatedError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'UnauthenticatedError';
  }
}

/** HTTP 403: signed in, but not allowed. */
export class ForbiddenError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init);
    this.name = 'ForbiddenError';
  }
}

/** The one status mapping shared by REST and GraphQL answers. */
export function errorForStatus(init: ApiErrorInit): ApiError {
  if (init.statusCode === 401) return new UnauthenticatedError(init);
  if (init.statusCode === 403) return new ForbiddenError(init);
  return new ApiError(init);
}
