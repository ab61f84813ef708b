// Stripe, with the app's own keys (the configurator's Plans section, sealed like other secrets):
// Checkout Sessions in subscription mode with the offer's price given inline, the Customer Portal,
// and webhook events verified with the endpoint's signing secret (routes.ts). Every checkout and
// subscription carries the offer's metadata, which the webhook route reads back (service.ts).
import type Stripe from 'stripe';
import type { ServerConfig } from '../config.ts';
import type { App } from '../apps/lookup.ts';
import { openStripeSecret } from './stripe-keys.ts';
import { trialDaysOf } from './catalog.ts';
import { offerMetadata, type Checkout, type CheckoutRequest, type PaymentProvider, type PortalRequest } from './provider.ts';

/** Currencies Stripe counts in whole units (no cents): amounts go as they are. */
const ZERO_DECIMAL_CURRENCIES = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** The amount in the currency's smallest unit, as Stripe takes it. */
export function stripeAmount(amount: number, currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency.toUpperCase()) ? Math.round(amount) : Math.round(amount * 100);
}

/** Whether the app has what Stripe needs: a secret key and the webhook's signing secret. */
export function hasStripeKeys(app: App): boolean {
  const stripe = app.settings.payments?.stripe;
  return Boolean(stripe?.secretKeySealed && stripe.webhookSecretSealed);
}

/**
 * The stripe package, loaded when first used rather than with the server: it is a tenth of the
 * server's code and only apps with payments call it (npm run bench -- server-start).
 */
export async function loadStripe(): Promise<typeof Stripe> {
  return (await import('stripe')).default;
}

export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'STRIPE' as const;

  /** `options` reach the Stripe client (tests point it at a local server; production leaves them out). */
  constructor(
    private readonly config: ServerConfig,
    private readonly options: Stripe.StripeConfig = {},
  ) {}

  private async client(app: App): Promise<Stripe> {
    const sealed = app.settings.payments?.stripe?.secretKeySealed;
    if (!sealed) throw new Error(`App ${app.id} has no Stripe secret key`);
    const StripeClient = await loadStripe();
    return new StripeClient(openStripeSecret(this.config, app.id, 'secretKey', sealed), this.options);
  }

  webhookSecret(app: App): string {
    const sealed = app.settings.payments?.stripe?.webhookSecretSealed;
    if (!sealed) throw new Error(`App ${app.id} has no Stripe webhook secret`);
    return openStripeSecret(this.config, app.id, 'webhookSecret', sealed);
  }

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const { offer } = request;
    const metadata = { ...offerMetadata(request.app.id, request.tenantId, offer) };
    const trialDays = trialDaysOf(offer.plan);
    const session = await (
      await this.client(request.app)
    ).checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: request.tenantId,
      ...(request.customerId ? { customer: request.customerId } : { customer_email: request.customerEmail }),
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: offer.price.currency.toLowerCase(),
            unit_amount: stripeAmount(offer.price.amount, offer.price.currency),
            recurring: { interval: offer.price.recurrenceInterval },
            product_data: { name: offer.plan.name, metadata: { planKey: offer.plan.key } },
          },
        },
      ],
      subscription_data: { metadata, ...(trialDays > 0 ? { trial_period_days: trialDays } : {}) },
      metadata,
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without an address');
    return { id: session.id, url: session.url };
  }

  async openPortal(request: PortalRequest): Promise<string> {
    const session = await (
      await this.client(request.app)
    ).billingPortal.sessions.create({
      customer: request.customerId,
      return_url: request.returnUrl,
    });
    return session.url;
  }

  async cancelSubscription(app: App, subscriptionId: string): Promise<void> {
    await (await this.client(app)).subscriptions.cancel(subscriptionId);
  }
}
