// Posts the webhook outbox (webhook_deliveries). Every Foyer process runs one worker; several
// processes on one PostgreSQL share the work: a worker claims due rows with FOR UPDATE SKIP LOCKED,
// so two never claim the same one, and marks them `delivering` until a lease ends. A worker that
// dies mid-delivery loses nothing: when the lease ends, the row is due again. A worker stopped on
// shutdown finishes the POSTs it claimed before it lets go.
//
// A delivery succeeds on a 2xx answer. Any other answer, a refused connection or a timeout is
// retried with exponential backoff and jitter until the retry window (24 hours by default) has
// passed since the event, and the delivery is then marked failed. Redirects are not followed.
import http from 'node:http';
import https from 'node:https';
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import { checkHost, guardedLookup, hostOf, RefusedAddress } from './address.ts';
import { endpointSecret } from './secrets.ts';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** How many deliveries one poll claims. */
const BATCH_SIZE = 20;
/** The longest wait between two attempts, however many failed. */
const MAX_RETRY_DELAY_MS = 60 * 60_000;
/** How much of a response error's text the delivery log keeps. */
const MAX_ERROR_LENGTH = 300;

export interface WebhookWorker {
  /** Stops polling and waits for the deliveries it claimed to be posted and recorded. */
  stop(): Promise<void>;
}

interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** The delay before attempt `attempts + 1`: doubling from the base, capped, with up to half of it random. */
export function retryDelayMs(baseMs: number, attempts: number): number {
  const delay = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), Math.max(baseMs, MAX_RETRY_DELAY_MS));
  return delay / 2 + Math.random() * (delay / 2);
}

function post(config: ServerConfig, url: URL, headers: Record<string, string>, payload: string): Promise<number> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
        lookup: guardedLookup(config.env),
        timeout: config.webhooks.timeoutMs,
        signal: AbortSignal.timeout(config.webhooks.timeoutMs),
      },
      (response) => {
        // The answer's body is not needed: drained so the connection closes.
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`No answer within ${config.webhooks.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(payload);
  });
}

async function attempt(config: ServerConfig, db: Database, delivery: DeliveryRow): Promise<AttemptResult> {
  const started = Date.now();
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId)).limit(1);
  if (!endpoint) return { statusCode: null, error: 'The endpoint was deleted', durationMs: 0 };
  try {
    const url = new URL(endpoint.url);
    // A literal address skips the connection's DNS lookup, so it is checked here.
    await checkHost(hostOf(url), config.env);
    const payload = JSON.stringify(delivery.body);
    const timestamp = new Date();
    const signature = new Webhook(endpointSecret(config, endpoint)).sign(delivery.eventId, timestamp, payload);
    const statusCode = await post(
      config,
      url,
      {
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
        'user-agent': 'Foyer-Webhooks/1',
      },
      payload,
    );
    const ok = statusCode >= 200 && statusCode < 300;
    return { statusCode, error: ok ? null : `HTTP ${statusCode}`, durationMs: Date.now() - started };
  } catch (error) {
    const message = error instanceof RefusedAddress ? error.message : error instanceof Error ? error.message : String(error);
    return { statusCode: null, error: message.slice(0, MAX_ERROR_LENGTH), durationMs: Date.now() - started };
  }
}

/** Records an attempt: succeeded, due again after the backoff, or failed once the retry window is over. */
async function record(config: ServerConfig, db: Database, delivery: DeliveryRow, result: AttemptResult): Promise<void> {
  const now = Date.now();
  const succeeded = result.error === null;
  const nextAttemptAt = new Date(now + retryDelayMs(config.webhooks.retryBaseMs, delivery.attempts));
  const windowOver = nextAttemptAt.getTime() > delivery.createdAt.getTime() + config.webhooks.retryForMs;
  await db
    .update(webhookDeliveries)
    .set({
      status: succeeded ? 'succeeded' : windowOver ? 'failed' : 'pending',
      nextAttemptAt,
      claimedUntil: null,
      lastAttemptAt: new Date(now - result.durationMs),
      lastResponseCode: result.statusCode,
      lastDurationMs: result.durationMs,
      lastError: result.error,
    })
    .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'delivering')));
}

/**
 * Claims up to BATCH_SIZE due deliveries: pending ones whose time has come, and claimed ones whose
 * lease ended (their worker stopped without recording). Rows another worker holds are skipped.
 */
async function claim(config: ServerConfig, db: Database): Promise<DeliveryRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        or(
          and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, sql`now()`)),
          and(eq(webhookDeliveries.status, 'delivering'), lte(webhookDeliveries.claimedUntil, sql`now()`)),
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt)
      .limit(BATCH_SIZE)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    // The lease outlasts the slowest POST with room to spare.
    const leaseMs = config.webhooks.timeoutMs * 2 + 30_000;
    return tx
      .update(webhookDeliveries)
      .set({
        status: 'delivering',
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        claimedUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
      })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });
}

export function startWebhookWorker(options: { config: ServerConfig; db: Database; log: FastifyBaseLogger }): WebhookWorker {
  const { config, db, log } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  /** Claims and posts what is due now. */
  async function poll(): Promise<void> {
    const claimed = await claim(config, db);
    await Promise.all(
      claimed.map(async (delivery) => {
        const result = await attempt(config, db, delivery);
        await record(config, db, delivery, result);
        if (result.error)
          log.info({ deliveryId: delivery.id, attempts: delivery.attempts, error: result.error }, 'webhook delivery failed');
      }),
    );
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll().catch((error: unknown) => log.error({ err: error }, 'webhook worker poll failed'));
      void running.then(schedule);
    }, config.webhooks.pollIntervalMs);
  }
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
