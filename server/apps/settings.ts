// How the server stores an app's config: name, redirect URIs and token lifetimes in apps columns
// (oidc-provider reads them), everything else in apps.settings, with provider secrets sealed.
import { defaultPasswordPolicy, type PasswordPolicy } from '../../common/password-policy.ts';
import { socialProviderFlags, socialProviders } from '../../common/app-config.ts';
import type { AppSettings } from '../db/app-settings.ts';

/** The policy every new password of the app is checked with, on the server and in the runtime. */
export function passwordPolicyOf(settings: AppSettings): PasswordPolicy {
  const configured = settings.passwordPolicy ?? {};
  return {
    enabled: configured.enabled ?? defaultPasswordPolicy.enabled,
    complexityRegex: configured.complexityRegex || null,
  };
}

/** The providers whose sign-in flag is on, in the order the login screen lists them. */
export function enabledSocialProviders(settings: AppSettings): string[] {
  return socialProviders.filter((provider) => settings[socialProviderFlags[provider]] === true);
}
