// A draft AppConfig as the runtime's own state: the public app config every screen reads (the shape
// getAppAnonymous answers) and the translation overrides. Drafts come from the configurator and are
// validated by the server only when saved, so every field is read defensively here.
import type { PublicAppConfig } from '../runtime/app-config.ts';
import type { TranslationResources } from '../i18n/index.ts';
import {
  socialProviderFlags,
  socialProviders,
  type AppConfig,
  type CustomSignupField,
  type CustomSignupFieldType,
} from '../../common/app-config.ts';

/** As app-config.schema.json allows URLs: http(s) only, nothing that could break out of an attribute. */
const URL_PATTERN = /^https?:\/\/[^\s<>"']+$/;
const FIELD_TYPES: readonly CustomSignupFieldType[] = ['email', 'phone', 'number', 'integer', 'text', 'regex', 'boolean'];

type Draft = Partial<Record<keyof AppConfig, unknown>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const flag = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const url = (value: unknown): string | null => (typeof value === 'string' && URL_PATTERN.test(value) ? value : null);

function signupFields(value: unknown): CustomSignupField[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): CustomSignupField[] => {
    if (!isRecord(item) || typeof item.label !== 'string' || item.label === '') return [];
    const type = FIELD_TYPES.find((known) => known === item.type);
    if (!type) return [];
    return [
      {
        label: item.label,
        type,
        userLabel: typeof item.userLabel === 'string' && item.userLabel ? item.userLabel : item.label,
        ...(typeof item.regex === 'string' && item.regex ? { regex: item.regex } : {}),
        required: item.required === true,
      },
    ];
  });
}

/** The draft as getAppAnonymous would answer it once published (server/graphql/apps/service.ts), plus its signup fields. */
export function publicConfigOf(config: AppConfig): PublicAppConfig {
  const draft = config as Draft;
  const branding = isRecord(draft.branding) ? draft.branding : {};
  const passwordPolicy = isRecord(draft.passwordPolicy) ? draft.passwordPolicy : {};
  const enabled = (provider: (typeof socialProviders)[number]) => draft[socialProviderFlags[provider]] === true;
  return {
    name: text(draft.name),
    logo: url(draft.logo),
    privacyPolicyUrl: url(draft.privacyPolicyUrl),
    termsOfServiceUrl: url(draft.termsOfServiceUrl),
    onboardingFlow: draft.onboardingFlow === 'B2B' || draft.onboardingFlow === 'B2C' ? draft.onboardingFlow : null,
    passkeysEnabled: flag(draft.passkeysEnabled, false),
    azureAdSsoEnabled: enabled('azureAd'),
    googleSsoEnabled: enabled('google'),
    linkedinSsoEnabled: enabled('linkedin'),
    facebookSsoEnabled: enabled('facebook'),
    githubSsoEnabled: enabled('github'),
    appleSsoEnabled: enabled('apple'),
    mfaEnabled: flag(draft.mfaEnabled, false),
    magicLinkEnabled: flag(draft.magicLinkEnabled, false),
    authLegacy: flag(draft.authLegacy, false),
    tenantSelfSignup: flag(draft.tenantSelfSignup, false),
    passwordValidation: flag(passwordPolicy.enabled, true),
    passwordComplexityRegex: text(passwordPolicy.complexityRegex),
    passwordEnabled: flag(draft.passwordEnabled, true),
    copyrightFooter: text(branding.copyrightFooter),
    socialProviders: socialProviders.filter(enabled),
    customSignupFields: signupFields(draft.customSignupFields),
  };
}

/** Only language → nested texts; anything else in the draft's translations is left out. */
export function translationsOf(config: AppConfig): TranslationResources {
  const translations = (config as Draft).translations;
  if (!isRecord(translations)) return {};
  return Object.fromEntries(Object.entries(translations).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1])));
}
