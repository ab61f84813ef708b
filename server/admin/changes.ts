// What publishing a draft would change, as data the configurator renders with its own texts
// (docs/configurator.md "Change"). Unset values count as their schema defaults, so saving a form
// that merely spells out a default shows no change. Secrets are compared sealed and never shown.
import { isDeepStrictEqual } from 'node:util';
import { brandingColors, socialProviders, type CustomSignupField, type TranslationTexts } from '../../common/app-config.ts';
import { defaultLocaleOf, offeredLocales } from '../../common/locales.ts';
import type { StoredAppConfig } from './config-document.ts';
import type { PricingPlan, Tax } from '../../common/payments.ts';
import type { Change } from '../../common/api/admin.ts';

export type { Change };

/** The switches, with the value an unset one has. */
const FLAGS: Record<string, boolean> = {
  passwordEnabled: true,
  passkeysEnabled: false,
  magicLinkEnabled: false,
  authLegacy: false,
  mfaEnabled: false,
  tenantSelfSignup: false,
  googleSsoEnabled: false,
  azureAdSsoEnabled: false,
  linkedinSsoEnabled: false,
  facebookSsoEnabled: false,
  githubSsoEnabled: false,
  appleSsoEnabled: false,
  requirePkce: true,
};

const VALUES: Record<string, unknown> = {
  name: null,
  logo: null,
  uiUrl: null,
  initiateLoginUri: null,
  websiteUrl: null,
  privacyPolicyUrl: null,
  termsOfServiceUrl: null,
  onboardingFlow: null,
  defaultRole: 'VIEWER',
  clientType: 'public',
  tokenEndpointAuthMethod: 'client_secret_basic',
  jwks: null,
  accessTokenTtl: 3600,
  refreshTokenTtl: 604800,
};

/** A value at a dotted path; unset, null and empty text all read as `fallback`. */
function valueAt(config: StoredAppConfig, path: string, fallback: unknown): unknown {
  let value: unknown = config;
  for (const segment of path.split('.')) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
  }
  return value === undefined || value === null || value === '' ? fallback : value;
}

function flatten(texts: TranslationTexts | undefined, prefix = '', into = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(texts ?? {})) {
    if (typeof value === 'string') into.set(`${prefix}${key}`, value);
    else flatten(value, `${prefix}${key}.`, into);
  }
  return into;
}

function listChange<T>(
  path: Extract<Change, { kind: 'list' }>['path'],
  live: readonly T[],
  draft: readonly T[],
  keyOf: (item: T) => string,
): Change[] {
  const liveByKey = new Map(live.map((item, index) => [keyOf(item), { item, index }]));
  const draftKeys = new Set(draft.map(keyOf));
  let added = 0;
  let changed = 0;
  for (const [index, item] of draft.entries()) {
    const before = liveByKey.get(keyOf(item));
    if (!before) added += 1;
    else if (before.index !== index || !isDeepStrictEqual(before.item, item)) changed += 1;
  }
  const removed = [...liveByKey.keys()].filter((key) => !draftKeys.has(key)).length;
  return added || removed || changed ? [{ kind: 'list', path, added, removed, changed }] : [];
}

export function changesBetween(live: StoredAppConfig, draft: StoredAppConfig): Change[] {
  const changes: Change[] = [];
  for (const [path, fallback] of Object.entries(FLAGS)) {
    const before = valueAt(live, path, fallback);
    const after = valueAt(draft, path, fallback);
    if (before !== after) changes.push({ kind: after ? 'enabled' : 'disabled', path });
  }
  const passwordPolicyBefore = valueAt(live, 'passwordPolicy.enabled', true);
  const passwordPolicyAfter = valueAt(draft, 'passwordPolicy.enabled', true);
  if (passwordPolicyBefore !== passwordPolicyAfter) {
    changes.push({ kind: passwordPolicyAfter ? 'enabled' : 'disabled', path: 'passwordPolicy.enabled' });
  }

  const valuePaths: [string, unknown][] = [
    ...Object.entries(VALUES),
    ...brandingColors.map((color): [string, unknown] => [`branding.colors.${color}`, null]),
    ['branding.radius', null],
    ['branding.font', null],
    ['branding.copyrightFooter', null],
    ['branding.customCss', null],
    ['passwordPolicy.complexityRegex', null],
    ...socialProviders.map((provider): [string, unknown] => [`socialProviders.${provider}.clientId`, null]),
    ['socialProviders.apple.teamId', null],
    ['socialProviders.apple.keyId', null],
    ['socialProviders.azureAd.tenant', 'common'],
    ['payments.stripe.publishableKey', null],
  ];
  for (const [path, fallback] of valuePaths) {
    const from = valueAt(live, path, fallback);
    const to = valueAt(draft, path, fallback);
    if (!isDeepStrictEqual(from, to)) changes.push({ kind: 'changed', path, from, to });
  }

  // The languages as the hosted screens offer them: no list means every shipped language.
  for (const [path, valueOf] of [
    ['languages', (config: StoredAppConfig) => offeredLocales(config).join(', ')],
    ['defaultLanguage', defaultLocaleOf],
  ] as const) {
    const from = valueOf(live);
    const to = valueOf(draft);
    if (from !== to) changes.push({ kind: 'changed', path, from, to });
  }

  for (const provider of socialProviders) {
    const path = `socialProviders.${provider}.clientSecret`;
    if (valueAt(live, `${path}Sealed`, null) !== valueAt(draft, `${path}Sealed`, null)) changes.push({ kind: 'secret', path });
  }
  for (const path of ['payments.stripe.secretKey', 'payments.stripe.webhookSecret']) {
    if (valueAt(live, `${path}Sealed`, null) !== valueAt(draft, `${path}Sealed`, null)) changes.push({ kind: 'secret', path });
  }

  changes.push(
    ...listChange('redirectUris', live.redirectUris, draft.redirectUris, (uri) => uri),
    ...listChange('postLogoutRedirectUris', live.postLogoutRedirectUris ?? [], draft.postLogoutRedirectUris ?? [], (uri) => uri),
    ...listChange<CustomSignupField>('customSignupFields', live.customSignupFields ?? [], draft.customSignupFields ?? [], (field) =>
      field.label.toLowerCase(),
    ),
    ...listChange<PricingPlan>('payments.plans', live.payments?.plans ?? [], draft.payments?.plans ?? [], (plan) => plan.key),
    ...listChange<Tax>(
      'payments.taxes',
      live.payments?.taxes ?? [],
      draft.payments?.taxes ?? [],
      (tax) => `${tax.countryCode}/${tax.name}`,
    ),
  );

  const languages = new Set([...Object.keys(live.translations ?? {}), ...Object.keys(draft.translations ?? {})]);
  for (const language of [...languages].sort()) {
    const before = flatten(live.translations?.[language]);
    const after = flatten(draft.translations?.[language]);
    const keys = new Set([...before.keys(), ...after.keys()]);
    const count = [...keys].filter((key) => before.get(key) !== after.get(key)).length;
    if (count > 0) changes.push({ kind: 'translations', language, count });
  }
  return changes;
}
