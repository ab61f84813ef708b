// How the server stores an app's config: name, redirect URIs and token lifetimes in apps columns
// (oidc-provider reads them), everything else in apps.settings, with provider secrets sealed.
import { defaultPasswordPolicy, type PasswordPolicy } from '../../common/password-policy.ts';
import type { AppConfig, SocialProvider } from '../../common/app-config.ts';

export type { CustomSignupField, Role, PasswordPolicySettings } from '../../common/app-config.ts';

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

/** The policy every new password of the app is checked with, on the server and in the runtime. */
export function passwordPolicyOf(settings: AppSettings): PasswordPolicy {
  const configured = settings.passwordPolicy ?? {};
  return {
    enabled: configured.enabled ?? defaultPasswordPolicy.enabled,
    complexityRegex: configured.complexityRegex || null,
  };
}
