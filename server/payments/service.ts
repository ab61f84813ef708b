// A workspace's plan and payment status. The owner's choice (setTenantPlanDetails) takes effect at
// once only for a free price; a paid one waits as the pending offer (shouldSetupPayments) until the
// provider's events say the checkout went through. Only events (applyProviderEvent) give a workspace
// a paid plan, change its subscription or end it: never anything a browser sends.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { paymentEvents, tenants } from '../db/schema.ts';
import { recordAudit } from '../audit/service.ts';
import type { AppRecord, MemberCaller } from '../graphql/context.ts';
import type {
  PaymentOptionsGraphql,
  SetTenantPlanDetailsInput,
  TenantPaymentDetailsGraphql,
  TenantPaymentStatusGraphql,
} from '../graphql/generated/resolvers.ts';
import { foyerError } from '../graphql/errors.ts';
import { InputProblems } from '../graphql/input.ts';
import { mayChangePlan } from '../../src/policy/payments.ts';
import { findOffer, findPlan, findPrice, planGraphql, plansOf, taxesOf, taxGraphql, trialDaysOf } from './catalog.ts';
import { DAY_MS, type PaymentClock } from './clock.ts';
import type { OfferMetadata, PaymentProvider, ProviderName } from './provider.ts';

export type TenantRecord = typeof tenants.$inferSelect;

/** What the payments capability needs from the server: the clock and each app's provider. */
export interface PaymentsRuntime {
  clock: PaymentClock;
  /** The app's provider: Stripe with its keys, else the test-mode one outside production, else none. */
  providerFor(app: AppRecord): PaymentProvider | null;
}

export function paymentOptions(app: AppRecord): PaymentOptionsGraphql {
  return { plans: plansOf(app).map(planGraphql), taxes: taxesOf(app).map(taxGraphql) };
}

export async function findTenant(db: Database, appId: string, tenantId: string): Promise<TenantRecord | undefined> {
  const [tenant] = await db
    .select()
    .from(tenants)
    .where(and(eq(tenants.id, tenantId), eq(tenants.appId, appId)))
    .limit(1);
  return tenant;
}

async function requireTenant(db: Database, appId: string, tenantId: string): Promise<TenantRecord> {
  const tenant = await findTenant(db, appId, tenantId);
  // The membership check that admitted the caller found this workspace a moment ago.
  if (!tenant) throw new Error(`Tenant ${tenantId} vanished during the request`);
  return tenant;
}

export function paymentStatusOf(runtime: PaymentsRuntime, app: AppRecord, tenant: TenantRecord): TenantPaymentStatusGraphql {
  const provider: ProviderName = runtime.providerFor(app)?.name ?? (tenant.paymentProvider as ProviderName);
  return {
    paymentsEnabled: tenant.paymentsEnabled,
    // A workspace of an app without plans has nothing to select.
    shouldSelectPlan: tenant.shouldSelectPlan && plansOf(app).length > 0,
    shouldSetupPayments: tenant.shouldSetupPayments,
    provider,
  };
}

/** Whether the workspace's trial is running, and the whole days left of it (a started day counts). */
export function trialOf(tenant: TenantRecord, now: Date): { trial: boolean; trialDaysLeft: number } {
  const left = tenant.trialEndsAt ? tenant.trialEndsAt.getTime() - now.getTime() : 0;
  const trial = tenant.subscriptionStatus === 'trialing' && left > 0;
  return { trial, trialDaysLeft: trial ? Math.ceil(left / DAY_MS) : 0 };
}

export function paymentDetailsOf(runtime: PaymentsRuntime, app: AppRecord, tenant: TenantRecord): TenantPaymentDetailsGraphql {
  const plan = findPlan(app, tenant.plan);
  const price =
    plan && tenant.planCurrency && tenant.planInterval
      ? findPrice(plan, { currency: tenant.planCurrency, recurrenceInterval: tenant.planInterval })
      : undefined;
  return {
    status: paymentStatusOf(runtime, app, tenant),
    details: { plan: plan ? planGraphql(plan) : null, price: price ? { ...price } : null, ...trialOf(tenant, runtime.clock.now()) },
  };
}

export async function tenantPaymentDetails(runtime: PaymentsRuntime, db: Database, app: AppRecord, tenantId: string) {
  return paymentDetailsOf(runtime, app, await requireTenant(db, app.id, tenantId));
}

/** The columns that say a workspace holds no subscription. */
const NO_SUBSCRIPTION = {
  subscriptionId: null,
  subscriptionStatus: 'none',
  trialEndsAt: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
} as const;

const NO_PENDING_OFFER = { pendingPlan: null, pendingCurrency: null, pendingInterval: null } as const;

/**
 * The owner picks a plan and price. Free: the workspace is on it now (a running subscription ends).
 * Paid: it waits for the checkout (shouldSetupPayments), unless it is already the running one.
 */
export async function setTenantPlanDetails(
  runtime: PaymentsRuntime,
  db: Database,
  member: MemberCaller,
  input: SetTenantPlanDetailsInput,
  ip: string,
): Promise<TenantPaymentDetailsGraphql> {
  const { app } = member;
  if (!mayChangePlan(member.role)) throw foyerError('FORBIDDEN', "Only the workspace's owners change its plan");
  const problems = new InputProblems();
  const plan = findPlan(app, input.planKey);
  if (!plan) problems.add('planKey', 'This app has no such plan');
  const price = plan ? findPrice(plan, input.priceOffer) : undefined;
  if (plan && !price) problems.add('priceOffer', 'The plan has no such price');
  problems.throwIfAny();
  const offer = { plan: plan!, price: price! };

  const tenant = await requireTenant(db, app.id, member.tenantId);
  const paid = offer.price.amount > 0;
  const running =
    tenant.plan === offer.plan.key &&
    tenant.planCurrency === offer.price.currency &&
    tenant.planInterval === offer.price.recurrenceInterval &&
    (!paid || tenant.subscriptionStatus === 'trialing' || tenant.subscriptionStatus === 'active');
  const provider = runtime.providerFor(app);
  if (paid && !running && !provider) throw foyerError('PAYMENTS_NOT_CONFIGURED', 'This app takes no payments yet');

  const changes: Partial<TenantRecord> = running
    ? { ...NO_PENDING_OFFER, shouldSetupPayments: false, shouldSelectPlan: false }
    : paid
      ? {
          pendingPlan: offer.plan.key,
          pendingCurrency: offer.price.currency,
          pendingInterval: offer.price.recurrenceInterval,
          shouldSetupPayments: true,
        }
      : {
          plan: offer.plan.key,
          planCurrency: offer.price.currency,
          planInterval: offer.price.recurrenceInterval,
          ...NO_PENDING_OFFER,
          ...NO_SUBSCRIPTION,
          shouldSelectPlan: false,
          shouldSetupPayments: false,
        };
  await db.transaction(async (tx) => {
    await tx.update(tenants).set(changes).where(and(eq(tenants.id, tenant.id), eq(tenants.appId, app.id)));
    await recordAudit(tx, {
      type: 'payment.plan_selected',
      appId: app.id,
      userId: member.userId,
      tenantUserId: member.tenantUserId,
      ip,
      detail: {
        tenantId: tenant.id,
        plan: offer.plan.key,
        currency: offer.price.currency,
        interval: offer.price.recurrenceInterval,
        checkoutNeeded: paid && !running,
      },
    });
  });
  // A free plan replaces the subscription: the provider ends it (its event finds no workspace holding it).
  if (!paid && tenant.subscriptionId && provider) await provider.cancelSubscription(app, tenant.subscriptionId);
  return tenantPaymentDetails(runtime, db, app, tenant.id);
}

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
  app: AppRecord,
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
  app: AppRecord,
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
    const replaced =
      event.type === 'checkout.session.completed' && tenant.subscriptionId && tenant.subscriptionId !== changes?.subscriptionId
        ? tenant.subscriptionId
        : null;
    return { replacedSubscriptionId: replaced };
  });
}
