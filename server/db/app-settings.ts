// The shape of apps.settings: the app config less what has columns of its own (oidc-provider reads
// those), with provider secrets only sealed (server/apps/settings.ts reads it).
import type { AppConfig, SocialProvider } from '../../common/app-config.ts';

/** A provider's credentials at rest: the secret only sealed under config.secret. */
export interface StoredProviderCredentials {
  clientId?: string;
  clientSecretSealed?: string;
}

/** The AppConfig fields kept in their own apps columns. */
export type AppColumnFields = 'name' | 'redirectUris' | 'postLogoutRedirectUris' | 'accessTokenTtl' | 'refreshTokenTtl';

export interface AppSettings extends Omit<AppConfig, AppColumnFields | 'socialProviders'> {
  socialProviders?: Partial<Record<SocialProvider, StoredProviderCredentials>>;
}
