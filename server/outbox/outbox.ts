// Writes webhook events into the outbox (webhook_deliveries), always with the transaction (`tx`) of
// the change that causes them: a change that rolls back takes its events with it, and a committed
// one always has them. One row per subscribed, enabled endpoint of the app; the worker posts them
// (server/webhooks/worker.ts), so the request never waits for a receiver. A folder of its own: the
// capabilities that make changes write here, and the webhooks capability, above them, delivers.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import type { WebhookEventType } from '../../common/webhooks.ts';
import { tenantModel, tenantUserModel } from './models.ts';

/** Answers the event's id (the webhook-id), or undefined when no endpoint of the app takes the type. */
export async function emitWebhookEvent(tx: Database, appId: string, type: WebhookEventType, data: unknown): Promise<string | undefined> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.appId, appId),
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.eventTypes} @> ${JSON.stringify([type])}::jsonb`,
      ),
    );
  if (endpoints.length === 0) return undefined;
  const body = { events: [{ type, timestamp: new Date().toISOString(), data }] };
  const eventId = `msg_${randomUUID()}`;
  await tx
    .insert(webhookDeliveries)
    .values(endpoints.map((endpoint) => ({ id: randomUUID(), eventId, appId, endpointId: endpoint.id, eventType: type, body })));
  return eventId;
}

/**
 * Takes back events of a change that was itself taken back after commit (a signup or invitation
 * whose mail could not go out): what no worker has posted yet is never sent.
 */
export async function withdrawWebhookEvents(tx: Database, eventIds: (string | undefined)[]): Promise<void> {
  const ids = eventIds.filter((id): id is string => id !== undefined);
  if (ids.length === 0) return;
  await tx.delete(webhookDeliveries).where(and(inArray(webhookDeliveries.eventId, ids), eq(webhookDeliveries.status, 'pending')));
}

/** TENANT_CREATED or TENANT_UPDATED with the workspace as `tx` now sees it. */
export async function emitTenantEvent(tx: Database, appId: string, type: 'TENANT_CREATED' | 'TENANT_UPDATED', tenantId: string) {
  const data = await tenantModel(tx, tenantId);
  return data && emitWebhookEvent(tx, appId, type, data);
}

/**
 * TENANT_USER_CREATED, _UPDATED or _DELETED with the membership as `tx` now sees it: call it after a
 * creation or change, and before a deletion.
 */
export async function emitTenantUserEvent(
  tx: Database,
  appId: string,
  type: 'TENANT_USER_CREATED' | 'TENANT_USER_UPDATED' | 'TENANT_USER_DELETED',
  tenantUserId: string,
) {
  const data = await tenantUserModel(tx, tenantUserId);
  return data && emitWebhookEvent(tx, appId, type, data);
}
