export const appQueryKey = (appId: string) => ['app', appId] as const;
export const versionsQueryKey = (appId: string) => ['versions', appId] as const;
export const auditLogQueryKey = (appId: string, filter: object) => ['audit-log', appId, filter] as const;
export const apiKeysQueryKey = (appId: string) => ['api-keys', appId] as const;
export const webhooksQueryKey = (appId: string) => ['webhooks', appId] as const;
export const webhookDeliveriesQueryKey = (appId: string, endpointId: string) => ['webhook-deliveries', appId, endpointId] as const;
