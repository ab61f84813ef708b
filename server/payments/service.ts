// A workspace's plan and payment status. The owner's choice (server/graphql/payments/service.ts)
// takes effect at once only for a free price; a paid one waits as the pending offer
// (shouldSetupPayments) until the provider's events say the checkout went through. Only events
// (applyProviderEvent) give a workspace a paid plan, change its subscription or end it: never
// anything a browser sends.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { paymentEvents, tenants } from '../db/schema.ts';
import { recordAudit } from '../audit/service.ts';
import type { App } from '../apps/lookup.ts';
import { findOffer, plansOf, trialDaysOf } from './catalog.ts';
import { DAY_MS, type PaymentClock } from './clock.ts';
import type { OfferMetadata, PaymentProvider, ProviderName } from './provider.ts';
import { emitTenantEvent, emitWebhookEvent } from '../outbox/outbox.ts';
import { tenantModel } from '../outbox/models.ts';

export type TenantRecord = typeof tenants.$inferSelect;

/** What the payments capability needs from the server: the clock and each app's provider. */
export interface PaymentsRuntime {
  clock: PaymentClock;
  /** The app's provider: Stripe with its keys, else the test-mode one outside production, else none. */
  providerFor(app: App): PaymentProvider | null;
}

export async function findTenant(db: Database, appId: string, tenantId: string): Promise<TenantRecord | undefined> {
  const [tenant] = await db
    .select()
    .from(tenants)
    .where(and(eq(tenants.id, tenantId), eq(tenants.appId, appId)))
    .limit(1);
  return tenant;
}

export async function requireTenant(db: Database, appId: string, tenantId: string): Promise<TenantRecord> {
  const tenant = await findTenant(db, appId, tenantId);
  // The membership check that admitted the caller found this workspace a moment ago.
  if (!tenant) throw new Error(`Tenant ${tenantId} vanished during the request`);
  return tenant;
}

/** The columns that say a workspace holds no subscription. */
export const NO_SUBSCRIPTION = {
  subscriptionId: null,
  subscriptionStatus: 'none',
  trialEndsAt: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
} as const;

export const NO_PENDING_OFFER = { pendingPlan: null, pendingCurrency: null, pendingInterval: null } as const;

/** The subset of a Stripe event Foyer reads; both providers send this shape (provider.ts). */
export interface ProviderEvent {
  id: string;
  type: string;
  data: { object: ProviderEventObject };
}

export interface ProviderEventObject {
  id: string;
  object: string;
  customer?: string | { id: string } | null;
  subscription?: string | { id: string } | null;
  status?: string;
  cancel_at_period_end?: boolean;
  current_period_end?: number | null;
  trial_end?: number | null;
  items?: { data?: { current_period_end?: number | null }[] };
  metadata?: Record<string, string> | null;
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));
const dateOf = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);

/** Why an event was not applied: answered as the webhook's 4xx (routes.ts). */
export class RefusedEvent extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function metadataOf(object: ProviderEventObject, appId: string): OfferMetadata {
  const metadata = object.metadata ?? {};
  const { tenantId, planKey, currency, recurrenceInterval } = metadata;
  if (metadata.appId !== appId || !tenantId) {
    throw new RefusedEvent(400, 'UNKNOWN_TENANT', 'The event names no workspace of this app');
  }
  return { appId, tenantId, planKey: planKey ?? '', currency: currency ?? '', recurrenceInterval: recurrenceInterval ?? '' };
}

/** Subscription columns as a subscription object describes it. */
function subscriptionColumns(object: ProviderEventObject): Partial<TenantRecord> {
  const periodEnd = object.current_period_end ?? object.items?.data?.[0]?.current_period_end;
  return {
    subscriptionId: object.id,
    subscriptionStatus: object.status ?? 'active',
    trialEndsAt: dateOf(object.trial_end),
    currentPeriodEnd: dateOf(periodEnd),
    cancelAtPeriodEnd: object.cancel_at_period_end === true,
  };
}

/** The event types Foyer acts on; others are recorded (so a replay is still refused) and change nothing. */
function changesFor(
  runtime: PaymentsRuntime,
  app: App,
  tenant: TenantRecord,
  event: ProviderEvent,
  metadata: OfferMetadata,
): Partial<TenantRecord> | null {
  const object = event.data.object;
  const offer = findOffer(app, metadata.planKey, { currency: metadata.currency, recurrenceInterval: metadata.recurrenceInterval });
  switch (event.type) {
    case 'checkout.session.completed': {
      const subscriptionId = idOf(object.subscription);
      if (!offer || !subscriptionId) throw new RefusedEvent(400, 'UNKNOWN_OFFER', 'The checkout names no offer of this app');
      const trialDays = trialDaysOf(offer.plan);
      return {
        plan: offer.plan.key,
        planCurrency: offer.price.currency,
        planInterval: offer.price.recurrenceInterval,
        ...NO_PENDING_OFFER,
        subscriptionId,
        customerId: idOf(object.customer) ?? tenant.customerId,
        subscriptionStatus: trialDays > 0 ? 'trialing' : 'active',
        trialEndsAt: trialDays > 0 ? new Date(runtime.clock.now().getTime() + trialDays * DAY_MS) : null,
        cancelAtPeriodEnd: false,
        paymentsEnabled: true,
        shouldSelectPlan: false,
        shouldSetupPayments: false,
        paymentProvider: runtime.providerFor(app)?.name ?? tenant.paymentProvider,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated': {
      // Events of a subscription the workspace no longer holds (replaced by a newer checkout) change nothing.
      if (tenant.subscriptionId !== object.id) return null;
      return {
        ...subscriptionColumns(object),
        // A plan changed in the portal: the subscription's metadata names the new offer.
        ...(offer ? { plan: offer.plan.key, planCurrency: offer.price.currency, planInterval: offer.price.recurrenceInterval } : {}),
      };
    }
    case 'customer.subscription.deleted': {
      if (tenant.subscriptionId !== object.id) return null;
      return {
        plan: null,
        planCurrency: null,
        planInterval: null,
        ...NO_SUBSCRIPTION,
        subscriptionStatus: 'canceled',
        shouldSelectPlan: plansOf(app).length > 0,
      };
    }
    default:
      return null;
  }
}

/**
 * Applies one verified provider event to the workspace it names, once: the event id is recorded in
 * the same transaction, so a replay (or a retry) finds it and is refused with nothing changed. The
 * workspace must belong to `app`, whose secret verified the signature. Answers the replaced
 * subscription, which the caller ends at the provider.
 */
export async function applyProviderEvent(
  runtime: PaymentsRuntime,
  db: Database,
  app: App,
  providerName: ProviderName,
  event: ProviderEvent,
): Promise<{ replacedSubscriptionId: string | null }> {
  const metadata = metadataOf(event.data.object, app.id);
  return db.transaction(async (tx) => {
    const tenant = await findTenant(tx, app.id, metadata.tenantId);
    if (!tenant) throw new RefusedEvent(400, 'UNKNOWN_TENANT', 'The event names no workspace of this app');
    const [recorded] = await tx
      .insert(paymentEvents)
      .values({ provider: providerName, eventId: event.id, appId: app.id, tenantId: tenant.id, type: event.type })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    if (!recorded) throw new RefusedEvent(409, 'EVENT_ALREADY_APPLIED', 'This event was received before');
    const changes = changesFor(runtime, app, tenant, event, metadata);
    if (changes) await tx.update(tenants).set(changes).where(eq(tenants.id, tenant.id));
    await recordAudit(tx, {
      type: 'payment.event_applied',
      appId: app.id,
      detail: {
        tenantId: tenant.id,
        provider: providerName,
        eventId: event.id,
        eventType: event.type,
        changed: changes !== null,
        plan: changes && 'plan' in changes ? changes.plan : tenant.plan,
        subscriptionStatus: changes?.subscriptionStatus ?? tenant.subscriptionStatus,
      },
    });
    if (changes) {
      await emitTenantEvent(tx, app.id, 'TENANT_UPDATED', tenant.id);
      const updated = await tenantModel(tx, tenant.id);
      await emitWebhookEvent(tx, app.id, 'PAYMENT_SUBSCRIPTION_UPDATED', {
        tenant: updated,
        providerEventType: event.type,
        plan: updated?.plan ?? null,
        subscriptionStatus: changes.subscriptionStatus ?? tenant.subscriptionStatus,
      });
    }
    const replaced =
      event.type === 'checkout.session.completed' && tenant.subscriptionId && tenant.subscriptionId !== changes?.subscriptionId
        ? tenant.subscriptionId
        : null;
    return { replacedSubscriptionId: replaced };
  });
}
