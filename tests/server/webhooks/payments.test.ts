// The payment events webhooks carry: an owner picks a paid plan and pays in the test-mode provider's
// checkout; the provider's events, applied to the workspace, arrive as PAYMENT_SUBSCRIPTION_UPDATED
// (with the workspace, the provider's event type, plan and subscription status) and TENANT_UPDATED.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { bearer, postGraphQL } from '../support/graphql.ts';
import { findMembership, mintAccessToken, type Membership } from '../support/tokens.ts';
import { consoleOwnerToken } from '../support/console.ts';
import { addEndpoint, startReceiver, type Receiver } from './receiver.ts';

let foyer: TestFoyer;
let owner: Membership;
let receiver: Receiver;
let secret: string;

beforeAll(async () => {
  foyer = await startFoyer({ webhooks: { pollIntervalMs: 50, retryBaseMs: 200, retryForMs: 24 * 60 * 60_000, timeoutMs: 2000 } });
  owner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Globex');
  receiver = await startReceiver();
  ({ secret } = await addEndpoint(
    foyer,
    foyer.demo.appId,
    { token: await consoleOwnerToken(foyer) },
    { url: receiver.url, eventTypes: ['PAYMENT_SUBSCRIPTION_UPDATED', 'TENANT_UPDATED'] },
  ));
});
afterAll(async () => {
  await foyer?.close();
  await receiver?.close();
});

describe('payment events', () => {
  it('a paid checkout arrives as PAYMENT_SUBSCRIPTION_UPDATED with the workspace on its new plan', async () => {
    const token = await mintAccessToken(foyer.db, owner, { issuer: foyer.urls.auth });
    const chosen = await postGraphQL(
      foyer.urls.api,
      {
        query: `mutation { setTenantPlanDetails(details: { planKey: "ESSENTIAL", priceOffer: { currency: "EUR", recurrenceInterval: "month" } }) {
          status { shouldSetupPayments } } }`,
      },
      bearer(token),
    );
    expect(chosen.body.errors).toBeUndefined();

    const cookieAnswer = await fetch(`${foyer.urls.api}/security/setCookie`, {
      method: 'POST',
      headers: { ...bearer(token), origin: foyer.urls.ui },
    });
    const cookie = cookieAnswer.headers.get('set-cookie')!.split(';')[0]!;
    const { ticket } = (await cookieAnswer.json()) as { ticket: string };
    const view = await fetch(`${foyer.urls.api}/payments/checkoutView?${new URLSearchParams({ ticket }).toString()}`, {
      redirect: 'manual',
      headers: { cookie },
    });
    const checkout = view.headers.get('location')!;
    const paid = await fetch(`${checkout}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card: '4242 4242 4242 4242' }).toString(),
    });
    expect(paid.status).toBe(303);

    const paymentEvents = () =>
      receiver
        .verifiedEvents(secret)
        .filter((event) => event.type === 'PAYMENT_SUBSCRIPTION_UPDATED' && (event.data.tenant as { id: string }).id === owner.tenantId);
    await vi.waitFor(() => expect(paymentEvents().map((event) => event.data.providerEventType)).toContain('checkout.session.completed'), {
      timeout: 20_000,
      interval: 50,
    });
    const completed = paymentEvents().find((event) => event.data.providerEventType === 'checkout.session.completed')!;
    expect(completed.data).toMatchObject({
      plan: 'ESSENTIAL',
      tenant: { id: owner.tenantId, plan: 'ESSENTIAL', paymentStatus: { paymentsEnabled: true, shouldSetupPayments: false } },
    });
    // Events are posted side by side (their order of arrival is not promised, docs/webhooks.md):
    // the workspace's own event may come after the payment's.
    await vi.waitFor(
      () =>
        expect(
          receiver
            .verifiedEvents(secret)
            .some((event) => event.type === 'TENANT_UPDATED' && event.data.id === owner.tenantId && event.data.plan === 'ESSENTIAL'),
        ).toBe(true),
      { timeout: 20_000, interval: 50 },
    );
  });
});
