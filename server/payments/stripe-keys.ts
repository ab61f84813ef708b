// An app's Stripe secrets at rest: sealed (AES-256-GCM under FOYER_SECRET, bound to the app and the
// secret's name) when the configurator writes them (server/admin/config-document.ts), opened only to
// call Stripe and check its webhooks (stripe-provider.ts).
import type { ServerConfig } from '../config.ts';
import { seal, sealingKey, unseal } from '../crypto/seal.ts';

const STRIPE_SECRET_PURPOSE = 'app stripe secret v1';
export type StripeSecret = 'secretKey' | 'webhookSecret';
const stripeSecretOwner = (appId: string, name: StripeSecret) => `${appId}/stripe/${name}`;

/** A Stripe secret of the app in clear, for calling Stripe and checking its webhooks. */
export function openStripeSecret(config: ServerConfig, appId: string, name: StripeSecret, sealed: string): string {
  return unseal(sealingKey(config.secret, STRIPE_SECRET_PURPOSE), stripeSecretOwner(appId, name), sealed);
}

/** Seals a Stripe secret of the app (a configurator write; tests seed keys with it). */
export function sealStripeSecret(config: ServerConfig, appId: string, name: StripeSecret, secret: string): string {
  return seal(sealingKey(config.secret, STRIPE_SECRET_PURPOSE), stripeSecretOwner(appId, name), secret);
}
