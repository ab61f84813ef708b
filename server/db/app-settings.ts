// The shape of apps.settings: the app config less what has columns of its own (oidc-provider reads
// those), with provider secrets and the Stripe keys only sealed (server/apps/settings.ts reads it).
import type { AppConfig, SocialProvider } from '../../common/app-config.ts';
import type { PaymentSettings } from '../../common/payments.ts';

/** A provider's credentials at rest: the secret only sealed under config.secret. */
export interface StoredProviderCredentials {
  clientId?: string;
  /** The client secret; for Apple, the .p8 private key its client secrets are signed with. */
  clientSecretSealed?: string;
  /** Apple: the developer team id and the key's id. */
  teamId?: string;
  keyId?: string;
  /** Microsoft: which accounts sign in (`common`, `organizations` or `consumers`). */
  tenant?: string;
}

/** The AppConfig fields kept in their own apps columns. */
export type AppColumnFields = 'name' | 'redirectUris' | 'postLogoutRedirectUris' | 'accessTokenTtl' | 'refreshTokenTtl';

/** The app's Stripe keys at rest: the secrets only sealed under config.secret. */
export interface StoredStripeKeys {
  publishableKey?: string;
  secretKeySealed?: string;
  webhookSecretSealed?: string;
}

export interface StoredPaymentSettings extends Omit<PaymentSettings, 'stripe'> {
  stripe?: StoredStripeKeys;
}

export interface AppSettings extends Omit<AppConfig, AppColumnFields | 'socialProviders' | 'payments'> {
  socialProviders?: Partial<Record<SocialProvider, StoredProviderCredentials>>;
  payments?: StoredPaymentSettings;
}
