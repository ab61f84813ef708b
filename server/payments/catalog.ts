// An app's plans, prices and taxes, read from its live config document (settings.payments,
// schema/app-config.schema.json): what the plan page offers and what setTenantPlanDetails and
// signup accept.
import type { App } from '../apps/lookup.ts';
import { sameOffer, type PlanPrice, type PriceOffer, type PricingPlan, type Tax } from '../../common/payments.ts';

export function plansOf(app: Pick<App, 'settings'>): PricingPlan[] {
  return app.settings.payments?.plans ?? [];
}

export function taxesOf(app: Pick<App, 'settings'>): Tax[] {
  return app.settings.payments?.taxes ?? [];
}

export function findPlan(app: Pick<App, 'settings'>, key: string | null | undefined): PricingPlan | undefined {
  return key ? plansOf(app).find((plan) => plan.key === key.trim()) : undefined;
}

export function findPrice(plan: PricingPlan, offer: PriceOffer): PlanPrice | undefined {
  return plan.prices.find((price) => sameOffer(price, offer));
}

/** A plan and one of its prices, as a workspace holds them. */
export interface Offer {
  plan: PricingPlan;
  price: PlanPrice;
}

export function findOffer(app: Pick<App, 'settings'>, key: string | null, offer: PriceOffer | null): Offer | undefined {
  const plan = findPlan(app, key);
  if (!plan || !offer) return undefined;
  const price = findPrice(plan, offer);
  return price ? { plan, price } : undefined;
}

export const trialDaysOf = (plan: PricingPlan) => plan.trialDays ?? 0;

/** A tax is told apart by country and name (server/admin/validation.ts keeps them unique): that is its id. */
export const taxId = (tax: Tax) => `${tax.countryCode}:${tax.name}`;
