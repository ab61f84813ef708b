// The owner's plan choice (setTenantPlanDetails), with its refusals as the GraphQL API answers them;
// the workspace's payment state itself is the payments capability's (server/payments/service.ts).
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tenants } from '../../db/schema.ts';
import { recordAudit } from '../../audit/service.ts';
import { auditActorOf, type WorkspaceActor } from '../../auth/app-key-caller.ts';
import type { SetTenantPlanDetailsInput, TenantPaymentDetailsGraphql } from '../generated/resolvers.ts';
import { foyerError } from '../errors.ts';
import { InputProblems } from '../input.ts';
import { mayChangePlan } from '../../../common/payments.ts';
import { findPlan, findPrice } from '../../payments/catalog.ts';
import { NO_PENDING_OFFER, NO_SUBSCRIPTION, requireTenant, type PaymentsRuntime, type TenantRecord } from '../../payments/service.ts';
import { emitTenantEvent } from '../../outbox/outbox.ts';
import { tenantPaymentDetails } from './views.ts';
import { plainIssue } from '../../http/field-issues.ts';

/**
 * The owner picks a plan and price. Free: the workspace is on it now (a running subscription ends).
 * Paid: it waits for the checkout (shouldSetupPayments), unless it is already the running one.
 */
export async function setTenantPlanDetails(
  runtime: PaymentsRuntime,
  db: Database,
  member: WorkspaceActor,
  input: SetTenantPlanDetailsInput,
  ip: string,
): Promise<TenantPaymentDetailsGraphql> {
  const { app } = member;
  // An app's API key acts with an OWNER's authority (server/auth/app-key-caller.ts).
  if (member.kind === 'member' && !mayChangePlan(member.role)) throw foyerError('FORBIDDEN', "Only the workspace's owners change its plan");
  const problems = new InputProblems();
  const plan = findPlan(app, input.planKey);
  if (!plan) problems.add('planKey', plainIssue('noSuchPlan'));
  const price = plan ? findPrice(plan, input.priceOffer) : undefined;
  if (plan && !price) problems.add('priceOffer', plainIssue('noSuchPrice'));
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
  const actor = auditActorOf(member);
  await db.transaction(async (tx) => {
    await tx
      .update(tenants)
      .set(changes)
      .where(and(eq(tenants.id, tenant.id), eq(tenants.appId, app.id)));
    await recordAudit(tx, {
      type: 'payment.plan_selected',
      appId: app.id,
      userId: actor.userId,
      tenantUserId: actor.tenantUserId,
      ip,
      detail: {
        ...actor.actorDetail,
        tenantId: tenant.id,
        plan: offer.plan.key,
        currency: offer.price.currency,
        interval: offer.price.recurrenceInterval,
        checkoutNeeded: paid && !running,
      },
    });
    await emitTenantEvent(tx, app.id, 'TENANT_UPDATED', tenant.id);
  });
  // A free plan replaces the subscription: the provider ends it (its event finds no workspace holding it).
  if (!paid && tenant.subscriptionId && provider) await provider.cancelSubscription(app, tenant.subscriptionId);
  return tenantPaymentDetails(runtime, db, app, tenant.id);
}
