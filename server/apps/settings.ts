// The shape of schema/app-config.schema.json, as the server stores it in apps.settings.
import { defaultPasswordPolicy, type PasswordPolicy } from '../../src/policy/password-policy.ts';

export type Role = 'OWNER' | 'ADMIN' | 'MANAGER' | 'VIEWER';

export interface CustomSignupField {
  label: string;
  type: 'email' | 'phone' | 'number' | 'integer' | 'text' | 'regex' | 'boolean';
  userLabel: string;
  regex?: string;
  /** Signup is refused without a value; optional by default. */
  required?: boolean;
}

export interface PasswordPolicySettings {
  /** On unless switched off. */
  enabled?: boolean;
  complexityRegex?: string | null;
}

export interface AppSettings {
  logo?: string | null;
  uiUrl?: string | null;
  websiteUrl?: string | null;
  privacyPolicyUrl?: string | null;
  termsOfServiceUrl?: string | null;
  onboardingFlow?: 'B2B' | 'B2C' | null;
  passkeysEnabled?: boolean;
  magicLinkEnabled?: boolean;
  mfaEnabled?: boolean;
  tenantSelfSignup?: boolean;
  googleSsoEnabled?: boolean;
  azureAdSsoEnabled?: boolean;
  linkedinSsoEnabled?: boolean;
  facebookSsoEnabled?: boolean;
  githubSsoEnabled?: boolean;
  appleSsoEnabled?: boolean;
  defaultRole?: Role;
  branding?: { colors?: { primary?: string; secondary?: string; danger?: string }; customCss?: string };
  translations?: Record<string, Record<string, string>>;
  customSignupFields?: CustomSignupField[];
  passwordPolicy?: PasswordPolicySettings;
}

/** The policy every new password of the app is checked with, on the server and in the runtime. */
export function passwordPolicyOf(settings: AppSettings): PasswordPolicy {
  const configured = settings.passwordPolicy ?? {};
  return {
    enabled: configured.enabled ?? defaultPasswordPolicy.enabled,
    complexityRegex: configured.complexityRegex || null,
  };
}
