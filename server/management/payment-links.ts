// The management API's payment links (ORIGINAL-CONTRACT.md section 4): a checkout for a workspace's
// paid plan and its subscription portal, opened by the app's back end instead of the owner's browser
// (server/payments/routes.ts opens the same pages from the hosted plan page). The provider is the
// app's Stripe account when it has keys, else the built-in test-mode provider outside production.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { and, asc, eq } from 'drizzle-orm';
import type { FoyerContext } from '../context.ts';
import type { AppKeyCaller } from '../auth/app-key-caller.ts';
import { recordAudit } from '../audit/service.ts';
import { tenantUsers, users } from '../db/schema.ts';
import { findOffer } from '../payments/catalog.ts';
import { findTenant } from '../payments/service.ts';
import { PLAN_PAGE_PATH } from '../payments/routes.ts';
import { setTenantPlanDetails } from '../graphql/payments/service.ts';
import { ManagementError } from './errors.ts';
import { CheckoutBody, CheckoutResponse, ErrorBody, IdParams, PortalResponse } from './schemas.ts';

export interface PaymentLinkRouteContext {
  /** The key's app acting on workspace `tenantId`, or 404 when it is not one of the app's. */
  actorFor(request: FastifyRequest, tenantId: string): Promise<AppKeyCaller>;
  tags: string[];
  security: Record<string, string[]>[];
}

const refusals = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody };

const providerFailed = () => new ManagementError(502, 'PAYMENT_PROVIDER_FAILED', 'The payment provider did not answer; try again');

export function registerPaymentLinkRoutes(parent: FastifyInstance, context: FoyerContext, routes: PaymentLinkRouteContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { config, db, payments } = context;
  const { actorFor, tags, security } = routes;
  const planPage = (query?: Record<string, string>) =>
    `${config.urls.ui}${PLAN_PAGE_PATH}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;

  const providerOf = (actor: AppKeyCaller) => {
    const provider = payments.providerFor(actor.app);
    if (!provider) throw new ManagementError(409, 'PAYMENTS_NOT_CONFIGURED', 'This app takes no payments yet');
    return provider;
  };

  /** The workspace's first owner, whom the checkout names as the paying customer. */
  async function ownerEmail(tenantId: string): Promise<string> {
    const [owner] = await db
      .select({ email: users.email })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.role, 'OWNER')))
      .orderBy(asc(tenantUsers.createdAt))
      .limit(1);
    return owner?.email ?? '';
  }

  app.post(
    '/tenant/:id/checkoutId',
    {
      schema: {
        tags,
        security,
        summary: "A checkout for the workspace's paid plan: the one named (set as its choice first) or the one waiting",
        params: IdParams,
        body: CheckoutBody,
        response: { 200: CheckoutResponse, ...refusals },
      },
    },
    async (request) => {
      const actor = await actorFor(request, request.params.id);
      const provider = providerOf(actor);
      const { planKey, priceOffer } = request.body ?? {};
      if (planKey !== undefined || priceOffer !== undefined) {
        await setTenantPlanDetails(
          payments,
          db,
          actor,
          { planKey: planKey ?? '', priceOffer: priceOffer ?? { currency: '', recurrenceInterval: '' } },
          request.ip,
        );
      }
      const tenant = await findTenant(db, actor.app.id, actor.tenantId);
      const offer =
        tenant?.shouldSetupPayments && tenant.pendingCurrency && tenant.pendingInterval
          ? findOffer(actor.app, tenant.pendingPlan, { currency: tenant.pendingCurrency, recurrenceInterval: tenant.pendingInterval })
          : undefined;
      if (!tenant || !offer) {
        throw new ManagementError(409, 'NOTHING_TO_PAY', 'The workspace has no paid plan waiting for its checkout');
      }
      let checkout: { id: string; url: string };
      try {
        checkout = await provider.createCheckout({
          app: actor.app,
          tenantId: tenant.id,
          offer,
          customerId: tenant.customerId,
          customerEmail: await ownerEmail(tenant.id),
          successUrl: planPage({ payments: 'checkout' }),
          cancelUrl: planPage(),
        });
      } catch (error) {
        request.log.error({ err: error }, 'payment provider failed');
        throw providerFailed();
      }
      await recordAudit(db, {
        type: 'payment.checkout_opened',
        appId: actor.app.id,
        userId: null,
        tenantUserId: null,
        ip: request.ip,
        detail: {
          apiKeyId: actor.apiKeyId,
          tenantId: tenant.id,
          provider: provider.name,
          plan: offer.plan.key,
          currency: offer.price.currency,
          interval: offer.price.recurrenceInterval,
        },
      });
      return {
        id: checkout.id,
        url: checkout.url,
        publicKey: provider.name === 'STRIPE' ? (actor.app.settings.payments?.stripe?.publishableKey ?? null) : null,
      };
    },
  );

  app.get(
    '/tenant/:id/customerPortal',
    {
      schema: {
        tags,
        security,
        summary: "The workspace's subscription portal",
        params: IdParams,
        response: { 200: PortalResponse, ...refusals },
      },
    },
    async (request) => {
      const actor = await actorFor(request, request.params.id);
      const provider = providerOf(actor);
      const tenant = await findTenant(db, actor.app.id, actor.tenantId);
      if (!tenant?.customerId || !tenant.paymentsEnabled) {
        throw new ManagementError(409, 'NO_SUBSCRIPTION', 'The workspace has no subscription to manage yet');
      }
      let url: string;
      try {
        url = await provider.openPortal({
          app: actor.app,
          tenantId: tenant.id,
          customerId: tenant.customerId,
          returnUrl: planPage({ payments: 'portal' }),
        });
      } catch (error) {
        request.log.error({ err: error }, 'payment provider failed');
        throw providerFailed();
      }
      await recordAudit(db, {
        type: 'payment.portal_opened',
        appId: actor.app.id,
        userId: null,
        tenantUserId: null,
        ip: request.ip,
        detail: { apiKeyId: actor.apiKeyId, tenantId: tenant.id, provider: provider.name },
      });
      return { url };
    },
  );
}
