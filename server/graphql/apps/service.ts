// Apps as the GraphQL API sees them: their public configuration.
import { enabledSocialProviders, passwordPolicyOf } from '../../apps/settings.ts';
import type { App as AppRecord } from '../../apps/lookup.ts';
import type { App } from '../generated/resolvers.ts';

/** What any visitor of the app may know: name, links and which sign-in options are on. */
export function publicAppConfig(app: AppRecord): App {
  const settings = app.settings;
  const passwordPolicy = passwordPolicyOf(settings);
  return {
    id: app.id,
    name: app.name,
    logo: settings.logo ?? null,
    uiUrl: settings.uiUrl ?? null,
    websiteUrl: settings.websiteUrl ?? null,
    privacyPolicyUrl: settings.privacyPolicyUrl ?? null,
    termsOfServiceUrl: settings.termsOfServiceUrl ?? null,
    onboardingFlow: settings.onboardingFlow ?? null,
    passkeysEnabled: settings.passkeysEnabled ?? false,
    magicLinkEnabled: settings.magicLinkEnabled ?? false,
    authLegacy: settings.authLegacy ?? false,
    mfaEnabled: settings.mfaEnabled ?? false,
    tenantSelfSignup: settings.tenantSelfSignup ?? false,
    googleSsoEnabled: settings.googleSsoEnabled ?? false,
    azureAdSsoEnabled: settings.azureAdSsoEnabled ?? false,
    linkedinSsoEnabled: settings.linkedinSsoEnabled ?? false,
    facebookSsoEnabled: settings.facebookSsoEnabled ?? false,
    githubSsoEnabled: settings.githubSsoEnabled ?? false,
    appleSsoEnabled: settings.appleSsoEnabled ?? false,
    passwordValidation: passwordPolicy.enabled,
    passwordComplexityRegex: passwordPolicy.complexityRegex ?? null,
    passwordEnabled: settings.passwordEnabled ?? true,
    copyrightFooter: settings.branding?.copyrightFooter || null,
    socialProviders: enabledSocialProviders(settings),
  };
}
