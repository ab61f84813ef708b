// The management API's payment links (server/management/payment-links.ts) against the built-in
// test-mode provider: a checkout for the plan named or waiting, paid on the provider's page, then the
// subscription portal; and the refusals: nothing to pay, no subscription yet, another app's key or
// workspace (404 like an unknown one), a revoked key, a bad offer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents, tenants } from '../../../server/db/schema.ts';
import { createApiKey, revokeApiKey } from '../../../server/apps/api-keys.ts';
import { TEST_CARDS } from '../../../server/payments/test-provider/provider.ts';
import { insertApp } from '../support/apps.ts';

let foyer: TestFoyer;
let key: string;
let otherKey: string;
let tenantId: string;

async function call<Body = Record<string, unknown>>(method: string, path: string, body?: unknown, usedKey = key) {
  const headers: Record<string, string> = { 'x-api-key': usedKey };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${foyer.urls.api}/management${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Body };
}

const tenantRow = async () => (await foyer.db.select().from(tenants).where(eq(tenants.id, tenantId)))[0]!;

beforeAll(async () => {
  foyer = await startFoyer();
  ({ key } = await createApiKey(foyer.db, foyer.demo.appId, 'Back end'));
  const otherAppId = await insertApp(foyer, { name: 'Other app' });
  ({ key: otherKey } = await createApiKey(foyer.db, otherAppId, 'Other back end'));
  const created = await call<{ id: string }>('POST', '/tenant', {
    name: 'Paying workspace',
    owner: { email: 'payer@paying.example', muteNotifications: true },
  });
  expect(created.status).toBe(201);
  tenantId = created.body.id;
});
afterAll(() => foyer?.close());

describe('checkout and portal links', () => {
  it('refuses a checkout with nothing to pay and a portal without a subscription', async () => {
    expect(await call('POST', `/tenant/${tenantId}/checkoutId`, {})).toMatchObject({ status: 409, body: { error: 'NOTHING_TO_PAY' } });
    expect(await call('GET', `/tenant/${tenantId}/customerPortal`)).toMatchObject({ status: 409, body: { error: 'NO_SUBSCRIPTION' } });
    const free = await call('POST', `/tenant/${tenantId}/checkoutId`, {
      planKey: 'FREEMIUM',
      priceOffer: { currency: 'USD', recurrenceInterval: 'month' },
    });
    expect(free).toMatchObject({ status: 409, body: { error: 'NOTHING_TO_PAY' } });
  });

  it('refuses an unknown plan or price with coded details, choosing nothing', async () => {
    const before = await tenantRow();
    const unknownPlan = await call('POST', `/tenant/${tenantId}/checkoutId`, {
      planKey: 'GOLD',
      priceOffer: { currency: 'USD', recurrenceInterval: 'month' },
    });
    expect(unknownPlan).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ path: '/planKey', code: 'noSuchPlan' })] },
    });
    const unknownPrice = await call('POST', `/tenant/${tenantId}/checkoutId`, {
      planKey: 'TEAM',
      priceOffer: { currency: 'SEK', recurrenceInterval: 'month' },
    });
    expect(unknownPrice).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ path: '/priceOffer', code: 'noSuchPrice' })] },
    });
    expect(await tenantRow()).toEqual(before);
  });

  it("answers another app's workspace like an unknown one, and a revoked key with 401", async () => {
    const offer = { planKey: 'TEAM', priceOffer: { currency: 'USD', recurrenceInterval: 'month' } };
    expect(await call('POST', `/tenant/${tenantId}/checkoutId`, offer, otherKey)).toMatchObject({
      status: 404,
      body: { code: 'NBLOCKS_NOT_FOUND_TENANT_EXCEPTION' },
    });
    expect(await call('GET', `/tenant/${tenantId}/customerPortal`, undefined, otherKey)).toMatchObject({ status: 404 });
    const revoked = await createApiKey(foyer.db, foyer.demo.appId, 'Revoked');
    await revokeApiKey(foyer.db, foyer.demo.appId, revoked.id);
    expect(await call('POST', `/tenant/${tenantId}/checkoutId`, offer, revoked.key)).toMatchObject({ status: 401 });
    expect((await tenantRow()).pendingPlan).toBeNull();
  });

  it('opens a checkout for the plan named; once paid, the portal opens', async () => {
    const checkout = await call<{ id: string; url: string; publicKey: string | null }>('POST', `/tenant/${tenantId}/checkoutId`, {
      planKey: 'TEAM',
      priceOffer: { currency: 'USD', recurrenceInterval: 'month' },
    });
    expect(checkout).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^cs_test_/), publicKey: null } });
    expect(checkout.body.url).toBe(`${foyer.urls.api}/payments/test/checkout/${checkout.body.id}`);
    expect(await tenantRow()).toMatchObject({ pendingPlan: 'TEAM', shouldSetupPayments: true });
    // The original client posts {}: the plan waiting is checked out again.
    const again = await call<{ id: string }>('POST', `/tenant/${tenantId}/checkoutId`, {});
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(checkout.body.id);
    const [audit] = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'payment.checkout_opened'), eq(auditEvents.appId, foyer.demo.appId)));
    expect(audit?.detail).toMatchObject({ tenantId, plan: 'TEAM', provider: 'TEST', apiKeyId: expect.any(String) });

    const paid = await fetch(`${checkout.body.url}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card: TEST_CARDS.succeeds }).toString(),
    });
    expect(paid.status).toBe(303);
    await expect.poll(async () => (await tenantRow()).paymentsEnabled, { timeout: 10_000 }).toBe(true);
    expect(await tenantRow()).toMatchObject({ plan: 'TEAM' });

    const portal = await call<{ url: string }>('GET', `/tenant/${tenantId}/customerPortal`);
    expect(portal).toMatchObject({ status: 200, body: { url: expect.stringMatching(/\/payments\/test\/portal\/bps_test_/) } });
    expect((await fetch(portal.body.url)).status).toBe(200);
  });
});
