// Plans, taxes and a workspace's payment state as the GraphQL schema (schema/api.graphql) shows
// them; the management API answers from the same shapes (server/management/views.ts).
import type { App } from '../../apps/lookup.ts';
import type { Database } from '../../db/client.ts';
import type {
  PaymentOptionsGraphql,
  PlanGraphql,
  TaxGraphql,
  TenantPaymentDetailsGraphql,
  TenantPaymentStatusGraphql,
} from '../generated/resolvers.ts';
import { findPlan, findPrice, plansOf, taxesOf, taxId, trialDaysOf } from '../../payments/catalog.ts';
import type { ProviderName } from '../../payments/provider.ts';
import { requireTenant, type PaymentsRuntime, type TenantRecord } from '../../payments/service.ts';
import { mustSelectPlan, trialOf, type PricingPlan, type Tax } from '../../../common/payments.ts';

/** Plans are told apart by key, so the key is their id too. */
export function planGraphql(plan: PricingPlan): PlanGraphql {
  return {
    id: plan.key,
    key: plan.key,
    name: plan.name,
    description: plan.description ?? null,
    createdAt: null,
    trial: trialDaysOf(plan) > 0,
    trialDays: trialDaysOf(plan),
    prices: plan.prices.map((price) => ({ ...price })),
  };
}

export function taxGraphql(tax: Tax): TaxGraphql {
  return { id: taxId(tax), name: tax.name, countryCode: tax.countryCode, percentage: tax.percentage, createdAt: null };
}

export function paymentOptions(app: App): PaymentOptionsGraphql {
  return { plans: plansOf(app).map(planGraphql), taxes: taxesOf(app).map(taxGraphql) };
}

export function paymentStatusOf(runtime: PaymentsRuntime, app: App, tenant: TenantRecord): TenantPaymentStatusGraphql {
  const provider: ProviderName = runtime.providerFor(app)?.name ?? (tenant.paymentProvider as ProviderName);
  return {
    paymentsEnabled: tenant.paymentsEnabled,
    shouldSelectPlan: mustSelectPlan(tenant, app.settings.payments),
    shouldSetupPayments: tenant.shouldSetupPayments,
    provider,
  };
}

export function paymentDetailsOf(runtime: PaymentsRuntime, app: App, tenant: TenantRecord): TenantPaymentDetailsGraphql {
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

export async function tenantPaymentDetails(runtime: PaymentsRuntime, db: Database, app: App, tenantId: string) {
  return paymentDetailsOf(runtime, app, await requireTenant(db, app.id, tenantId));
}
