// The built-in test-mode provider: a stand-in for Stripe that runs inside Foyer outside production, so
// plans can be bought, trials run out and subscriptions end on a machine with no payment account. It
// keeps its own records (test_payment_sessions, test_subscriptions), serves a hosted checkout and
// portal (pages.ts, routes.ts), and reports every change as a Stripe-shaped event signed with Stripe's
// scheme to the same webhook route Stripe posts to (server/payments/routes.ts).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { ServerConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { testPaymentSessions, testSubscriptions } from '../../db/schema.ts';
import type { App } from '../../apps/lookup.ts';
import { findOffer, trialDaysOf, type Offer } from '../catalog.ts';
import { DAY_MS, periodEnd, type PaymentClock } from '../clock.ts';
import { loadStripe } from '../stripe-provider.ts';
import { offerMetadata, type Checkout, type CheckoutRequest, type PaymentProvider, type PortalRequest } from '../provider.ts';
import type { ProviderEvent, ProviderEventObject } from '../service.ts';

export const TEST_PROVIDER_PREFIX = '/payments/test';

/** SPEC-free test cards, as Stripe's test mode has them: one pays, one is declined, one needs a confirmation. */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  needsConfirmation: '4000002500003155',
} as const;

/** A checkout or portal visit is good for an hour, as Stripe's are for longer. */
const SESSION_TTL_MS = 60 * 60 * 1000;

export type TestSession = typeof testPaymentSessions.$inferSelect;
export type TestSubscription = typeof testSubscriptions.$inferSelect;

/** Posts a signed event to the webhook route and answers its status. */
export type EventDelivery = (appId: string, payload: string, signature: string) => Promise<number>;

/** The test-mode provider's webhook secret of an app, derived from FOYER_SECRET: another app's events never verify under it. */
export function testWebhookSecret(config: Pick<ServerConfig, 'secret'>, appId: string): string {
  return `whsec_test_${createHmac('sha256', config.secret).update(`test payments webhook ${appId}`).digest('base64url')}`;
}

export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'TEST' as const;

  constructor(
    private readonly config: ServerConfig,
    private readonly db: Database,
    private readonly clock: PaymentClock,
    private readonly deliver: EventDelivery,
  ) {}

  webhookSecret(app: Pick<App, 'id'>): string {
    return testWebhookSecret(this.config, app.id);
  }

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const id = `cs_test_${randomBytes(18).toString('base64url')}`;
    await this.db.insert(testPaymentSessions).values({
      id,
      appId: request.app.id,
      tenantId: request.tenantId,
      kind: 'checkout',
      planKey: request.offer.plan.key,
      currency: request.offer.price.currency,
      recurrenceInterval: request.offer.price.recurrenceInterval,
      amount: request.offer.price.amount,
      trialDays: trialDaysOf(request.offer.plan),
      customerEmail: request.customerEmail,
      returnUrl: request.successUrl,
      cancelUrl: request.cancelUrl,
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    });
    return { id, url: `${this.config.urls.api}${TEST_PROVIDER_PREFIX}/checkout/${id}` };
  }

  async openPortal(request: PortalRequest): Promise<string> {
    const id = `bps_test_${randomBytes(18).toString('base64url')}`;
    await this.db.insert(testPaymentSessions).values({
      id,
      appId: request.app.id,
      tenantId: request.tenantId,
      kind: 'portal',
      returnUrl: request.returnUrl,
      cancelUrl: request.returnUrl,
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    });
    return `${this.config.urls.api}${TEST_PROVIDER_PREFIX}/portal/${id}`;
  }

  async cancelSubscription(app: App, subscriptionId: string): Promise<void> {
    const subscription = await this.subscription(app.id, subscriptionId);
    if (!subscription || subscription.status === 'canceled') return;
    await this.endSubscription(app, subscription);
  }

  /** An open (unexpired) session of `kind`. */
  async session(id: string, kind: 'checkout' | 'portal'): Promise<TestSession | undefined> {
    const [session] = await this.db
      .select()
      .from(testPaymentSessions)
      .where(and(eq(testPaymentSessions.id, id), eq(testPaymentSessions.kind, kind)))
      .limit(1);
    return session && session.expiresAt.getTime() > Date.now() ? session : undefined;
  }

  async setSessionStatus(id: string, status: 'open' | 'confirming' | 'completed' | 'canceled'): Promise<void> {
    await this.db.update(testPaymentSessions).set({ status }).where(eq(testPaymentSessions.id, id));
  }

  /** The workspace's running subscription, if any. */
  async currentSubscription(appId: string, tenantId: string): Promise<TestSubscription | undefined> {
    const rows = await this.db
      .select()
      .from(testSubscriptions)
      .where(and(eq(testSubscriptions.appId, appId), eq(testSubscriptions.tenantId, tenantId)));
    return rows.find((row) => row.status !== 'canceled');
  }

  private async subscription(appId: string, id: string): Promise<TestSubscription | undefined> {
    const [row] = await this.db
      .select()
      .from(testSubscriptions)
      .where(and(eq(testSubscriptions.appId, appId), eq(testSubscriptions.id, id)))
      .limit(1);
    return row;
  }

  /** The checkout was paid: a subscription starts (trialing when the plan has trial days). */
  async completeCheckout(app: App, session: TestSession): Promise<void> {
    const offer = findOffer(app, session.planKey, {
      currency: session.currency ?? '',
      recurrenceInterval: session.recurrenceInterval ?? '',
    });
    if (!offer) throw new Error('The checkout names an offer the app no longer has');
    // Claimed once: a second submit of the same checkout (a double click) starts nothing more.
    const [claimed] = await this.db
      .update(testPaymentSessions)
      .set({ status: 'completed' })
      .where(and(eq(testPaymentSessions.id, session.id), inArray(testPaymentSessions.status, ['open', 'confirming'])))
      .returning({ id: testPaymentSessions.id });
    if (!claimed) return;
    const now = this.clock.now();
    const trialEnd = session.trialDays > 0 ? new Date(now.getTime() + session.trialDays * DAY_MS) : null;
    const existingCustomer = (await this.currentSubscription(app.id, session.tenantId))?.customerId;
    const subscription: TestSubscription = {
      id: `sub_test_${randomUUID().replace(/-/g, '')}`,
      appId: app.id,
      tenantId: session.tenantId,
      customerId: existingCustomer ?? `cus_test_${randomUUID().replace(/-/g, '')}`,
      planKey: offer.plan.key,
      currency: offer.price.currency,
      recurrenceInterval: offer.price.recurrenceInterval,
      status: trialEnd ? 'trialing' : 'active',
      trialEnd,
      currentPeriodEnd: trialEnd ?? periodEnd(now, offer.price.recurrenceInterval),
      cancelAtPeriodEnd: false,
      createdAt: now,
    };
    await this.db.insert(testSubscriptions).values(subscription);
    await this.emit(app, 'checkout.session.completed', {
      id: session.id,
      object: 'checkout.session',
      customer: subscription.customerId,
      subscription: subscription.id,
      metadata: { ...offerMetadata(app.id, session.tenantId, offer) },
    });
    await this.emit(app, 'customer.subscription.created', this.subscriptionObject(subscription));
  }

  /** The portal's switches: cancel at the period's end, resume, or move to another paid offer. */
  async updateSubscription(
    app: App,
    subscription: TestSubscription,
    change: { cancelAtPeriodEnd?: boolean; offer?: Offer },
  ): Promise<void> {
    const updated: TestSubscription = {
      ...subscription,
      ...(change.cancelAtPeriodEnd !== undefined ? { cancelAtPeriodEnd: change.cancelAtPeriodEnd } : {}),
      ...(change.offer
        ? {
            planKey: change.offer.plan.key,
            currency: change.offer.price.currency,
            recurrenceInterval: change.offer.price.recurrenceInterval,
          }
        : {}),
    };
    await this.db
      .update(testSubscriptions)
      .set({
        cancelAtPeriodEnd: updated.cancelAtPeriodEnd,
        planKey: updated.planKey,
        currency: updated.currency,
        recurrenceInterval: updated.recurrenceInterval,
      })
      .where(eq(testSubscriptions.id, subscription.id));
    await this.emit(app, 'customer.subscription.updated', this.subscriptionObject(updated));
  }

  private async endSubscription(app: App, subscription: TestSubscription): Promise<void> {
    await this.db.update(testSubscriptions).set({ status: 'canceled' }).where(eq(testSubscriptions.id, subscription.id));
    await this.emit(app, 'customer.subscription.deleted', this.subscriptionObject({ ...subscription, status: 'canceled' }));
  }

  /**
   * What the provider's own scheduler does as time passes: a trial that ran out turns active, a
   * period that ended renews, or ends the subscription when it was cancelled at the period's end.
   */
  async runDue(apps: (appId: string) => Promise<App | undefined>): Promise<void> {
    const now = this.clock.now();
    const running = (await this.db.select().from(testSubscriptions)).filter(
      (row) => row.status !== 'canceled' && row.currentPeriodEnd <= now,
    );
    for (const subscription of running) {
      const app = await apps(subscription.appId);
      if (!app) continue;
      if (subscription.cancelAtPeriodEnd) {
        await this.endSubscription(app, subscription);
        continue;
      }
      let end = subscription.currentPeriodEnd;
      while (end <= now) end = periodEnd(end, subscription.recurrenceInterval);
      const renewed: TestSubscription = { ...subscription, status: 'active', currentPeriodEnd: end };
      await this.db
        .update(testSubscriptions)
        .set({ status: 'active', currentPeriodEnd: end })
        .where(eq(testSubscriptions.id, subscription.id));
      await this.emit(app, 'customer.subscription.updated', this.subscriptionObject(renewed));
    }
  }

  private subscriptionObject(subscription: TestSubscription): ProviderEventObject {
    const seconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);
    return {
      id: subscription.id,
      object: 'subscription',
      customer: subscription.customerId,
      status: subscription.status,
      cancel_at_period_end: subscription.cancelAtPeriodEnd,
      current_period_end: seconds(subscription.currentPeriodEnd),
      trial_end: seconds(subscription.trialEnd),
      metadata: {
        appId: subscription.appId,
        tenantId: subscription.tenantId,
        planKey: subscription.planKey,
        currency: subscription.currency,
        recurrenceInterval: subscription.recurrenceInterval,
      },
    };
  }

  /** Signs the event with the app's test webhook secret and posts it to the webhook route. */
  private async emit(app: App, type: string, object: ProviderEventObject): Promise<void> {
    const event: ProviderEvent & { object: 'event'; created: number; livemode: false } = {
      id: `evt_test_${randomUUID().replace(/-/g, '')}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    };
    const payload = JSON.stringify(event);
    const signature = (await loadStripe()).webhooks.generateTestHeaderString({ payload, secret: this.webhookSecret(app) });
    const status = await this.deliver(app.id, payload, signature);
    if (status >= 300) throw new Error(`The webhook refused test event ${type} with ${status}`);
  }
}
