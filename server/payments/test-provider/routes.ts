// The test-mode provider's hosted checkout and portal on the API host (outside production only).
// A session id is the page's only credential, as with Stripe's hosted pages: long, random, short-lived,
// bound to one workspace of one app. Forms post back here; every change goes out as a signed event
// (provider.ts), so the workspace changes only through the webhook.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServerConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { findApp } from '../../apps/lookup.ts';
import type { App } from '../../apps/lookup.ts';
import { findOffer, findPlan, plansOf, taxesOf, type Offer } from '../catalog.ts';
import { checkoutPage, confirmationPage, expiredPage, portalPage, TEST_PAGES_CSS, testPageTexts } from './pages.ts';
import { TEST_CARDS, TEST_PROVIDER_PREFIX, type TestPaymentProvider, type TestSession } from './provider.ts';

type Form = Record<string, string>;

export async function testProviderRoutes(
  app: FastifyInstance,
  { config, db, provider }: { config: ServerConfig; db: Database; provider: TestPaymentProvider },
): Promise<void> {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  // No script at all; forms may go back here and redirects lead on to the hosted UI.
  const csp = [
    "default-src 'none'",
    "style-src 'self'",
    `form-action 'self' ${config.urls.ui}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const html = (reply: FastifyReply, body: string, status = 200) =>
    reply
      .status(status)
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(body);

  app.get(`${TEST_PROVIDER_PREFIX}/pages.css`, async (_request, reply) =>
    reply.header('content-security-policy', "default-src 'none'").type('text/css; charset=utf-8').send(TEST_PAGES_CSS),
  );

  async function open(id: string, kind: 'checkout' | 'portal'): Promise<{ session: TestSession; app: App } | null> {
    const session = await provider.session(id, kind);
    const owner = session ? await findApp(db, session.appId) : undefined;
    return session && owner ? { session, app: owner } : null;
  }

  const planName = (app: App, key: string | null) => findPlan(app, key)?.name ?? key ?? '';
  const showCheckout = (reply: FastifyReply, app: App, session: TestSession, error?: string, status = 200) =>
    html(reply, checkoutPage(session, planName(app, session.planKey), taxesOf(app), error), status);

  app.get<{ Params: { id: string } }>(`${TEST_PROVIDER_PREFIX}/checkout/:id`, async (request, reply) => {
    const opened = await open(request.params.id, 'checkout');
    if (!opened || opened.session.status === 'completed' || opened.session.status === 'canceled') return html(reply, expiredPage(), 410);
    if (opened.session.status === 'confirming')
      return html(reply, confirmationPage(opened.session, planName(opened.app, opened.session.planKey), taxesOf(opened.app)));
    return showCheckout(reply, opened.app, opened.session);
  });

  app.post<{ Params: { id: string }; Body: Form }>(`${TEST_PROVIDER_PREFIX}/checkout/:id/pay`, async (request, reply) => {
    const opened = await open(request.params.id, 'checkout');
    if (!opened || opened.session.status !== 'open') return html(reply, expiredPage(), 410);
    const card = String(request.body?.card ?? '').replace(/[\s-]/g, '');
    if (card === TEST_CARDS.declined) return showCheckout(reply, opened.app, opened.session, testPageTexts.declined(), 402);
    if (card === TEST_CARDS.needsConfirmation) {
      await provider.setSessionStatus(opened.session.id, 'confirming');
      return reply.redirect(`${TEST_PROVIDER_PREFIX}/checkout/${encodeURIComponent(opened.session.id)}`, 303);
    }
    if (card !== TEST_CARDS.succeeds) return showCheckout(reply, opened.app, opened.session, testPageTexts.unknownCard(), 400);
    await provider.completeCheckout(opened.app, opened.session);
    return reply.redirect(opened.session.returnUrl, 303);
  });

  app.post<{ Params: { id: string }; Body: Form }>(`${TEST_PROVIDER_PREFIX}/checkout/:id/confirm`, async (request, reply) => {
    const opened = await open(request.params.id, 'checkout');
    if (!opened || opened.session.status !== 'confirming') return html(reply, expiredPage(), 410);
    if (request.body?.decision !== 'confirm') {
      // A failed confirmation charges nothing: the checkout is open again for another try.
      await provider.setSessionStatus(opened.session.id, 'open');
      return showCheckout(reply, opened.app, { ...opened.session, status: 'open' }, testPageTexts.confirmFailed(), 402);
    }
    await provider.completeCheckout(opened.app, opened.session);
    return reply.redirect(opened.session.returnUrl, 303);
  });

  app.post<{ Params: { id: string } }>(`${TEST_PROVIDER_PREFIX}/checkout/:id/cancel`, async (request, reply) => {
    const opened = await open(request.params.id, 'checkout');
    if (!opened || opened.session.status === 'completed') return html(reply, expiredPage(), 410);
    await provider.setSessionStatus(opened.session.id, 'canceled');
    return reply.redirect(opened.session.cancelUrl, 303);
  });

  /** Every paid offer of the app, for the portal's plan change. */
  const paidOffers = (app: App): Offer[] =>
    plansOf(app).flatMap((plan) => plan.prices.filter((price) => price.amount > 0).map((price) => ({ plan, price })));

  async function showPortal(reply: FastifyReply, session: TestSession, app: App, notice?: string) {
    const subscription = await provider.currentSubscription(app.id, session.tenantId);
    return html(
      reply,
      portalPage({
        session,
        subscription,
        planName: subscription ? planName(app, subscription.planKey) : undefined,
        offers: paidOffers(app),
        notice,
      }),
    );
  }

  app.get<{ Params: { id: string } }>(`${TEST_PROVIDER_PREFIX}/portal/:id`, async (request, reply) => {
    const opened = await open(request.params.id, 'portal');
    if (!opened) return html(reply, expiredPage(), 410);
    return showPortal(reply, opened.session, opened.app);
  });

  app.post<{ Params: { id: string; action: string }; Body: Form }>(`${TEST_PROVIDER_PREFIX}/portal/:id/:action`, async (request, reply) => {
    const opened = await open(request.params.id, 'portal');
    if (!opened) return html(reply, expiredPage(), 410);
    const subscription = await provider.currentSubscription(opened.app.id, opened.session.tenantId);
    if (!subscription) return showPortal(reply, opened.session, opened.app);
    const { action } = request.params;
    if (action === 'cancel' || action === 'resume') {
      await provider.updateSubscription(opened.app, subscription, { cancelAtPeriodEnd: action === 'cancel' });
    } else if (action === 'change') {
      const [planKey, currency, recurrenceInterval] = String(request.body?.offer ?? '').split('|');
      const offer = findOffer(opened.app, planKey ?? null, { currency: currency ?? '', recurrenceInterval: recurrenceInterval ?? '' });
      if (!offer || offer.price.amount <= 0) return showPortal(reply, opened.session, opened.app);
      await provider.updateSubscription(opened.app, subscription, { offer });
    } else {
      return html(reply, expiredPage(), 404);
    }
    return showPortal(reply, opened.session, opened.app, testPageTexts.updated());
  });
}
