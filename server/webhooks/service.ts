// An app's webhook endpoints and their delivery log, as the admin API manages them (routes.ts):
// every read and write is scoped to the app the caller reached, so another app's endpoint or
// delivery answers like an unknown one.
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import { AdminError, type ProblemDetail } from '../admin/errors.ts';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from '../../common/webhooks.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../../common/api/admin.ts';
import { checkHost, hostOf, RefusedAddress } from './address.ts';
import { endpointSecret, newEndpointSecret, sealEndpointSecret } from './secrets.ts';

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** More than enough for any app; bounds what one app can make the worker do. */
export const MAX_ENDPOINTS_PER_APP = 20;
const MAX_URL_LENGTH = 2000;
const MAX_DESCRIPTION_LENGTH = 200;
/** How many of an endpoint's latest deliveries the log shows. */
export const DELIVERY_LOG_SIZE = 50;

const endpointOf = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.eventTypes,
  enabled: row.enabled,
  createdAt: row.createdAt.toISOString(),
});

const deliveryOf = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  responseCode: row.lastResponseCode,
  durationMs: row.lastDurationMs,
  error: row.lastError,
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  createdAt: row.createdAt.toISOString(),
});

const invalid = (details: ProblemDetail[]) =>
  new AdminError(400, 'INVALID_WEBHOOK', details.map((detail) => detail.message).join('; '), details);
const unknownEndpoint = () => new AdminError(404, 'UNKNOWN_WEBHOOK', 'Unknown webhook endpoint');
const unknownDelivery = () => new AdminError(404, 'UNKNOWN_WEBHOOK_DELIVERY', 'Unknown webhook delivery');

interface EndpointInput {
  url?: string;
  description?: string;
  eventTypes?: string[];
  enabled?: boolean;
}

/** The body's fields, checked; `creating` requires url and eventTypes. Refuses a target the SSRF rule refuses. */
async function checkInput(config: ServerConfig, body: unknown, creating: boolean): Promise<EndpointInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid([{ path: '', code: 'type', params: { type: 'object' }, message: 'The body must be a JSON object' }]);
  const raw = body as Record<string, unknown>;
  const problems: ProblemDetail[] = [];
  const input: EndpointInput = {};
  if (raw.url !== undefined || creating) {
    const url = typeof raw.url === 'string' ? raw.url.trim() : '';
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || url.length > MAX_URL_LENGTH) {
      problems.push({ path: '/url', code: 'webAddress', params: {}, message: 'Enter an http or https URL' });
    } else if (parsed.username || parsed.password) {
      problems.push({ path: '/url', code: 'credentialsInUrl', params: {}, message: 'The URL must not contain a user name or password' });
    } else {
      try {
        await checkHost(hostOf(parsed), config.env);
        input.url = parsed.toString();
      } catch (error) {
        const refused = error instanceof RefusedAddress;
        problems.push({
          path: '/url',
          code: refused ? 'privateAddress' : 'unknownHost',
          params: {},
          message: refused ? 'The URL must point to a public address' : 'The URL’s host could not be found',
        });
      }
    }
  }
  if (raw.description !== undefined) {
    // A line break or other control character has no place in a one-line label.
    if (typeof raw.description !== 'string' || raw.description.length > MAX_DESCRIPTION_LENGTH || /\p{Cc}/u.test(raw.description)) {
      problems.push({
        path: '/description',
        code: 'oneLine',
        params: { limit: MAX_DESCRIPTION_LENGTH },
        message: `The description is one line of text of at most ${MAX_DESCRIPTION_LENGTH} characters`,
      });
    } else input.description = raw.description.trim();
  }
  if (raw.eventTypes !== undefined || creating) {
    const types = raw.eventTypes;
    if (!Array.isArray(types) || types.length === 0 || !types.every(isWebhookEventType)) {
      problems.push({
        path: '/eventTypes',
        code: 'allowedValues',
        params: { allowedValues: WEBHOOK_EVENT_TYPES },
        message: `Choose at least one event type of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      });
    } else input.eventTypes = [...new Set(types)];
  }
  if (raw.enabled !== undefined) {
    if (typeof raw.enabled !== 'boolean')
      problems.push({ path: '/enabled', code: 'type', params: { type: 'boolean' }, message: 'enabled is true or false' });
    else input.enabled = raw.enabled;
  }
  if (problems.length > 0) throw invalid(problems);
  return input;
}

/** Endpoint and delivery ids are UUIDs: anything else names nothing, and is not worth a query. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function findEndpoint(db: Database, appId: string, endpointId: string): Promise<EndpointRow> {
  if (!UUID.test(endpointId)) throw unknownEndpoint();
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.appId, appId)))
    .limit(1);
  if (!row) throw unknownEndpoint();
  return row;
}

export async function listEndpoints(db: Database, appId: string): Promise<WebhookEndpoint[]> {
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.appId, appId)).orderBy(webhookEndpoints.createdAt);
  return rows.map(endpointOf);
}

export async function createEndpoint(config: ServerConfig, db: Database, appId: string, body: unknown) {
  const input = await checkInput(config, body, true);
  const id = randomUUID();
  const secret = newEndpointSecret();
  const created = await db.transaction(async (tx) => {
    const existing = await tx.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.appId, appId));
    if (existing.length >= MAX_ENDPOINTS_PER_APP) {
      throw new AdminError(409, 'TOO_MANY_WEBHOOKS', `An app has at most ${MAX_ENDPOINTS_PER_APP} webhook endpoints`);
    }
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        appId,
        url: input.url!,
        description: input.description ?? '',
        eventTypes: input.eventTypes!,
        enabled: input.enabled ?? true,
        ...sealEndpointSecret(config, id, secret),
      })
      .returning();
    return row!;
  });
  return { endpoint: endpointOf(created), secret };
}

export async function updateEndpoint(config: ServerConfig, db: Database, appId: string, endpointId: string, body: unknown) {
  await findEndpoint(db, appId, endpointId);
  const input = await checkInput(config, body, false);
  if (Object.keys(input).length === 0) return endpointOf(await findEndpoint(db, appId, endpointId));
  const [row] = await db
    .update(webhookEndpoints)
    .set(input)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.appId, appId)))
    .returning();
  if (!row) throw unknownEndpoint();
  return endpointOf(row);
}

export async function deleteEndpoint(db: Database, appId: string, endpointId: string): Promise<void> {
  if (!UUID.test(endpointId)) throw unknownEndpoint();
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.appId, appId)))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw unknownEndpoint();
}

export async function revealSecret(config: ServerConfig, db: Database, appId: string, endpointId: string): Promise<string> {
  return endpointSecret(config, await findEndpoint(db, appId, endpointId));
}

/** A new secret; deliveries signed from now on use it. */
export async function rotateSecret(config: ServerConfig, db: Database, appId: string, endpointId: string): Promise<string> {
  await findEndpoint(db, appId, endpointId);
  const secret = newEndpointSecret();
  await db
    .update(webhookEndpoints)
    .set(sealEndpointSecret(config, endpointId, secret))
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.appId, appId)));
  return secret;
}

export async function listDeliveries(db: Database, appId: string, endpointId: string): Promise<WebhookDelivery[]> {
  await findEndpoint(db, appId, endpointId);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.appId, appId)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(DELIVERY_LOG_SIZE);
  return rows.map(deliveryOf);
}

/**
 * Sends a delivery's event again as a new delivery with the same webhook-id (a receiver that
 * de-duplicates by it sees the same message); the original stays in the log as it ended.
 */
export async function resendDelivery(db: Database, appId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  await findEndpoint(db, appId, endpointId);
  if (!UUID.test(deliveryId)) throw unknownDelivery();
  const [original] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.appId, appId)))
    .limit(1);
  if (!original) throw unknownDelivery();
  const [copy] = await db
    .insert(webhookDeliveries)
    .values({
      id: randomUUID(),
      eventId: original.eventId,
      appId,
      endpointId,
      eventType: original.eventType,
      body: original.body,
    })
    .returning();
  return deliveryOf(copy!);
}
