// The webhook event types an app's endpoints can subscribe to (server/webhooks/, README "Webhooks"):
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

/** Where a delivery stands: waiting for its next attempt, being posted, done, or given up after the retry window. */
export type WebhookDeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

/** One of an app's webhook endpoints as the admin API answers it (server/webhooks/service.ts); its secret is fetched on request. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  createdAt: string;
}

/** One delivery of an event to an endpoint, as the delivery log shows it. */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseCode: number | null;
  durationMs: number | null;
  error: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}
