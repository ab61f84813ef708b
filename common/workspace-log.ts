// The audit events a workspace's administration log shows (GraphQL workspaceLog): the server reads
// only these, and the log's event filter offers exactly these.
export const WORKSPACE_LOG_EVENTS = [
  'user.invited',
  'user.updated',
  'user.deleted',
  'user.reset_link_sent',
  'tenant.updated',
  'tenant.logo_uploaded',
] as const;
