// The payment-provider interface: what Foyer asks of whoever takes the money. Two implementations:
// Stripe (stripe-provider.ts, with the app's own keys) and the built-in test-mode provider
// (test-provider/, outside production only). Both report back the same way: Stripe-shaped events,
// signed with Stripe's scheme, posted to /payments/webhook/{appId} (routes.ts), which alone changes
// a workspace's payment status (service.ts).
import type { App } from '../apps/lookup.ts';
import type { Offer } from './catalog.ts';

/** What TenantPaymentStatusGraphql.provider answers. */
export type ProviderName = 'STRIPE' | 'TEST';

export interface CheckoutRequest {
  app: App;
  tenantId: string;
  offer: Offer;
  /** The provider's customer of the workspace, once a checkout made one. */
  customerId: string | null;
  customerEmail: string;
  /** Where the browser goes when the payment went through, and when the person gave up. */
  successUrl: string;
  cancelUrl: string;
}

export interface Checkout {
  id: string;
  url: string;
}

export interface PortalRequest {
  app: App;
  tenantId: string;
  customerId: string;
  returnUrl: string;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The hosted checkout for the offer: the provider's session id and its address. */
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** The address of the hosted subscription portal of the workspace's customer. */
  openPortal(request: PortalRequest): Promise<string>;
  /** Ends a subscription at once (the workspace moved to a free plan, or to another subscription). */
  cancelSubscription(app: App, subscriptionId: string): Promise<void>;
  /** The secret the app's webhook events are signed with. */
  webhookSecret(app: App): string;
}

/** Metadata every checkout and subscription carries, so an event names its app, workspace and offer. */
export interface OfferMetadata {
  appId: string;
  tenantId: string;
  planKey: string;
  currency: string;
  recurrenceInterval: string;
}

export function offerMetadata(appId: string, tenantId: string, offer: Offer): OfferMetadata {
  return {
    appId,
    tenantId,
    planKey: offer.plan.key,
    currency: offer.price.currency,
    recurrenceInterval: offer.price.recurrenceInterval,
  };
}
