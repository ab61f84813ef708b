// The admin API's answers and bodies as the configurator reads and sends them: the payload types
// declared once beside the server's route schemas (common/api/admin.ts).
export type {
  ApiKeySummary,
  AppDetail,
  AppSummary,
  AuditLogEntry,
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
} from '../../common/api/admin.ts';
export { MAX_API_KEY_NAME_LENGTH, MAX_PUBLISH_NOTE_LENGTH } from '../../common/api/limits.ts';
export { LOGO_MAX_BYTES, LOGO_TYPES } from '../../common/logos.ts';
export const CUSTOM_CSS_MAX_LENGTH = 50_000;

/** The audit log screen's filter: an empty type or person does not filter. */
export interface AuditLogFilter {
  type: string;
  person: string;
  offset: number;
  limit: number;
}
