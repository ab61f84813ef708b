// The Stripe path, without Stripe: an app with its own (sealed) Stripe keys gets Stripe-shaped events
// (fixtures/ follow the shape of Stripe's API reference for API version 2025-03-31) signed with the
// stripe package's own helper, and its checkout request goes to a local HTTP server standing in for
// api.stripe.com, which answers a checkout session as Stripe does.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { sealStripeSecret } from '../../../server/payments/stripe-keys.ts';
import { StripePaymentProvider } from '../../../server/payments/stripe-provider.ts';
import { findOffer } from '../../../server/payments/catalog.ts';
import { bearer, postGraphQL } from '../support/graphql.ts';
import { findMembership, mintAccessToken, type Membership } from '../support/tokens.ts';
import { insertApp } from '../support/apps.ts';

const WEBHOOK_SECRET = 'whsec_recordedEndpointSecret';
const SECRET_KEY = 'sk_test_51QfStripeAppSecretKey';
const stripe = new Stripe(SECRET_KEY);

let foyer: TestFoyer;
let appId: string;
let member: Membership;

async function fixture(name: string): Promise<string> {
  const text = await readFile(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');
  return text.replaceAll('{{appId}}', appId).replaceAll('{{tenantId}}', member.tenantId);
}

beforeAll(async () => {
  foyer = await startFoyer();
  appId = randomUUID();
  await insertApp(foyer, {
    id: appId,
    name: 'Stripe app',
    settings: {
      payments: {
        plans: [
          { key: 'FREE', name: 'Free', prices: [{ amount: 0, currency: 'USD', recurrenceInterval: 'month' }] },
          {
            key: 'TEAM',
            name: 'Team',
            trialDays: 14,
            prices: [
              { amount: 49, currency: 'USD', recurrenceInterval: 'month' },
              { amount: 5000, currency: 'JPY', recurrenceInterval: 'month' },
            ],
          },
        ],
        stripe: {
          publishableKey: 'pk_test_51QfStripeAppPublishable',
          secretKeySealed: sealStripeSecret(foyer.config, appId, 'secretKey', SECRET_KEY),
          webhookSecretSealed: sealStripeSecret(foyer.config, appId, 'webhookSecret', WEBHOOK_SECRET),
        },
      },
    },
  });
  const tenantId = randomUUID();
  const userId = randomUUID();
  await foyer.db.insert(tenants).values({ id: tenantId, appId, name: 'Stripe workspace', onboarded: true, shouldSelectPlan: true });
  await foyer.db.insert(users).values({ id: userId, appId, email: 'owner@stripe-app.test', onboarded: true });
  await foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId, userId, role: 'OWNER', onboarded: true });
  member = await findMembership(foyer.db, 'owner@stripe-app.test', 'Stripe workspace');
});
afterAll(() => foyer?.close());

const post = (payload: string, signature: string) =>
  fetch(`${foyer.urls.api}/payments/webhook/${appId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });

async function details() {
  const answer = await postGraphQL(
    foyer.urls.api,
    {
      query:
        '{ getTenantPaymentDetails { status { paymentsEnabled shouldSelectPlan shouldSetupPayments provider } details { plan { key } trial trialDaysLeft } } }',
    },
    bearer(await mintAccessToken(foyer.db, member, { issuer: foyer.urls.auth })),
  );
  return answer.body.data!.getTenantPaymentDetails;
}

const tenantRow = async () => (await foyer.db.select().from(tenants).where(eq(tenants.id, member.tenantId)))[0]!;

describe('Stripe webhooks', () => {
  it('a completed checkout gives the workspace its plan, a trial and the Stripe customer', async () => {
    const payload = await fixture('stripe-checkout-session-completed');
    const answer = await post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    expect(answer.status).toBe(200);
    expect(await details()).toEqual({
      status: { paymentsEnabled: true, shouldSelectPlan: false, shouldSetupPayments: false, provider: 'STRIPE' },
      details: { plan: { key: 'TEAM' }, trial: true, trialDaysLeft: 14 },
    });
    expect(await tenantRow()).toMatchObject({
      customerId: 'cus_RZ3k9dLq2mX8vB',
      subscriptionId: 'sub_1QfX2gLkdIwHu7ixYq8WcT1p',
      paymentProvider: 'STRIPE',
    });
  });

  it('refuses the event signed with another secret, or too long ago, and its replay', async () => {
    const payload = await fixture('stripe-customer-subscription-updated');
    const before = await tenantRow();
    const forged = await post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_somebodyElse' }));
    expect(forged.status).toBe(400);
    const stale = await post(
      payload,
      stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 }),
    );
    expect(stale.status).toBe(400);
    const tampered = await post(
      payload.replace('"trialing"', '"active"'),
      stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    );
    expect(tampered.status).toBe(400);
    expect(await tenantRow()).toEqual(before);

    expect((await post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }))).status).toBe(200);
    const row = await tenantRow();
    expect(row).toMatchObject({ cancelAtPeriodEnd: true, subscriptionStatus: 'trialing', currentPeriodEnd: new Date(1737109500 * 1000) });
    const replay = await post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    expect(replay.status).toBe(409);
    expect(await tenantRow()).toEqual(row);
  });

  it('the deleted subscription ends the plan; the owner selects again', async () => {
    const payload = await fixture('stripe-customer-subscription-deleted');
    expect((await post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }))).status).toBe(200);
    expect(await details()).toMatchObject({ status: { shouldSelectPlan: true }, details: { plan: null, trial: false } });
  });

  it("the test-mode provider's secret does not sign for an app with Stripe keys", async () => {
    const payload = (await fixture('stripe-checkout-session-completed')).replace('evt_1QfX2hLkdIwHu7ixK0m8Qd3B', 'evt_other');
    const testSecret = foyer.foyer.payments.testProvider!.webhookSecret({ id: appId });
    expect((await post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: testSecret }))).status).toBe(400);
  });
});

describe('Stripe Checkout', () => {
  let server: Server;
  let received: { path: string; authorization: string | undefined; body: URLSearchParams }[] = [];

  const readBody = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => resolve(text));
    });

  beforeAll(async () => {
    const answer = await fixture('stripe-checkout-session-created-response');
    server = createServer(async (request, response) => {
      received.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        body: new URLSearchParams(await readBody(request)),
      });
      response.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_local' }).end(answer);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('creates a subscription-mode session with the offer inline, its metadata and the trial', async () => {
    received = [];
    const port = (server.address() as { port: number }).port;
    const provider = new StripePaymentProvider(foyer.config, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
    const [app] = await foyer.db.select().from(apps).where(eq(apps.id, appId));
    const { id, url } = await provider.createCheckout({
      app: app!,
      tenantId: member.tenantId,
      offer: findOffer(app!, 'TEAM', { currency: 'JPY', recurrenceInterval: 'month' })!,
      customerId: null,
      customerEmail: 'owner@stripe-app.test',
      successUrl: `${foyer.urls.ui}/tenant/plan?payments=checkout`,
      cancelUrl: `${foyer.urls.ui}/tenant/plan`,
    });
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(id).toMatch(/^cs_test_/);
    expect(received).toHaveLength(1);
    const [call] = received;
    expect(call!.path).toBe('/v1/checkout/sessions');
    expect(call!.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(Object.fromEntries(call!.body)).toMatchObject({
      mode: 'subscription',
      client_reference_id: member.tenantId,
      customer_email: 'owner@stripe-app.test',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'jpy',
      // JPY has no minor unit: 5000 yen is 5000, not 500000.
      'line_items[0][price_data][unit_amount]': '5000',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][product_data][name]': 'Team',
      'subscription_data[trial_period_days]': '14',
      'subscription_data[metadata][tenantId]': member.tenantId,
      'subscription_data[metadata][planKey]': 'TEAM',
      'metadata[appId]': appId,
      success_url: `${foyer.urls.ui}/tenant/plan?payments=checkout`,
    });
  });
});
