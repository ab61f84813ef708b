// A small typed client of the admin API on the API host: JSON over the runtime's transport with the
// console's bearer token. Refusals become the runtime's ApiError, carrying the server's code and the
// refused fields.
import type { AuthClient } from '../../src/auth/index.ts';
import { UnauthenticatedError } from '../../src/http/errors.ts';
import { requestJson, type JsonRequest } from '../../src/http/transport.ts';
import type { AppConfig } from '../../common/app-config.ts';
import type { WebhookEventType } from '../../common/webhooks.ts';
import type {
  ApiKeySummary,
  AppDetail,
  AppSummary,
  AuditLogEntry,
  AuditLogFilter,
  Change,
  CreatedApp,
  Draft,
  NewAppBody,
  NewWorkspaceBody,
  VersionSummary,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointInput,
  Workspace,
} from './types.ts';

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

  createApp(input: NewAppBody): Promise<CreatedApp> {
    return this.request('/apps', { method: 'POST', body: input });
  }

  getApp(appId: string): Promise<AppDetail> {
    return this.request(this.appPath(appId));
  }

  saveDraft(appId: string, config: AppConfig): Promise<{ draft: Draft }> {
    return this.request(this.appPath(appId, '/draft'), { method: 'PUT', body: { config } });
  }

  discardDraft(appId: string): Promise<void> {
    return this.request(this.appPath(appId, '/draft'), { method: 'DELETE' });
  }

  changes(appId: string): Promise<{ changes: Change[]; revision: string }> {
    return this.request(this.appPath(appId, '/changes'));
  }

  /** `revision`: what the reviewed changes answered; the server refuses once the draft or the live version moved on. */
  publish(appId: string, revision: string, note?: string): Promise<{ version: VersionSummary }> {
    return this.request(this.appPath(appId, '/publish'), { method: 'POST', body: note ? { revision, note } : { revision } });
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

  apiKeys(appId: string): Promise<{ apiKeys: ApiKeySummary[] }> {
    return this.request(this.appPath(appId, '/api-keys'));
  }

  createApiKey(appId: string, name: string): Promise<{ apiKey: ApiKeySummary; key: string }> {
    return this.request(this.appPath(appId, '/api-keys'), { method: 'POST', body: { name } });
  }

  async revokeApiKey(appId: string, keyId: string): Promise<void> {
    await this.request(this.appPath(appId, `/api-keys/${encodeURIComponent(keyId)}`), { method: 'DELETE' });
  }

  regenerateClientSecret(appId: string): Promise<{ clientSecret: string }> {
    return this.request(this.appPath(appId, '/client-secret'), { method: 'POST' });
  }

  uploadLogo(appId: string, file: Blob, contentType: string): Promise<{ url: string }> {
    return this.request(this.appPath(appId, '/logo'), { method: 'POST', file: new Blob([file], { type: contentType }) });
  }

  createWorkspace(appId: string, input: NewWorkspaceBody): Promise<{ workspace: Workspace }> {
    return this.request(this.appPath(appId, '/workspaces'), { method: 'POST', body: input });
  }

  /** One page of the app's audit log; an empty type or person does not filter. */
  auditLog(appId: string, filter: AuditLogFilter): Promise<{ total: number; entries: AuditLogEntry[] }> {
    const query = new URLSearchParams({ offset: String(filter.offset), limit: String(filter.limit) });
    if (filter.type) query.set('type', filter.type);
    if (filter.person) query.set('person', filter.person);
    return this.request(this.appPath(appId, `/audit-log?${query.toString()}`));
  }

  webhooks(appId: string): Promise<{ endpoints: WebhookEndpoint[]; eventTypes: WebhookEventType[] }> {
    return this.request(this.appPath(appId, '/webhooks'));
  }

  createWebhook(appId: string, input: WebhookEndpointInput): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    return this.request(this.appPath(appId, '/webhooks'), { method: 'POST', body: input });
  }

  updateWebhook(appId: string, endpointId: string, input: Partial<WebhookEndpointInput>): Promise<{ endpoint: WebhookEndpoint }> {
    return this.request(this.webhookPath(appId, endpointId), { method: 'PUT', body: input });
  }

  deleteWebhook(appId: string, endpointId: string): Promise<void> {
    return this.request(this.webhookPath(appId, endpointId), { method: 'DELETE' });
  }

  webhookSecret(appId: string, endpointId: string): Promise<{ secret: string }> {
    return this.request(this.webhookPath(appId, endpointId, '/secret'));
  }

  rotateWebhookSecret(appId: string, endpointId: string): Promise<{ secret: string }> {
    return this.request(this.webhookPath(appId, endpointId, '/secret'), { method: 'POST' });
  }

  webhookDeliveries(appId: string, endpointId: string): Promise<{ deliveries: WebhookDelivery[] }> {
    return this.request(this.webhookPath(appId, endpointId, '/deliveries'));
  }

  resendWebhookDelivery(appId: string, endpointId: string, deliveryId: string): Promise<{ delivery: WebhookDelivery }> {
    return this.request(this.webhookPath(appId, endpointId, `/deliveries/${encodeURIComponent(deliveryId)}/resend`), { method: 'POST' });
  }

  private webhookPath(appId: string, endpointId: string, rest = ''): string {
    return this.appPath(appId, `/webhooks/${encodeURIComponent(endpointId)}${rest}`);
  }

  private appPath(appId: string, rest = ''): string {
    return `/apps/${encodeURIComponent(appId)}${rest}`;
  }

  private async request<T>(path: string, request: JsonRequest = {}): Promise<T> {
    await this.auth.ensureFresh();
    const token = this.auth.accessToken();
    if (!token) throw new UnauthenticatedError({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'Not signed in' });
    try {
      return await requestJson<T>(this.fetchFn, `${this.baseUrl}${path}`, {
        ...request,
        headers: { authorization: `Bearer ${token}` },
      });
    } catch (error) {
      // The token was refused: the console session is over, the screens fall back to "Sign in".
      if (error instanceof UnauthenticatedError) this.auth.clear();
      throw error;
    }
  }
}
