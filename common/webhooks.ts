// The webhook event types an app's endpoints can subscribe to (server/webhooks/, docs/webhooks.md):
// the original's five tenant and tenant-user events, and the ones Foyer adds. The server accepts
// only these; the configurator offers exactly these.
export const WEBHOOK_EVENT_TYPES = [
  'TENANT_CREATED',
  'TENANT_UPDATED',
  'TENANT_USER_CREATED',
  'TENANT_USER_UPDATED',
  'TENANT_USER_DELETED',
  'USER_SIGNED_IN',
  'PAYMENT_SUBSCRIPTION_UPDATED',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
