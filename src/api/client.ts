// The API-host client: GraphQL and REST calls with docs/SPEC.md section 7's headers and section 8's
// status handling (401 → the auth client clears the session; 403 → the forbidden handlers).

import type { AuthClient } from '../auth/types.ts';
import type { ClientConfig } from '../config.ts';
import type { TypedDocumentString } from '../gql/graphql.ts';
import { ApiError, ForbiddenError, UnauthenticatedError, errorForStatus } from '../http/errors.ts';
import { errorFromResponse, readJsonBody, requestJson, type FetchFn, type JsonRequest } from '../http/transport.ts';

export type ForbiddenHandler = (error: ForbiddenError) => void;

export interface ApiLogger {
  error(message: string, ...details: unknown[]): void;
}

export interface ApiClientOptions {
  /** Called on every 403 answer; more can be added with ApiClient.onForbidden. */
  onForbidden?: ForbiddenHandler;
  fetch?: FetchFn;
  logger?: ApiLogger;
}

export interface ApiClient {
  request<TResult, TVariables>(document: TypedDocumentString<TResult, TVariables>, variables?: TVariables): Promise<TResult>;
  /** A REST call to the API host; `path` starts with '/'. */
  rest<TResult>(path: string, request?: JsonRequest): Promise<TResult>;
  /** Adds a 403 handler; answers a function that removes it. */
  onForbidden(handler: ForbiddenHandler): () => void;
}

interface GraphQLErrorEntry {
  message?: unknown;
  path?: unknown;
  extensions?: {
    code?: unknown;
    exception?: { httpStatus?: unknown };
    response?: { statusCode?: unknown };
  };
}

interface GraphQLAnswer {
  data?: unknown;
  errors?: GraphQLErrorEntry[];
}

/** The operation a document defines (codegen documents put the operation before its fragments). */
export function operationNameOf(query: string): string | undefined {
  return /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(query)?.[1];
}

/** docs/SPEC.md section 8: the status sits in extensions.exception.httpStatus or extensions.response.statusCode. */
export function graphQLErrorStatus(entry: GraphQLErrorEntry): number | undefined {
  const status = entry.extensions?.exception?.httpStatus ?? entry.extensions?.response?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** A GraphQL error with no status of its own on a 2xx answer is a server failure. */
const UNSTATED_GRAPHQL_ERROR_STATUS = 500;

/** What the API client needs of the auth client: its headers, renewal, and a way to drop a dead session. */
export type ApiCredentials = Pick<AuthClient, 'apiHeaders' | 'ensureFresh' | 'clear'>;

export function createApiClient(config: ClientConfig, auth: ApiCredentials, options: ApiClientOptions = {}): ApiClient {
  const apiUrl = config.apiUrl.replace(/\/+$/, '');
  const fetchFn: FetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const logger: ApiLogger = options.logger ?? console;
  const forbiddenHandlers = new Set<ForbiddenHandler>(options.onForbidden ? [options.onForbidden] : []);

  function handled(error: ApiError): ApiError {
    if (error instanceof UnauthenticatedError) auth.clear(error.code === 'MEMBERSHIP_ENDED' ? 'membershipEnded' : undefined);
    if (error instanceof ForbiddenError) for (const handler of [...forbiddenHandlers]) handler(error);
    return error;
  }

  async function request<TResult, TVariables>(
    document: TypedDocumentString<TResult, TVariables>,
    variables?: TVariables,
  ): Promise<TResult> {
    await auth.ensureFresh();
    const query = document.toString();
    const operationName = operationNameOf(query);
    let response: Response;
    try {
      response = await fetchFn(`${apiUrl}${config.graphqlPath}`, {
        method: 'POST',
        headers: {
          ...auth.apiHeaders(),
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
        },
        body: JSON.stringify({ operationName, query, variables: variables ?? {} }),
      });
    } catch (error) {
      logger.error(`GraphQL ${operationName ?? '(anonymous)'}: no response`, error);
      throw error;
    }
    const answer = (await readJsonBody(response)) as GraphQLAnswer | undefined;
    const errors = Array.isArray(answer?.errors) ? answer.errors : [];
    if (errors.length > 0) {
      const entries = errors.map((entry) => ({
        message: entry.message,
        code: entry.extensions?.code,
        status: graphQLErrorStatus(entry),
        path: entry.path,
      }));
      logger.error(`GraphQL ${operationName ?? '(anonymous)'} failed`, entries);
      const first = errors[0]!;
      throw handled(
        errorForStatus({
          message: typeof first.message === 'string' ? first.message : 'GraphQL error',
          code: typeof first.extensions?.code === 'string' ? first.extensions.code : undefined,
          statusCode: graphQLErrorStatus(first) ?? (response.ok ? UNSTATED_GRAPHQL_ERROR_STATUS : response.status),
          details: errors,
        }),
      );
    }
    if (!response.ok) throw handled(errorFromResponse(response, answer));
    if (answer?.data === undefined || answer.data === null) {
      throw new ApiError({ message: 'GraphQL answer without data', statusCode: response.status, details: answer });
    }
    return answer.data as TResult;
  }

  async function rest<TResult>(path: string, jsonRequest: JsonRequest = {}): Promise<TResult> {
    await auth.ensureFresh();
    try {
      return await requestJson<TResult>(fetchFn, `${apiUrl}${path}`, {
        ...jsonRequest,
        headers: { ...auth.apiHeaders(), ...jsonRequest.headers },
      });
    } catch (error) {
      throw error instanceof ApiError ? handled(error) : error;
    }
  }

  return {
    request,
    rest,
    onForbidden(handler) {
      forbiddenHandlers.add(handler);
      return () => {
        forbiddenHandlers.delete(handler);
      };
    },
  };
}
