// Apps as the GraphQL API sees them: looked up by id, and their public configuration.
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { passwordPolicyOf, type AppSettings } from '../../apps/settings.ts';
import { socialProviderFlags, socialProviders } from '../../../common/app-config.ts';
import { defaultLocaleOf, offeredLocales } from '../../../common/locales.ts';
import { apps } from '../../db/schema.ts';
import type { AppRecord } from '../context.ts';
import type { App } from '../generated/resolvers.ts';

/** App ids are UUIDs; anything far longer is not worth a database round trip. */
const MAX_APP_ID_LENGTH = 200;

export async function findApp(db: Database, appId: string): Promise<AppRecord | undefined> {
  if (appId.length > MAX_APP_ID_LENGTH) return undefined;
  const [app] = await db.select().from(apps).where(eq(apps.id, appId)).limit(1);
  return app;
}

/** The providers whose sign-in flag is on, in the order the login screen lists them. */
export function enabledSocialProviders(settings: AppSettings): string[] {
  return socialProviders.filter((provider) => settings[socialProviderFlags[provider]] === true);
}

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
    languages: offeredLocales(settings),
    defaultLanguage: defaultLocaleOf(settings),
  };
}
