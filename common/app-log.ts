// The audit events an app's owners review in the configurator (GET /admin/apps/{appId}/audit-log):
// sign-ins and their failures, sessions, second factors, passkeys, workspace administration and the
// app's own configuration. Counters that only feed the attempt limits (token issues, options asked
// for, drafts saved on every edit) are left out. The server reads only these; the filter offers exactly these.
export const APP_LOG_EVENTS = [
  'login.success',
  'login.failure',
  'logout',
  'session.revoked',
  'session.others_revoked',
  'session.all_revoked',
  'token.refresh_reuse',
  'password.reset_requested',
  'magic_link.requested',
  'mfa.failure',
  'mfa.verified',
  'mfa.setup_finished',
  'mfa.recovery_failure',
  'mfa.recovered',
  'passkey.registered',
  'passkey.renamed',
  'passkey.deleted',
  'tenant.signup',
  'tenant.updated',
  'tenant.logo_uploaded',
  'user.invited',
  'user.updated',
  'user.deleted',
  'user.reset_link_sent',
  'user.profile_updated',
  'user.reset_link_issued',
  'enterprise.joined',
  'app.created',
  'app.published',
  'app.version_restored',
  'app.draft_discarded',
  'app.api_key_regenerated',
  'app.logo_uploaded',
  'app.api_key_created',
  'app.api_key_revoked',
  'app.workspace_created',
  'app.workspace_deleted',
] as const;

export type AppLogEvent = (typeof APP_LOG_EVENTS)[number];

/** The most entries one page of the app's audit log holds. */
export const APP_LOG_MAX_PAGE_SIZE = 100;
