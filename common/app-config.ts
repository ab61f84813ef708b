// The document an application owner edits (schema/app-config.schema.json), shared by the server
// (which validates and publishes it), the configurator (which edits it) and the runtime (which
// previews a draft of it). The server validates with the JSON Schema; the types are generated from
// it (common/generated/app-config.ts, by `npm run codegen`) and named here.
import type { FoyerAppSettings, ProviderCredentials, Texts } from './generated/app-config.ts';

export type { ProviderCredentials };
export type AppConfig = FoyerAppSettings;

export type Role = NonNullable<AppConfig['defaultRole']>;

export const socialProviders = ['google', 'azureAd', 'linkedin', 'facebook', 'github', 'apple'] as const;
export type SocialProvider = (typeof socialProviders)[number];

/** The AppConfig flag that switches each provider on. */
export const socialProviderFlags = {
  google: 'googleSsoEnabled',
  azureAd: 'azureAdSsoEnabled',
  linkedin: 'linkedinSsoEnabled',
  facebook: 'facebookSsoEnabled',
  github: 'githubSsoEnabled',
  apple: 'appleSsoEnabled',
} as const satisfies Record<SocialProvider, keyof AppConfig>;

/**
 * The social providers as sign-in addresses name them (`/federated/{type}/login`, SPEC.md section 7,
 * and a handover's `federation`): Microsoft is `ms-azure-ad` there.
 */
export const federationTypes = ['google', 'ms-azure-ad', 'apple', 'facebook', 'github', 'linkedin'] as const;
export type FederationType = (typeof federationTypes)[number];

export const federationTypeOf = {
  google: 'google',
  azureAd: 'ms-azure-ad',
  linkedin: 'linkedin',
  facebook: 'facebook',
  github: 'github',
  apple: 'apple',
} as const satisfies Record<SocialProvider, FederationType>;

export function socialProviderOf(type: string): SocialProvider | undefined {
  return socialProviders.find((provider) => federationTypeOf[provider] === type);
}

export type ClientType = NonNullable<AppConfig['clientType']>;
export const clientTypes = ['public', 'confidential'] as const satisfies readonly ClientType[];

/** How a confidential app authenticates at the token endpoint (public apps use `none`). */
export type ConfidentialAuthMethod = NonNullable<AppConfig['tokenEndpointAuthMethod']>;
export const confidentialAuthMethods = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
] as const satisfies readonly ConfidentialAuthMethod[];

export type CustomSignupField = NonNullable<AppConfig['customSignupFields']>[number];
export type CustomSignupFieldType = CustomSignupField['type'];
export type CustomSignupOption = NonNullable<CustomSignupField['options']>[number];
/** Where a custom signup value is stored: the membership's custom params (default), the person's or the workspace's attributes. */
export type CustomSignupFieldTarget = NonNullable<CustomSignupField['target']>;

/** The translation override that translates one option of a select field; the option's label where there is none. */
export function customSignupOptionKey(field: string, value: string): string {
  return `customSignupFields.${field}.options.${value}`;
}

export type Branding = NonNullable<AppConfig['branding']>;
export type BrandingColor = keyof NonNullable<Branding['colors']>;
export const brandingColors = ['primary', 'secondary', 'danger', 'text', 'background'] as const satisfies readonly BrandingColor[];

/** Translation overrides: language code -> texts nested like src/i18n/locales/en.json. */
export type TranslationTexts = Texts;
export type Translations = Record<string, TranslationTexts>;

export type PasswordPolicySettings = NonNullable<AppConfig['passwordPolicy']>;
