// The fetch-based JSON transport shared by the API client, the auth clients' session calls and the
// configurator's admin client.
// Non-2xx answers become ApiError (or its 401/403 subclasses) built from the server's
// {statusCode, message, error} body; a failure without a response is rethrown unchanged.

import { errorForStatus, type ApiError, type FieldIssue } from './errors.ts';

export type FetchFn = typeof fetch;

export interface JsonRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as JSON when present. */
  body?: unknown;
  /** Raw bytes (an upload) sent with the file's own type, instead of a JSON body. */
  file?: Blob;
  credentials?: RequestCredentials;
}

/** Reads a body as JSON when it is JSON; answers undefined for empty or non-JSON bodies. */
export async function readJsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function fieldIssues(value: unknown): FieldIssue[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { path, message } = item as Record<string, unknown>;
    return typeof path === 'string' ? [{ path, message: typeof message === 'string' ? message : '' }] : [];
  });
}

export function errorFromResponse(response: Response, body: unknown): ApiError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message = Array.isArray(fields.message)
    ? fields.message.join(', ')
    : typeof fields.message === 'string'
      ? fields.message
      : response.statusText || `HTTP ${response.status}`;
  return errorForStatus({
    message,
    code: typeof fields.error === 'string' ? fields.error : undefined,
    statusCode: response.status,
    details: body,
    issues: fieldIssues(fields.details),
  });
}

export async function requestJson<T>(fetchFn: FetchFn, url: string, request: JsonRequest = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | Blob | undefined;
  if (request.file) {
    headers['content-type'] = request.file.type || 'application/octet-stream';
    body = request.file;
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  const response = await fetchFn(url, {
    method: request.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    credentials: request.credentials,
  });
  const parsed = await readJsonBody(response);
  if (!response.ok) throw errorFromResponse(response, parsed);
  return parsed as T;
}
