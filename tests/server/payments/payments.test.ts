// Plans and payments end to end on the server: the plan calls, the test-mode provider's hosted
// checkout and portal through the API host's cookie, its events through the webhook route, the
// payment clock, and the refusals (roles, unknown offers, forged, replayed and cross-app events).
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { DAY_MS } from '../../../server/payments/clock.ts';
import { TEST_CARDS } from '../../../server/payments/test-provider/provider.ts';
import { bearer, errorCodes, postGraphQL } from '../support/graphql.ts';
import { findMembership, mintAccessToken, type Membership } from '../support/tokens.ts';
import { insertApp } from '../support/apps.ts';

let foyer: TestFoyer;
let owner: Membership;
let admin: Membership;
let ownerAtGlobex: Membership;
let viewer: Membership;
let manager: Membership;

beforeAll(async () => {
  foyer = await startFoyer();
  owner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
  admin = await findMembership(foyer.db, 'admin@acme.demo.foyer.test', 'Acme');
  ownerAtGlobex = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Globex');
  viewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
  const userId = randomUUID();
  await foyer.db.insert(users).values({ id: userId, appId: foyer.demo.appId, email: 'manager@acme.demo.foyer.test', onboarded: true });
  await foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId: owner.tenantId, userId, role: 'MANAGER', onboarded: true });
  manager = await findMembership(foyer.db, 'manager@acme.demo.foyer.test', 'Acme');
});
afterAll(() => foyer?.close());

const tokenFor = (membership: Membership) => mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth });

async function ask(membership: Membership, query: string, variables?: Record<string, unknown>) {
  return postGraphQL(foyer.urls.api, { query, variables }, bearer(await tokenFor(membership)));
}

const DETAILS = `status { paymentsEnabled shouldSelectPlan shouldSetupPayments provider }
  details { plan { key } price { amount currency recurrenceInterval } trial trialDaysLeft }`;
const SET_PLAN = `mutation ($planKey: String!, $currency: String!, $interval: String!) {
  setTenantPlanDetails(details: { planKey: $planKey, priceOffer: { currency: $currency, recurrenceInterval: $interval } }) { ${DETAILS} }
}`;

const setPlan = (membership: Membership, planKey: string, currency: string, interval: string) =>
  ask(membership, SET_PLAN, { planKey, currency, interval });

async function detailsOf(membership: Membership) {
  const answer = await ask(membership, `{ getTenantPaymentDetails { ${DETAILS} } }`);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.getTenantPaymentDetails as {
    status: Record<string, unknown>;
    details: { plan: { key: string } | null; price: Record<string, unknown> | null; trial: boolean; trialDaysLeft: number };
  };
}

const tenantRow = async (tenantId: string) => (await foyer.db.select().from(tenants).where(eq(tenants.id, tenantId)))[0]!;

interface PageMove {
  cookie: string;
  ticket: string;
}

/** The API host's payment cookie for `membership` and the ticket of the move, as the runtime gets them before a page move. */
async function paymentsCookie(membership: Membership): Promise<PageMove> {
  const response = await fetch(`${foyer.urls.api}/security/setCookie`, {
    method: 'POST',
    headers: { ...bearer(await tokenFor(membership)), origin: foyer.urls.ui },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
  expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  const cookie = response.headers.get('set-cookie')!;
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  const { ticket } = (await response.json()) as { ticket: string };
  return { cookie: cookie.split(';')[0]!, ticket };
}

/** What the hosted UI's payment buttons do: a page move naming the ticket, with the cookie. */
function openPaymentPage(path: string, move?: PageMove): Promise<Response> {
  const address = move ? `${path}?${new URLSearchParams({ ticket: move.ticket }).toString()}` : path;
  return follow(address, move?.cookie);
}

async function follow(path: string, cookie?: string): Promise<Response> {
  return fetch(path.startsWith('http') ? path : `${foyer.urls.api}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
}

const postForm = (url: string, form: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

/** Opens the checkout of the workspace's pending offer: the test-mode checkout page's address. */
async function openCheckout(membership: Membership): Promise<string> {
  const view = await openPaymentPage('/payments/checkoutView', await paymentsCookie(membership));
  expect(view.status).toBe(303);
  const location = view.headers.get('location')!;
  expect(location).toMatch(new RegExp(`^${foyer.urls.api}/payments/test/checkout/cs_test_`));
  return location;
}

describe('payment options', () => {
  it('anyone naming the app reads its plans, prices and taxes', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      {
        query:
          '{ getPaymentOptionsAnonymous { plans { id key name description trial trialDays prices { amount currency recurrenceInterval } } taxes { id name countryCode percentage } } }',
      },
      { 'x-app-id': foyer.demo.appId },
    );
    expect(answer.status).toBe(200);
    const options = answer.body.data!.getPaymentOptionsAnonymous as { plans: Record<string, unknown>[]; taxes: unknown[] };
    expect(options.plans.map((plan) => [plan.key, plan.trial, plan.trialDays])).toEqual([
      ['FREEMIUM', false, 0],
      ['ESSENTIAL', false, 0],
      ['TEAM', true, 14],
    ]);
    expect(options.plans[2]!.prices).toContainEqual({ amount: 49, currency: 'USD', recurrenceInterval: 'month' });
    expect(options.taxes).toEqual([{ id: 'SE:VAT', name: 'VAT', countryCode: 'SE', percentage: 25 }]);
  });
});

describe('choosing a plan', () => {
  it('a free price is the plan at once; a paid one waits for its checkout', async () => {
    const free = await setPlan(owner, 'FREEMIUM', 'eur', 'month');
    expect(free.body.errors).toBeUndefined();
    expect(free.body.data!.setTenantPlanDetails).toMatchObject({
      status: { shouldSetupPayments: false, shouldSelectPlan: false, provider: 'TEST' },
      details: { plan: { key: 'FREEMIUM' }, price: { amount: 0, currency: 'EUR', recurrenceInterval: 'month' } },
    });
    const paid = await setPlan(owner, 'ESSENTIAL', 'USD', 'month');
    expect(paid.body.data!.setTenantPlanDetails).toMatchObject({
      status: { shouldSetupPayments: true, paymentsEnabled: false },
      details: { plan: { key: 'FREEMIUM' } },
    });
    expect(await tenantRow(owner.tenantId)).toMatchObject({ plan: 'FREEMIUM', pendingPlan: 'ESSENTIAL', pendingCurrency: 'USD' });
    const audited = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'payment.plan_selected'), eq(auditEvents.tenantUserId, owner.tenantUserId)));
    expect(audited.map((event) => event.detail)).toContainEqual(expect.objectContaining({ plan: 'ESSENTIAL', checkoutNeeded: true }));
  });

  it.each([
    ['an ADMIN (the role table leaves plans to owners)', () => admin, 'FORBIDDEN'],
    ['a MANAGER', () => manager, 'FORBIDDEN'],
    ['a VIEWER', () => viewer, 'FORBIDDEN'],
  ])('%s cannot change the plan: 403, nothing changes', async (_label, who, code) => {
    const before = await tenantRow(who().tenantId);
    const answer = await setPlan(who(), 'TEAM', 'USD', 'month');
    expect(answer.status).toBe(403);
    expect(errorCodes(answer)).toEqual([code]);
    expect(await tenantRow(who().tenantId)).toEqual(before);
  });

  it('members who may not change the plan still read it', async () => {
    expect((await detailsOf(viewer)).details.plan).toEqual({ key: 'FREEMIUM' });
  });

  it.each([
    ['an unknown plan key', 'PLATINUM', 'USD', 'month', 'planKey'],
    ['a currency the plan has no price in', 'TEAM', 'JPY', 'month', 'priceOffer'],
    ['an interval the plan has no price for', 'TEAM', 'USD', 'week', 'priceOffer'],
  ])('%s: 400 naming the field, nothing changes', async (_label, planKey, currency, interval, field) => {
    const before = await tenantRow(ownerAtGlobex.tenantId);
    const answer = await setPlan(ownerAtGlobex, planKey, currency, interval);
    expect(answer.status).toBe(400);
    expect(errorCodes(answer)).toEqual(['BAD_USER_INPUT']);
    expect(Object.keys((answer.body.errors![0]!.extensions as { fields: object }).fields)).toEqual([field]);
    expect(await tenantRow(ownerAtGlobex.tenantId)).toEqual(before);
  });

  it("another app's plan key is unknown here", async () => {
    await insertApp(foyer, {
      settings: {
        payments: {
          plans: [{ key: 'ENTERPRISE', name: 'Enterprise', prices: [{ amount: 0, currency: 'USD', recurrenceInterval: 'month' }] }],
        },
      },
    });
    const answer = await setPlan(ownerAtGlobex, 'ENTERPRISE', 'USD', 'month');
    expect(errorCodes(answer)).toEqual(['BAD_USER_INPUT']);
  });
});

describe('the test-mode checkout', () => {
  it('a declined card shows the message and changes nothing; the success card starts the subscription', async () => {
    await setPlan(ownerAtGlobex, 'ESSENTIAL', 'EUR', 'month');
    const checkout = await openCheckout(ownerAtGlobex);
    const page = await follow(checkout);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('Test mode');
    expect(html).toContain('Essential');
    expect(html).toContain('€17 / mo');
    expect(html).toContain('VAT (SE): 25 %');

    const before = await tenantRow(ownerAtGlobex.tenantId);
    const declined = await postForm(`${checkout}/pay`, { card: TEST_CARDS.declined });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect(await tenantRow(ownerAtGlobex.tenantId)).toEqual(before);

    const paid = await postForm(`${checkout}/pay`, { card: '4242 4242 4242 4242' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${foyer.urls.ui}/tenant/plan?payments=checkout`);
    const details = await detailsOf(ownerAtGlobex);
    expect(details).toEqual({
      status: { paymentsEnabled: true, shouldSelectPlan: false, shouldSetupPayments: false, provider: 'TEST' },
      details: {
        plan: { key: 'ESSENTIAL' },
        price: { amount: 17, currency: 'EUR', recurrenceInterval: 'month' },
        trial: false,
        trialDaysLeft: 0,
      },
    });
    // A second submit of the same checkout starts nothing more.
    expect((await postForm(`${checkout}/pay`, { card: TEST_CARDS.succeeds })).status).toBe(410);
    const applied = await foyer.db.select().from(auditEvents).where(eq(auditEvents.type, 'payment.event_applied'));
    expect(applied.map((event) => (event.detail as { eventType: string }).eventType)).toEqual(
      expect.arrayContaining(['checkout.session.completed', 'customer.subscription.created']),
    );
  });

  it('the confirmation card asks first; a failed confirmation charges nothing, a confirmed one pays', async () => {
    await setPlan(owner, 'ESSENTIAL', 'USD', 'year');
    const checkout = await openCheckout(owner);
    const asked = await postForm(`${checkout}/pay`, { card: TEST_CARDS.needsConfirmation });
    expect(asked.status).toBe(303);
    expect(await (await follow(checkout)).text()).toContain('Confirm the payment');
    const failed = await postForm(`${checkout}/confirm`, { decision: 'fail' });
    expect(failed.status).toBe(402);
    expect((await tenantRow(owner.tenantId)).plan).toBe('FREEMIUM');
    await postForm(`${checkout}/pay`, { card: TEST_CARDS.needsConfirmation });
    const confirmed = await postForm(`${checkout}/confirm`, { decision: 'confirm' });
    expect(confirmed.status).toBe(303);
    expect((await detailsOf(owner)).details).toMatchObject({
      plan: { key: 'ESSENTIAL' },
      price: { currency: 'USD', recurrenceInterval: 'year' },
    });
  });

  it('a trial plan counts its days down on the payment clock, then turns active', async () => {
    await setPlan(ownerAtGlobex, 'TEAM', 'USD', 'month');
    const checkout = await openCheckout(ownerAtGlobex);
    expect(await (await follow(checkout)).text()).toContain('14 days, then the price above');
    await postForm(`${checkout}/pay`, { card: TEST_CARDS.succeeds });
    expect((await detailsOf(ownerAtGlobex)).details).toMatchObject({ plan: { key: 'TEAM' }, trial: true, trialDaysLeft: 14 });
    // The earlier ESSENTIAL subscription was replaced and ended at the provider.
    const replaced = await foyer.foyer.payments.testProvider!.currentSubscription(foyer.demo.appId, ownerAtGlobex.tenantId);
    expect(replaced?.planKey).toBe('TEAM');

    foyer.foyer.payments.clock.advance(10 * DAY_MS);
    expect((await detailsOf(ownerAtGlobex)).details).toMatchObject({ trial: true, trialDaysLeft: 4 });
    foyer.foyer.payments.clock.advance(5 * DAY_MS);
    await foyer.foyer.payments.runDue();
    expect((await detailsOf(ownerAtGlobex)).details).toMatchObject({ plan: { key: 'TEAM' }, trial: false, trialDaysLeft: 0 });
    expect((await tenantRow(ownerAtGlobex.tenantId)).subscriptionStatus).toBe('active');
  });

  it('without the cookie, or as a member who may not pay, the views lead to the error page', async () => {
    const anonymous = await openPaymentPage('/payments/checkoutView');
    expect(anonymous.headers.get('location')).toBe(`${foyer.urls.ui}/auth/error?error=UNAUTHENTICATED`);
    const asViewer = await openPaymentPage('/payments/subscriptionPortal', await paymentsCookie(viewer));
    expect(asViewer.headers.get('location')).toBe(`${foyer.urls.ui}/auth/error?error=FORBIDDEN`);
    const noToken = await fetch(`${foyer.urls.api}/security/setCookie`, { method: 'POST' });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ error: 'UNAUTHENTICATED' });
  });
});

describe('the test-mode portal', () => {
  it('cancels at the period end: the plan lasts until the clock passes it, then the owner selects again', async () => {
    const portal = (await openPaymentPage('/payments/subscriptionPortal', await paymentsCookie(ownerAtGlobex))).headers.get('location')!;
    expect(portal).toMatch(/\/payments\/test\/portal\/bps_test_/);
    expect(await (await follow(portal)).text()).toContain('Cancel at the end of the period');
    const cancelled = await postForm(`${portal}/cancel`, {});
    expect(await cancelled.text()).toContain('the subscription ends when the current period ends');
    const row = await tenantRow(ownerAtGlobex.tenantId);
    expect(row).toMatchObject({ plan: 'TEAM', cancelAtPeriodEnd: true });

    await postForm(`${portal}/resume`, {});
    expect((await tenantRow(ownerAtGlobex.tenantId)).cancelAtPeriodEnd).toBe(false);
    await postForm(`${portal}/cancel`, {});

    foyer.foyer.payments.clock.advance(row.currentPeriodEnd!.getTime() - foyer.foyer.payments.clock.now().getTime() + 1000);
    await foyer.foyer.payments.runDue();
    const ended = await detailsOf(ownerAtGlobex);
    expect(ended).toMatchObject({ status: { shouldSelectPlan: true, paymentsEnabled: true }, details: { plan: null, trial: false } });
  });
});

describe('the portal and other workspaces', () => {
  it("changes the plan in the portal; the change arrives as the provider's event", async () => {
    const portal = (await openPaymentPage('/payments/subscriptionPortal', await paymentsCookie(owner))).headers.get('location')!;
    const changed = await postForm(`${portal}/change`, { offer: 'TEAM|EUR|month' });
    expect(await changed.text()).toContain('The subscription was updated.');
    expect((await detailsOf(owner)).details).toMatchObject({
      plan: { key: 'TEAM' },
      price: { amount: 45, currency: 'EUR', recurrenceInterval: 'month' },
    });
    // A free offer is not for sale in the portal: nothing changes.
    await postForm(`${portal}/change`, { offer: 'FREEMIUM|EUR|month' });
    expect((await detailsOf(owner)).details.plan).toEqual({ key: 'TEAM' });
  });

  it("an owner's cookie opens only the own workspace's checkout", async () => {
    await setPlan(ownerAtGlobex, 'ESSENTIAL', 'USD', 'month');
    // Acme has nothing waiting to be paid: its owner's checkout view leads back to the plan page.
    const view = await openPaymentPage('/payments/checkoutView', await paymentsCookie(owner));
    expect(view.headers.get('location')).toBe(`${foyer.urls.ui}/tenant/plan`);
    expect((await tenantRow(ownerAtGlobex.tenantId)).pendingPlan).toBe('ESSENTIAL');
  });
});

describe('the payment pages and other sites', () => {
  const opened = async (tenantId: string) =>
    (await foyer.db.select().from(auditEvents).where(eq(auditEvents.type, 'payment.checkout_opened'))).filter(
      (event) => (event.detail as { tenantId?: string }).tenantId === tenantId,
    ).length;

  it('a GET, which another site can make with the Lax cookie (a link, an image), opens nothing', async () => {
    await setPlan(ownerAtGlobex, 'ESSENTIAL', 'EUR', 'month');
    const { cookie } = await paymentsCookie(ownerAtGlobex);
    const before = await opened(ownerAtGlobex.tenantId);
    for (const path of ['/payments/checkoutView', '/payments/subscriptionPortal', '/payments/checkoutView?ticket=guessed']) {
      const crossSite = await fetch(`${foyer.urls.api}${path}`, {
        redirect: 'manual',
        headers: { cookie, 'sec-fetch-site': 'cross-site', referer: 'https://evil.example/' },
      });
      expect(crossSite.status, path).toBe(303);
      expect(crossSite.headers.get('location'), path).toBe(`${foyer.urls.ui}/tenant/plan`);
    }
    expect(await opened(ownerAtGlobex.tenantId)).toBe(before);
  });

  it("opens the checkout for the hosted UI's move, which names the cookie's ticket, and removes the cookie", async () => {
    await setPlan(ownerAtGlobex, 'ESSENTIAL', 'EUR', 'month');
    const move = await paymentsCookie(ownerAtGlobex);
    const before = await opened(ownerAtGlobex.tenantId);
    const own = await openPaymentPage('/payments/checkoutView', move);
    expect(own.headers.get('location')).toMatch(new RegExp(`^${foyer.urls.api}/payments/test/checkout/cs_test_`));
    expect(own.headers.get('set-cookie')).toMatch(new RegExp(`^foyer_payments=;.*Expires=Thu, 01 Jan 1970`));
    expect(await opened(ownerAtGlobex.tenantId)).toBe(before + 1);
    // A browser without the cookie (the move removed it) opens nothing, even with the ticket.
    const again = await openPaymentPage('/payments/checkoutView?ticket=' + move.ticket);
    expect(again.headers.get('location')).toBe(`${foyer.urls.ui}/auth/error?error=UNAUTHENTICATED`);
    expect(await opened(ownerAtGlobex.tenantId)).toBe(before + 1);
  });
});

describe('the webhook', () => {
  const event = (tenantId: string, appId = foyer.demo.appId, id = `evt_${randomUUID()}`) => ({
    id,
    object: 'event',
    type: 'customer.subscription.updated',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: 'sub_unknown',
        object: 'subscription',
        status: 'active',
        metadata: { appId, tenantId, planKey: 'TEAM', currency: 'USD', recurrenceInterval: 'month' },
      },
    },
  });
  const post = (appId: string, payload: string, signature: string) =>
    fetch(`${foyer.urls.api}/payments/webhook/${appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
  const sign = (payload: string, secret: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret });
  const demoSecret = () => foyer.foyer.payments.testProvider!.webhookSecret({ id: foyer.demo.appId });

  it('refuses a forged signature and changes nothing', async () => {
    const before = await tenantRow(owner.tenantId);
    const payload = JSON.stringify(event(owner.tenantId));
    const answer = await post(foyer.demo.appId, payload, sign(payload, 'whsec_forged'));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: 'BAD_SIGNATURE' });
    const unsigned = await post(foyer.demo.appId, payload, 't=1,v1=00');
    expect(unsigned.status).toBe(400);
    expect(await tenantRow(owner.tenantId)).toEqual(before);
  });

  it('refuses a replay of a correctly signed event', async () => {
    const payload = JSON.stringify(event(owner.tenantId));
    expect((await post(foyer.demo.appId, payload, sign(payload, demoSecret()))).status).toBe(200);
    const before = await tenantRow(owner.tenantId);
    const replay = await post(foyer.demo.appId, payload, sign(payload, demoSecret()));
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ error: 'EVENT_ALREADY_APPLIED' });
    expect(await tenantRow(owner.tenantId)).toEqual(before);
  });

  it("refuses an event for another app's workspace, and another app's secret", async () => {
    const otherApp = await insertApp(foyer);
    const otherTenant = randomUUID();
    await foyer.db.insert(tenants).values({ id: otherTenant, appId: otherApp, name: 'Elsewhere' });
    // Signed for the demo app, naming a workspace of the other app (in its metadata and as the demo app).
    for (const body of [event(otherTenant, otherApp), event(otherTenant)]) {
      const payload = JSON.stringify(body);
      const answer = await post(foyer.demo.appId, payload, sign(payload, demoSecret()));
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'UNKNOWN_TENANT' });
    }
    // The other app's secret does not sign for the demo app.
    const payload = JSON.stringify(event(owner.tenantId));
    const otherSecret = foyer.foyer.payments.testProvider!.webhookSecret({ id: otherApp });
    expect((await post(foyer.demo.appId, payload, sign(payload, otherSecret))).status).toBe(400);
    const refused = await foyer.db.select().from(auditEvents).where(eq(auditEvents.type, 'payment.event_refused'));
    expect(refused.map((row) => (row.detail as { reason: string }).reason)).toEqual(
      expect.arrayContaining(['BAD_SIGNATURE', 'EVENT_ALREADY_APPLIED', 'UNKNOWN_TENANT']),
    );
  });
});
