// Plans, prices and taxes as an app's config document holds them (schema/app-config.schema.json
// `payments`), and the rules the server and the runtime share: who changes a workspace's plan, how a
// price is told apart, and its currency symbol (SPEC.md section 9; the interval abbreviations are texts
// of the locale files).
import type { AppConfig, Role } from './app-config.ts';

export type PaymentSettings = NonNullable<AppConfig['payments']>;
export type PricingPlan = NonNullable<PaymentSettings['plans']>[number];
/** `amount` in the currency's main unit (19.5 is 19.50); 0 is free: no payment is asked for. */
export type PlanPrice = PricingPlan['prices'][number];
export type RecurrenceInterval = PlanPrice['recurrenceInterval'];
export const RECURRENCE_INTERVALS = ['day', 'week', 'month', 'year'] as const satisfies readonly RecurrenceInterval[];
export type Tax = NonNullable<PaymentSettings['taxes']>[number];
/** As the admin API reads and writes them: secrets go in, only has* comes out. */
export type StripeKeys = NonNullable<PaymentSettings['stripe']>;

/** The role table's rule for plans: only owners change the workspace's plan (and pay for it). */
export const PLAN_CHANGING_ROLES: readonly Role[] = ['OWNER'];

export function mayChangePlan(role: string | undefined | null): boolean {
  return (PLAN_CHANGING_ROLES as readonly string[]).includes(role ?? '');
}

/** A price offer as SetTenantPlanDetailsInput and signup send it. */
export interface PriceOffer {
  currency: string;
  recurrenceInterval: string;
}

/** Offers compare by currency (any case) and interval. */
export function sameOffer(price: PriceOffer, offer: PriceOffer): boolean {
  return (
    price.currency.toUpperCase() === offer.currency.trim().toUpperCase() &&
    price.recurrenceInterval === offer.recurrenceInterval.trim().toLowerCase()
  );
}

/** SPEC.md section 9: USD $, EUR €, JPY ¥, otherwise the code itself. */
const CURRENCY_SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', JPY: '¥' };

export function currencySymbol(currency: string): string {
  return CURRENCY_SYMBOLS[currency.toUpperCase()] ?? currency.toUpperCase();
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a workspace's trial is running, and the whole days left of it (a started day counts): the
 * server's tenant answers and its webhook events (server/outbox/models.ts) both say it.
 */
export function trialOf(
  tenant: { subscriptionStatus: string; trialEndsAt: Date | null },
  now: Date,
): { trial: boolean; trialDaysLeft: number } {
  const left = tenant.trialEndsAt ? tenant.trialEndsAt.getTime() - now.getTime() : 0;
  const trial = tenant.subscriptionStatus === 'trialing' && left > 0;
  return { trial, trialDaysLeft: trial ? Math.ceil(left / DAY_MS) : 0 };
}

/**
 * Whether a workspace must pick a plan: its flag, except that a workspace of an app without plans has
 * nothing to select. The server's tenant answers and its webhook events both say it.
 */
export function mustSelectPlan(tenant: { shouldSelectPlan: boolean }, payments: PaymentSettings | undefined): boolean {
  return tenant.shouldSelectPlan && (payments?.plans ?? []).length > 0;
}
