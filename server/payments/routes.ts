// The payment routes of the API host (ORIGINAL-CONTRACT.md 2.5, SPEC.md section 7):
// - POST /security/setCookie: the runtime sends its access token once (Authorization: Bearer), and
//   gets it back as an http-only cookie of the API host, so the full-page moves that follow carry it,
//   with a one-time ticket in the answer;
// - GET /payments/checkoutView, /payments/subscriptionPortal?ticket=…: the provider's hosted checkout
//   for the workspace's pending offer, and its subscription portal (owners only, from the cookie). A
//   Lax cookie goes along with another site's link too, so they act only on the cookie's ticket, which
//   only the hosted UI read (setCookie's answer); the move removes the cookie;
// - GET /payments/anonymousCheckoutView: before sign-in there is no workspace to pay for, so the
//   browser signs in first and onboarding brings it to the checkout;
// - GET /security/handoverToApp: back to the app's sign-in start;
// - the webhook (webhook.ts) and, outside production, the test-mode provider's pages.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { recordAudit } from '../audit/service.ts';
import { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { resolveCaller } from '../auth/callers.ts';
import type { MemberCaller } from '../auth/caller-kinds.ts';
import { HttpError } from '../http/errors.ts';
import { signInStartUrl } from '../apps/sign-in-start.ts';
import { users } from '../db/schema.ts';
import { eq } from 'drizzle-orm';
import { mayChangePlan } from '../../common/payments.ts';
import { findOffer } from './catalog.ts';
import { findTenant } from './service.ts';
import type { Payments } from './runtime.ts';
import { webhookRoutes } from './webhook.ts';
import { testProviderRoutes } from './test-provider/routes.ts';
import { Type } from 'typebox';
import { hostedScreensRoute, PAYMENTS_TAG } from '../http/openapi.ts';
import { refusals } from '../../common/api/errors.ts';
import { PaymentMoveSchema } from '../../common/api/auth.ts';

const redirect = { 303: Type.Null({ description: 'To the provider, the plan page or the error page' }) };

/** Holds the page move's ticket and the access token between setCookie and the move; as short-lived as the token. */
export const PAYMENTS_COOKIE = 'foyer_payments';
const COOKIE_MAX_AGE_SECONDS = 10 * 60;

/** The cookie's parts: `{ticket}~{access token}` (neither holds a ~). */
function cookieParts(value: string | undefined): { ticket: string; token: string } | undefined {
  const [ticket, token, ...rest] = (value ?? '').split('~');
  return ticket && token && rest.length === 0 ? { ticket, token } : undefined;
}

function sameTicket(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const [a, b] = [Buffer.from(expected), Buffer.from(given)];
  return a.length === b.length && timingSafeEqual(a, b);
}

const PageQuery = Type.Object({ ticket: Type.Optional(Type.String({ maxLength: 100, description: "setCookie's one-time ticket" })) });

/** Where the runtime's plan page takes over again: it refreshes the token, so the new plan counts. */
export const PLAN_PAGE_PATH = '/tenant/plan';

export interface PaymentsPluginOptions {
  config: ServerConfig;
  db: Database;
  payments: Payments;
}

export async function paymentsPlugin(app: FastifyInstance, options: PaymentsPluginOptions): Promise<void> {
  const { config, db, payments } = options;
  const verifier = new AccessTokenVerifier(db, config.urls.auth);
  const secure = config.urls.api.startsWith('https:');
  await app.register(cookie);

  const errorPage = (code: string) => `${config.urls.ui}/auth/error?${new URLSearchParams({ error: code }).toString()}`;
  const planPage = (query?: Record<string, string>) =>
    `${config.urls.ui}${PLAN_PAGE_PATH}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;

  async function memberFrom(token: string | undefined): Promise<MemberCaller | null> {
    if (!token) return null;
    const caller = await resolveCaller(db, verifier, new Headers({ authorization: `Bearer ${token}` }));
    return caller.kind === 'member' ? caller : null;
  }

  /**
   * The signed-in owner the cookie names, for a move that names the cookie's ticket; the move removes
   * the cookie. Otherwise a move to the plan page (a move without the ticket: another site's link) or
   * the hosted error page (these are page loads), and nothing happens.
   */
  async function ownerOf(request: FastifyRequest<{ Querystring: { ticket?: string } }>, reply: FastifyReply): Promise<MemberCaller | null> {
    const parts = cookieParts(request.cookies[PAYMENTS_COOKIE]);
    if (parts && !sameTicket(parts.ticket, request.query.ticket)) {
      await reply.redirect(planPage(), 303);
      return null;
    }
    reply.clearCookie(PAYMENTS_COOKIE, { path: '/' });
    const member = await memberFrom(parts?.token);
    if (!member) {
      await reply.redirect(errorPage('UNAUTHENTICATED'), 303);
      return null;
    }
    if (!mayChangePlan(member.role)) {
      await reply.redirect(errorPage('FORBIDDEN'), 303);
      return null;
    }
    return member;
  }

  /** The provider's page address, or null when the provider failed (logged; the person sees the error page, not a 500). */
  async function providerPage(request: FastifyRequest, open: () => Promise<string>): Promise<string | null> {
    try {
      return await open();
    } catch (error) {
      request.log.error({ err: error }, 'payment provider failed');
      return null;
    }
  }

  // The cookie is set by a call from the hosted UI; CORS is scoped to /security, so its preflight
  // route does not claim the API host's other paths (GraphQL, the legacy mode have their own).
  await app.register(
    async (security) => {
      await security.register(cors, {
        origin: config.urls.ui,
        credentials: true,
        methods: ['POST'],
        allowedHeaders: ['content-type', 'authorization', 'x-app-id'],
        maxAge: 600,
      });
      security.post(
        '/setCookie',
        {
          schema: {
            ...hostedScreensRoute(PAYMENTS_TAG, 'Set the payments cookie from the access token, for the payment pages', 'accessToken'),
            response: { 200: PaymentMoveSchema, ...refusals(401) },
          },
        },
        async (request, reply) => {
          const token = /^Bearer +([A-Za-z0-9\-_.]+) *$/i.exec(request.headers.authorization ?? '')?.[1];
          const member = await memberFrom(token);
          if (!member) throw new HttpError(401, 'UNAUTHENTICATED', 'Sign in first');
          const ticket = randomBytes(24).toString('base64url');
          reply.setCookie(PAYMENTS_COOKIE, `${ticket}~${token!}`, {
            httpOnly: true,
            secure,
            sameSite: 'lax',
            path: '/',
            maxAge: COOKIE_MAX_AGE_SECONDS,
          });
          return reply.send({ ticket });
        },
      );
      security.get(
        '/handoverToApp',
        {
          schema: {
            ...hostedScreensRoute(PAYMENTS_TAG, "Back to the app's sign-in start (a browser navigation)", 'none'),
            response: redirect,
          },
        },
        async (request, reply) => {
          const member = await memberFrom(cookieParts(request.cookies[PAYMENTS_COOKIE])?.token);
          if (!member) return reply.redirect(errorPage('UNAUTHENTICATED'), 303);
          return reply.redirect(signInStartUrl(member.app, config.urls.ui), 303);
        },
      );
    },
    { prefix: '/security' },
  );

  app.get(
    '/payments/anonymousCheckoutView',
    {
      schema: {
        ...hostedScreensRoute(PAYMENTS_TAG, 'The plan page for someone not signed in (a browser navigation)', 'none'),
        response: redirect,
      },
    },
    async (_request, reply) =>
      reply.redirect(`${config.urls.ui}/auth/login?${new URLSearchParams({ returnPath: '/onboard' }).toString()}`, 303),
  );

  app.get<{ Querystring: { ticket?: string } }>(
    '/payments/checkoutView',
    {
      schema: {
        ...hostedScreensRoute(PAYMENTS_TAG, "The provider's checkout for the chosen plan (a browser navigation)", 'none'),
        querystring: PageQuery,
        response: redirect,
      },
    },
    async (request, reply) => {
      const member = await ownerOf(request, reply);
      if (!member) return reply;
      const tenant = await findTenant(db, member.app.id, member.tenantId);
      const offer =
        tenant?.shouldSetupPayments && tenant.pendingCurrency && tenant.pendingInterval
          ? findOffer(member.app, tenant.pendingPlan, { currency: tenant.pendingCurrency, recurrenceInterval: tenant.pendingInterval })
          : undefined;
      const provider = payments.providerFor(member.app);
      // Nothing to pay for (any more): the plan page shows where things stand.
      if (!tenant || !offer || !provider) return reply.redirect(planPage(), 303);
      const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, member.userId)).limit(1);
      const url = await providerPage(request, async () => {
        const checkout = await provider.createCheckout({
          app: member.app,
          tenantId: tenant.id,
          offer,
          customerId: tenant.customerId,
          customerEmail: owner?.email ?? '',
          successUrl: planPage({ payments: 'checkout' }),
          cancelUrl: planPage(),
        });
        return checkout.url;
      });
      if (!url) return reply.redirect(errorPage('PAYMENT_PROVIDER_FAILED'), 303);
      await recordAudit(db, {
        type: 'payment.checkout_opened',
        appId: member.app.id,
        userId: member.userId,
        tenantUserId: member.tenantUserId,
        ip: request.ip,
        detail: {
          tenantId: tenant.id,
          provider: provider.name,
          plan: offer.plan.key,
          currency: offer.price.currency,
          interval: offer.price.recurrenceInterval,
        },
      });
      return reply.redirect(url, 303);
    },
  );

  app.get<{ Querystring: { ticket?: string } }>(
    '/payments/subscriptionPortal',
    {
      schema: {
        ...hostedScreensRoute(PAYMENTS_TAG, "The provider's subscription portal (a browser navigation)", 'none'),
        querystring: PageQuery,
        response: redirect,
      },
    },
    async (request, reply) => {
      const member = await ownerOf(request, reply);
      if (!member) return reply;
      const tenant = await findTenant(db, member.app.id, member.tenantId);
      const provider = payments.providerFor(member.app);
      if (!tenant?.customerId || !tenant.paymentsEnabled || !provider) return reply.redirect(planPage(), 303);
      const url = await providerPage(request, () =>
        provider.openPortal({
          app: member.app,
          tenantId: tenant.id,
          customerId: tenant.customerId!,
          returnUrl: planPage({ payments: 'portal' }),
        }),
      );
      if (!url) return reply.redirect(errorPage('PAYMENT_PROVIDER_FAILED'), 303);
      await recordAudit(db, {
        type: 'payment.portal_opened',
        appId: member.app.id,
        userId: member.userId,
        tenantUserId: member.tenantUserId,
        ip: request.ip,
        detail: { tenantId: tenant.id, provider: provider.name },
      });
      return reply.redirect(url, 303);
    },
  );

  await app.register(webhookRoutes, { db, payments });
  if (payments.testProvider) await app.register(testProviderRoutes, { config, db, provider: payments.testProvider });
}
