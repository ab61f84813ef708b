// The webhook worker's claims: two Foyer instances on one PostgreSQL post each event exactly once
// (FOR UPDATE SKIP LOCKED; PostgreSQL pass only, one PGlite folder belongs to one process), and a
// delivery claimed by a worker that died is posted once its lease has run out.
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig, type ServerConfig } from '../../../server/config.ts';
import { postgresHandle, type DatabaseHandle } from '../../../server/db/client.ts';
import { createFoyer, type Foyer } from '../../../server/app.ts';
import { seedDemo, type DemoData } from '../../../server/seed/demo.ts';
import { createTestPostgresDatabase, freePort, POSTGRES_ENV, startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { tenants, webhookDeliveries, webhookEndpoints } from '../../../server/db/schema.ts';
import { sealEndpointSecret } from '../../../server/webhooks/secrets.ts';
import { emitTenantEvent } from '../../../server/outbox/outbox.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const TIMINGS = { pollIntervalMs: 20, retryBaseMs: 200, retryForMs: 24 * 60 * 60_000, timeoutMs: 5000 };
const SECRET = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;

async function addEndpointRow(db: DatabaseHandle['db'], appId: string, url: string): Promise<string> {
  const id = randomUUID();
  await db.insert(webhookEndpoints).values({
    id,
    appId,
    url,
    eventTypes: ['TENANT_UPDATED'],
    ...sealEndpointSecret(loadConfig({}), id, SECRET),
  });
  return id;
}

describe.skipIf(!process.env[POSTGRES_ENV])('two instances on one PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  const handles: DatabaseHandle[] = [];
  const instances: Foyer[] = [];
  let demo: DemoData;
  let receiver: Receiver;

  beforeAll(async () => {
    database = await createTestPostgresDatabase(process.env[POSTGRES_ENV]!);
    const seeding = postgresHandle(database.url);
    handles.push(seeding);
    const base = loadConfig({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
    demo = await seedDemo(seeding.db, base.urls);
    // Slow answers keep claims open while the other worker polls.
    receiver = await startReceiver({ delayMs: 30 });
    for (let index = 0; index < 2; index += 1) {
      const handle = postgresHandle(database.url);
      handles.push(handle);
      const ports = { auth: await freePort(), api: await freePort(), ui: await freePort() };
      const devIdpPort = await freePort();
      const config: ServerConfig = {
        ...base,
        ports,
        devIdp: { port: devIdpPort, url: `http://localhost:${devIdpPort}` },
        webhooks: TIMINGS,
      };
      instances.push(await createFoyer({ config, db: handle.db, appId: demo.appId }));
    }
  });

  afterAll(async () => {
    for (const foyer of instances) await foyer.close();
    await receiver?.close();
    for (const handle of handles) await handle.close();
    await database?.drop();
  });

  it('deliver each of 60 events exactly once', async () => {
    const db = handles[0]!.db;
    await addEndpointRow(db, demo.appId, receiver.url);
    const [tenant] = await db.select().from(tenants).where(eq(tenants.appId, demo.appId)).limit(1);
    const eventIds: string[] = [];
    for (let index = 0; index < 60; index += 1) {
      await db.transaction(async (tx) => {
        await tx
          .update(tenants)
          .set({ name: `Round ${index}` })
          .where(eq(tenants.id, tenant!.id));
        eventIds.push((await emitTenantEvent(tx, demo.appId, 'TENANT_UPDATED', tenant!.id))!);
      });
    }
    await vi.waitFor(
      async () => {
        const rows = await db
          .select({ status: webhookDeliveries.status })
          .from(webhookDeliveries)
          .where(inArray(webhookDeliveries.eventId, eventIds));
        expect(rows.map((row) => row.status)).toEqual(eventIds.map(() => 'succeeded'));
      },
      { timeout: 30_000, interval: 100 },
    );
    const ids = receiver.received.map((entry) => entry.headers['webhook-id']);
    expect(ids.toSorted()).toEqual(eventIds.toSorted());
  });
});

describe('a worker that died holding a claim', () => {
  let foyer: TestFoyer;
  let receiver: Receiver;

  beforeAll(async () => {
    foyer = await startFoyer({ webhooks: TIMINGS });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await foyer?.close();
    await receiver?.close();
  });

  it('leaves the delivery to the next worker once the lease ran out, and one still leased alone', async () => {
    const endpointId = await addEndpointRow(foyer.db, foyer.demo.appId, receiver.url);
    const claimed = (eventId: string, claimedUntil: Date) => ({
      id: randomUUID(),
      eventId,
      appId: foyer.demo.appId,
      endpointId,
      eventType: 'TENANT_UPDATED',
      body: { events: [{ type: 'TENANT_UPDATED', timestamp: new Date().toISOString(), data: { id: eventId } }] },
      status: 'delivering' as const,
      attempts: 1,
      claimedUntil,
    });
    await foyer.db
      .insert(webhookDeliveries)
      .values([claimed('msg_lease_over', new Date(Date.now() - 1000)), claimed('msg_lease_running', new Date(Date.now() + 60 * 60_000))]);
    await vi.waitFor(() => expect(receiver.received.map((entry) => entry.headers['webhook-id'])).toEqual(['msg_lease_over']), {
      timeout: 20_000,
      interval: 50,
    });
    const rows = await foyer.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(webhookDeliveries.eventId);
    expect(rows.map((row) => [row.eventId, row.status, row.attempts])).toEqual([
      ['msg_lease_over', 'succeeded', 2],
      ['msg_lease_running', 'delivering', 1],
    ]);
  });
});
