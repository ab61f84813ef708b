// Anyone may post to an app's payment webhook, and each refused event is an audit row: one address
// gets a bounded number of refusals a window (WEBHOOK_REFUSALS), then 429 and nothing written. An
// event that applies is never limited, and another address keeps its own count.
import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents } from '../../../server/db/schema.ts';
import { WEBHOOK_REFUSALS } from '../../../server/payments/webhook.ts';
import { findMembership } from '../support/tokens.ts';

let foyer: TestFoyer;

beforeAll(async () => {
  // Behind a trusted proxy, so each test names its own client address.
  foyer = await startFoyer({ trustProxy: ['127.0.0.1'] });
});
afterAll(() => foyer?.close());

const [limit] = WEBHOOK_REFUSALS;

function post(payload: string, signature: string, ip: string) {
  return fetch(`${foyer.urls.api}/payments/webhook/${foyer.demo.appId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature, 'x-forwarded-for': ip },
    body: payload,
  });
}

async function refusalsFrom(ip: string) {
  const [row] = await foyer.db
    .select({ n: count() })
    .from(auditEvents)
    .where(and(eq(auditEvents.type, 'payment.event_refused'), eq(auditEvents.ip, ip)));
  return row!.n;
}

/** A subscription update for the demo owner's Acme workspace, signed with `secret`. */
async function subscriptionUpdate(secret: string) {
  const { tenantId } = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
  const payload = JSON.stringify({
    id: `evt_${randomUUID()}`,
    object: 'event',
    type: 'customer.subscription.updated',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `sub_${randomUUID()}`,
        object: 'subscription',
        status: 'active',
        metadata: { appId: foyer.demo.appId, tenantId, planKey: 'TEAM', currency: 'USD', recurrenceInterval: 'month' },
      },
    },
  });
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

describe('refused payment webhooks', () => {
  it(`records ${limit!.max} refusals from one address a window, then answers 429 and writes nothing`, async () => {
    const ip = '198.51.100.61';
    const forged = await subscriptionUpdate('whsec_forged');
    const statuses: number[] = [];
    for (let index = 0; index < limit!.max + 10; index++) statuses.push((await post(forged.payload, forged.signature, ip)).status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(limit!.max);
    expect(statuses.slice(limit!.max)).toEqual(Array(10).fill(429));
    const limited = await post(forged.payload, 't=1,v1=00', ip);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ statusCode: 429, error: 'TOO_MANY_REQUESTS' });
    expect(await refusalsFrom(ip)).toBe(limit!.max);

    // An event the provider signed still applies from that address; another address is refused as before.
    const genuine = await subscriptionUpdate(foyer.foyer.payments.testProvider!.webhookSecret({ id: foyer.demo.appId }));
    expect((await post(genuine.payload, genuine.signature, ip)).status).toBe(200);
    expect((await post(forged.payload, forged.signature, '198.51.100.62')).status).toBe(400);
    expect(await refusalsFrom('198.51.100.62')).toBe(1);
  });
});
