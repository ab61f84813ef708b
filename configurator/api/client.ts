// A small typed client of the admin API on the API host: JSON over fetch with the console's bearer
// token. Refusals become AdminApiError carrying the server's {statusCode, message, error, details}.
import type { AuthClient } from '../../src/auth/index.ts';
import type { AppConfig } from '../../common/app-config.ts';
import type {
  AppDetail,
  AppSummary,
  AuditLogEntry,
  AuditLogFilter,
  Change,
  CreatedApp,
  Draft,
  FieldIssue,
  VersionSummary,
  Workspace,
} from './types.ts';

export class AdminApiError extends Error {
  readonly statusCode: number;
  /** The server's machine code (VALIDATION_FAILED, UNKNOWN_APP, ...); NETWORK when no answer came. */
  readonly error: string;
  readonly details: FieldIssue[];

  constructor(statusCode: number, error: string, message: string, details: FieldIssue[] = []) {
    super(message);
    this.name = 'AdminApiError';
    this.statusCode = statusCode;
    this.error = error;
    this.details = details;
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

/** Builds the error of a non-2xx answer from its JSON body (or the status alone when there is none). */
export function errorFromAnswer(status: number, body: unknown): AdminApiError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return new AdminApiError(
    typeof fields.statusCode === 'number' ? fields.statusCode : status,
    typeof fields.error === 'string' ? fields.error : `HTTP_${status}`,
    typeof fields.message === 'string' ? fields.message : `HTTP ${status}`,
    fieldIssues(fields.details),
  );
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  raw?: { body: Blob; contentType: string };
}

export class AdminApi {
  private readonly baseUrl: string;
  private readonly auth: AuthClient;
  private readonly fetchFn: typeof fetch;

  constructor(apiUrl: string, auth: AuthClient, fetchFn: typeof fetch = (input, init) => globalThis.fetch(input, init)) {
    this.baseUrl = `${apiUrl.replace(/\/+$/, '')}/admin`;
    this.auth = auth;
    this.fetchFn = fetchFn;
  }

  listApps(): Promise<{ apps: AppSummary[] }> {
    return this.request('/apps');
  }

  createApp(input: { name: string; redirectUris?: string[] }): Promise<CreatedApp> {
    return this.request('/apps', { method: 'POST', json: input });
  }

  getApp(appId: string): Promise<AppDetail> {
    return this.request(this.appPath(appId));
  }

  saveDraft(appId: string, config: AppConfig): Promise<{ draft: Draft }> {
    return this.request(this.appPath(appId, '/draft'), { method: 'PUT', json: { config } });
  }

  discardDraft(appId: string): Promise<void> {
    return this.request(this.appPath(appId, '/draft'), { method: 'DELETE' });
  }

  changes(appId: string): Promise<{ changes: Change[]; revision: string }> {
    return this.request(this.appPath(appId, '/changes'));
  }

  /** `revision`: what the reviewed changes answered; the server refuses once the draft or the live version moved on. */
  publish(appId: string, revision: string, note?: string): Promise<{ version: VersionSummary }> {
    return this.request(this.appPath(appId, '/publish'), { method: 'POST', json: note ? { revision, note } : { revision } });
  }

  versions(appId: string): Promise<{ versions: VersionSummary[] }> {
    return this.request(this.appPath(appId, '/versions'));
  }

  version(appId: string, version: number): Promise<{ version: VersionSummary; config: AppConfig }> {
    return this.request(this.appPath(appId, `/versions/${version}`));
  }

  restore(appId: string, version: number): Promise<{ draft: Draft }> {
    return this.request(this.appPath(appId, `/versions/${version}/restore`), { method: 'POST' });
  }

  regenerateApiKey(appId: string): Promise<{ apiKey: string }> {
    return this.request(this.appPath(appId, '/api-key'), { method: 'POST' });
  }

  regenerateClientSecret(appId: string): Promise<{ clientSecret: string }> {
    return this.request(this.appPath(appId, '/client-secret'), { method: 'POST' });
  }

  uploadLogo(appId: string, file: Blob, contentType: string): Promise<{ url: string }> {
    return this.request(this.appPath(appId, '/logo'), { method: 'POST', raw: { body: file, contentType } });
  }

  createWorkspace(appId: string, input: { name: string; ownerEmail?: string }): Promise<{ workspace: Workspace }> {
    return this.request(this.appPath(appId, '/workspaces'), { method: 'POST', json: input });
  }

  /** One page of the app's audit log; an empty type or person does not filter. */
  auditLog(appId: string, filter: AuditLogFilter): Promise<{ total: number; entries: AuditLogEntry[] }> {
    const query = new URLSearchParams({ offset: String(filter.offset), limit: String(filter.limit) });
    if (filter.type) query.set('type', filter.type);
    if (filter.person) query.set('person', filter.person);
    return this.request(this.appPath(appId, `/audit-log?${query.toString()}`));
  }

  private appPath(appId: string, rest = ''): string {
    return `/apps/${encodeURIComponent(appId)}${rest}`;
  }

  private async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    await this.auth.ensureFresh();
    const token = this.auth.accessToken();
    if (!token) throw new AdminApiError(401, 'UNAUTHENTICATED', 'Not signed in');
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
    let body: BodyInit | undefined;
    if (options.raw) {
      headers['content-type'] = options.raw.contentType;
      body = options.raw.body;
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    let response: Response;
    try {
      response = await this.fetchFn(`${this.baseUrl}${path}`, {
        method: options.method ?? 'GET',
        headers,
        body,
      });
    } catch (cause) {
      throw new AdminApiError(0, 'NETWORK', cause instanceof Error ? cause.message : 'Network error');
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      // The token was refused: the console session is over, the screens fall back to "Sign in".
      if (response.status === 401) this.auth.clear();
      throw errorFromAnswer(response.status, parsed);
    }
    return parsed as T;
  }
}
