// The document an application owner edits (schema/app-config.schema.json), shared by the server
// (which validates and publishes it), the configurator (which edits it) and the runtime (which
// previews a draft of it). The server validates with the JSON Schema; these types mirror it.
import type { PasswordPolicy } from './password-policy.ts';
import type { PaymentSettings } from './payments.ts';

export type Role = 'OWNER' | 'ADMIN' | 'MANAGER' | 'VIEWER';

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

/** As the admin API reads and writes them: the secret goes in, only hasClientSecret comes out. */
export interface ProviderCredentials {
  clientId?: string;
  clientSecret?: string;
  hasClientSecret?: boolean;
}

export const clientTypes = ['public', 'confidential'] as const;
export type ClientType = (typeof clientTypes)[number];

/** How a confidential app authenticates at the token endpoint (public apps use `none`). */
export const confidentialAuthMethods = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;
export type ConfidentialAuthMethod = (typeof confidentialAuthMethods)[number];

export type CustomSignupFieldType = 'email' | 'phone' | 'number' | 'integer' | 'text' | 'regex' | 'boolean' | 'select';

/** Where a custom signup value is stored: the membership's custom params (default), the person's or the workspace's attributes. */
export type CustomSignupFieldTarget = 'membership' | 'user' | 'tenant';

export interface CustomSignupOption {
  value: string;
  label: string;
}

export interface CustomSignupField {
  label: string;
  type: CustomSignupFieldType;
  userLabel: string;
  regex?: string;
  /** Signup is refused without a value; optional by default. */
  required?: boolean;
  /** The choices of a select field (and only of one). */
  options?: CustomSignupOption[];
  target?: CustomSignupFieldTarget;
}

/** The translation override that translates one option of a select field; the option's label where there is none. */
export function customSignupOptionKey(field: string, value: string): string {
  return `customSignupFields.${field}.options.${value}`;
}

export const brandingColors = ['primary', 'secondary', 'danger', 'text', 'background'] as const;
export type BrandingColor = (typeof brandingColors)[number];

export interface Branding {
  colors?: Partial<Record<BrandingColor, string>>;
  radius?: string;
  font?: string;
  copyrightFooter?: string;
  customCss?: string;
}

/** Translation overrides: language code -> texts nested like src/i18n/locales/en.json. */
export interface TranslationTexts {
  [key: string]: string | TranslationTexts;
}
export type Translations = Record<string, TranslationTexts>;

export interface PasswordPolicySettings {
  /** On unless switched off. */
  enabled?: PasswordPolicy['enabled'];
  complexityRegex?: string | null;
}

export interface AppConfig {
  name: string;
  logo?: string | null;
  uiUrl?: string | null;
  /** Starts a sign-in of the app at once (OpenID Connect initiate_login_uri); see schema/app-config.schema.json. */
  initiateLoginUri?: string | null;
  websiteUrl?: string | null;
  privacyPolicyUrl?: string | null;
  termsOfServiceUrl?: string | null;
  onboardingFlow?: 'B2B' | 'B2C' | null;
  /** On unless switched off. */
  passwordEnabled?: boolean;
  passkeysEnabled?: boolean;
  magicLinkEnabled?: boolean;
  /** The legacy auth mode (docs/SPEC.md section 7): the runtime signs in through /auth-proxy on the API host. */
  authLegacy?: boolean;
  mfaEnabled?: boolean;
  tenantSelfSignup?: boolean;
  googleSsoEnabled?: boolean;
  azureAdSsoEnabled?: boolean;
  linkedinSsoEnabled?: boolean;
  facebookSsoEnabled?: boolean;
  githubSsoEnabled?: boolean;
  appleSsoEnabled?: boolean;
  defaultRole?: Role;
  socialProviders?: Partial<Record<SocialProvider, ProviderCredentials>>;
  /** Public (browser, native: PKCE, no secret) unless set; see schema/app-config.schema.json. */
  clientType?: ClientType;
  tokenEndpointAuthMethod?: ConfidentialAuthMethod;
  /** Confidential apps only; public apps always need PKCE. */
  requirePkce?: boolean;
  /** Public keys for private_key_jwt. */
  jwks?: { keys: Record<string, unknown>[] };
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  accessTokenTtl?: number;
  refreshTokenTtl?: number;
  branding?: Branding;
  /** Locale codes of common/locales.ts the hosted screens offer; every shipped one when absent. */
  languages?: string[];
  /** One of `languages`: for visitors whose browser prefers none of them. */
  defaultLanguage?: string;
  translations?: Translations;
  customSignupFields?: CustomSignupField[];
  passwordPolicy?: PasswordPolicySettings;
  /** Pricing plans, taxes and the Stripe keys (src/policy/payments.ts). */
  payments?: PaymentSettings;
}
