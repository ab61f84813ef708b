// An app's config document (schema/app-config.schema.json) and where it lives: name, redirect URIs
// and token lifetimes in apps columns (oidc-provider reads them), the rest in apps.settings. Drafts
// and versions keep the whole document in the same stored form, provider secrets sealed: a secret
// written once goes live with a publish and comes back with a restore, and is never answered.
import type { ServerConfig } from '../config.ts';
import { sealProviderSecret } from '../apps/provider-secrets.ts';
import type { apps } from '../db/schema.ts';
import type { AppSettings, StoredPaymentSettings, StoredProviderCredentials } from '../db/app-settings.ts';
import type { PaymentSettings } from '../../common/payments.ts';
import { sealStripeSecret, type StripeSecret } from '../payments/stripe-keys.ts';
import { socialProviders, type AppConfig, type ProviderCredentials, type SocialProvider } from '../../common/app-config.ts';
import { APP_CONFIG_FIELDS } from './validation.ts';

type AppRow = typeof apps.$inferSelect;

/** The document as drafts, versions and apps.settings keep it: secrets only sealed. */
export interface StoredAppConfig extends Omit<AppConfig, 'socialProviders' | 'payments'> {
  socialProviders?: AppSettings['socialProviders'];
  payments?: AppSettings['payments'];
}

export const DEFAULT_ACCESS_TOKEN_TTL = 3600;
export const DEFAULT_REFRESH_TOKEN_TTL = 604800;

const COLUMN_FIELDS = ['name', 'redirectUris', 'postLogoutRedirectUris', 'accessTokenTtl', 'refreshTokenTtl'] as const;

/** The live document of an app: its columns plus the settings the schema knows. */
export function liveConfigOf(app: AppRow): StoredAppConfig {
  const settings: Record<string, unknown> = { ...app.settings };
  const known = Object.fromEntries(
    Object.entries(settings).filter(
      ([field]) => APP_CONFIG_FIELDS.includes(field) && !(COLUMN_FIELDS as readonly string[]).includes(field),
    ),
  );
  return {
    ...known,
    name: app.name,
    redirectUris: app.redirectUris,
    postLogoutRedirectUris: app.postLogoutRedirectUris,
    accessTokenTtl: app.accessTokenTtl,
    refreshTokenTtl: app.refreshTokenTtl,
  };
}

/** What a publish writes to the apps row. */
export function appColumnsOf(config: StoredAppConfig) {
  const { name, redirectUris, postLogoutRedirectUris, accessTokenTtl, refreshTokenTtl, ...settings } = config;
  return {
    name,
    redirectUris,
    // oidc-provider's default when an authorization names no redirect URI.
    defaultCallbackUri: redirectUris[0]!,
    postLogoutRedirectUris: postLogoutRedirectUris ?? [],
    accessTokenTtl: accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL,
    refreshTokenTtl: refreshTokenTtl ?? DEFAULT_REFRESH_TOKEN_TTL,
    settings: settings as AppSettings,
  };
}

const definedOnly = <T extends object>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

/** The document as the admin API answers it: each provider says whether it has a secret, never which. */
export function publicConfigOf(config: StoredAppConfig): AppConfig {
  const { socialProviders: stored, payments, ...withoutPayments } = config;
  const rest: AppConfig = payments ? { ...withoutPayments, payments: publicPaymentsOf(payments) } : withoutPayments;
  if (!stored) return rest;
  const providers: Partial<Record<SocialProvider, ProviderCredentials>> = {};
  for (const provider of socialProviders) {
    const credentials = stored[provider];
    if (!credentials) continue;
    const { clientId, teamId, keyId, tenant } = credentials;
    providers[provider] = {
      ...definedOnly({ clientId, teamId, keyId, tenant: tenant as ProviderCredentials['tenant'] }),
      hasClientSecret: Boolean(credentials.clientSecretSealed),
    };
  }
  return { ...rest, socialProviders: providers };
}

/**
 * The stored form of a written document. A clientSecret sent is sealed; an absent one keeps the
 * provider's secret from `previous` (the draft, else what is live); an empty one removes it. A
 * provider left out of socialProviders loses its credentials.
 */
export function sealWrittenConfig(config: ServerConfig, appId: string, written: AppConfig, previous: StoredAppConfig): StoredAppConfig {
  const { socialProviders: providers, payments, ...withoutPayments } = written;
  const rest: StoredAppConfig = payments
    ? { ...withoutPayments, payments: sealPayments(config, appId, payments, previous.payments) }
    : withoutPayments;
  if (!providers) return rest;
  const stored: Partial<Record<SocialProvider, StoredProviderCredentials>> = {};
  for (const provider of socialProviders) {
    const credentials = providers[provider];
    if (!credentials) continue;
    const kept = previous.socialProviders?.[provider]?.clientSecretSealed;
    const sealed =
      credentials.clientSecret === undefined
        ? kept
        : credentials.clientSecret === ''
          ? undefined
          : sealProviderSecret(config, appId, provider, credentials.clientSecret);
    const { clientId, teamId, keyId, tenant } = credentials;
    stored[provider] = {
      ...definedOnly({ clientId, teamId, keyId, tenant }),
      ...(sealed ? { clientSecretSealed: sealed } : {}),
    };
  }
  return { ...rest, socialProviders: stored };
}

/** The Stripe keys as the admin API answers them: whether each secret is set, never which. */
function publicPaymentsOf(payments: StoredPaymentSettings): PaymentSettings {
  const { stripe, ...rest } = payments;
  if (!stripe) return rest;
  return {
    ...rest,
    stripe: {
      ...(stripe.publishableKey !== undefined ? { publishableKey: stripe.publishableKey } : {}),
      hasSecretKey: Boolean(stripe.secretKeySealed),
      hasWebhookSecret: Boolean(stripe.webhookSecretSealed),
    },
  };
}

/** Each Stripe secret as provider client secrets are: sent seals, absent keeps, empty removes. */
function sealPayments(
  config: ServerConfig,
  appId: string,
  written: PaymentSettings,
  previous: StoredPaymentSettings | undefined,
): StoredPaymentSettings {
  const { stripe, ...rest } = written;
  if (!stripe) return rest;
  const sealed = (name: StripeSecret): string | undefined => {
    const sent = stripe[name];
    const kept = previous?.stripe?.[`${name}Sealed`];
    if (sent === undefined) return kept;
    return sent === '' ? undefined : sealStripeSecret(config, appId, name, sent);
  };
  const secretKeySealed = sealed('secretKey');
  const webhookSecretSealed = sealed('webhookSecret');
  return {
    ...rest,
    stripe: {
      ...(stripe.publishableKey !== undefined ? { publishableKey: stripe.publishableKey } : {}),
      ...(secretKeySealed ? { secretKeySealed } : {}),
      ...(webhookSecretSealed ? { webhookSecretSealed } : {}),
    },
  };
}
