// Every config document written through the admin API passes schema/app-config.schema.json (ajv,
// JSON Schema 2020-12, compiled once, on first use: compiling takes a few hundred milliseconds that
// the server's start should not wait for) and the custom CSS rule. Refusals name each problem by JSON
// pointer, so the configurator can show it at its field, and read the same for every kind of caller.
import { createPrivateKey } from 'node:crypto';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import appConfigSchema from '../../schema/app-config.schema.json' with { type: 'json' };
import { languageSettingsProblem } from '../../common/locales.ts';
import { checkCustomCss, customCssProblemTexts } from '../../common/custom-css.ts';
import { ownerPatternProblem, ownerPatternProblemTexts } from '../../common/owner-pattern.ts';
import { socialProviderFlags, type AppConfig } from '../../common/app-config.ts';
import { AdminError, type ProblemDetail } from './errors.ts';
import { assetsBaseOf } from '../../common/logos.ts';

let compiledValidator: ValidateFunction<AppConfig> | undefined;

function appConfigValidator(): ValidateFunction<AppConfig> {
  if (!compiledValidator) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    // Owner patterns run on RE2 (common/owner-pattern.ts): one it cannot run is refused here, one
    // too costly to run by costlyPatterns (with its own message).
    ajv.addFormat('regex', (pattern: string) => ownerPatternProblem(pattern) !== 'syntax');
    compiledValidator = ajv.compile<AppConfig>(appConfigSchema);
  }
  return compiledValidator;
}

/** The top-level fields the schema knows; anything else in stored settings is not part of the document. */
export const APP_CONFIG_FIELDS: readonly string[] = Object.keys(appConfigSchema.properties);

function detailOf(error: ErrorObject): ProblemDetail {
  const path =
    error.keyword === 'additionalProperties'
      ? `${error.instancePath}/${(error.params as { additionalProperty: string }).additionalProperty}`
      : error.keyword === 'required'
        ? `${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}`
        : error.instancePath;
  const message = error.keyword === 'additionalProperties' ? 'is not a known setting' : (error.message ?? 'is not valid');
  return { path: path || '/', code: error.keyword, params: error.params as Record<string, unknown>, message };
}

/** One detail per path: anyOf branches and repeated keywords say little more than the first message. */
function distinct(details: ProblemDetail[]): ProblemDetail[] {
  const seen = new Set<string>();
  return details.filter((detail) => !seen.has(detail.path) && seen.add(detail.path));
}

export const validationFailed = (details: ProblemDetail[]) =>
  new AdminError(400, 'VALIDATION_FAILED', 'The app settings are not valid', details);

/** Custom signup fields are told apart by label, so a label may appear once. */
function duplicateLabels(config: AppConfig): ProblemDetail[] {
  const seen = new Set<string>();
  const details: ProblemDetail[] = [];
  for (const [index, field] of (config.customSignupFields ?? []).entries()) {
    const key = field.label.toLowerCase();
    if (seen.has(key))
      details.push({ path: `/customSignupFields/${index}/label`, code: 'duplicate', params: {}, message: 'is used by another field' });
    seen.add(key);
  }
  return details;
}

/** A plan is told apart by its key, a price by currency and interval, a tax by country and name. */
function duplicatePayments(config: AppConfig): ProblemDetail[] {
  const details: ProblemDetail[] = [];
  const keys = new Set<string>();
  for (const [index, plan] of (config.payments?.plans ?? []).entries()) {
    if (keys.has(plan.key))
      details.push({ path: `/payments/plans/${index}/key`, code: 'duplicate', params: {}, message: 'is used by another plan' });
    keys.add(plan.key);
    const offers = new Set<string>();
    for (const [priceIndex, price] of plan.prices.entries()) {
      const offer = `${price.currency}/${price.recurrenceInterval}`;
      if (offers.has(offer))
        details.push({
          path: `/payments/plans/${index}/prices/${priceIndex}`,
          code: 'duplicate',
          params: {},
          message: 'has the currency and interval of another price',
        });
      offers.add(offer);
    }
  }
  const taxes = new Set<string>();
  for (const [index, tax] of (config.payments?.taxes ?? []).entries()) {
    const id = `${tax.countryCode}/${tax.name.toLowerCase()}`;
    if (taxes.has(id))
      details.push({
        path: `/payments/taxes/${index}/name`,
        code: 'duplicate',
        params: {},
        message: 'is used by another tax of the country',
      });
    taxes.add(id);
  }
  return details;
}

/** Patterns RE2 runs but that name a large count or compile to a large program (common/owner-pattern.ts). */
function costlyPatterns(config: AppConfig): ProblemDetail[] {
  const patterns: [string, string | null | undefined][] = [
    ['/passwordPolicy/complexityRegex', config.passwordPolicy?.complexityRegex],
    ...(config.customSignupFields ?? []).map((field, index): [string, string | undefined] => [
      `/customSignupFields/${index}/regex`,
      field.regex,
    ]),
  ];
  return patterns.flatMap(([path, pattern]) => {
    const problem = pattern ? ownerPatternProblem(pattern) : null;
    return problem ? [{ path, code: 'costlyPattern', params: { reason: problem }, message: ownerPatternProblemTexts[problem] }] : [];
  });
}

/** An app nobody can sign in to is refused: one method at least stays on. */
function noSignInMethod(config: AppConfig): ProblemDetail[] {
  const flags = [config.passkeysEnabled, config.magicLinkEnabled, ...Object.values(socialProviderFlags).map((flag) => config[flag])];
  const anyOn = config.passwordEnabled !== false || flags.some((flag) => flag === true);
  return anyOn
    ? []
    : [{ path: '/passwordEnabled', code: 'noSignInMethod', params: {}, message: 'keep at least one way to sign in switched on' }];
}

/** The hosted screens show images from Foyer's own origins only (their CSP): a logo is an upload. */
function foreignLogo(config: AppConfig, ownAssets: string): ProblemDetail[] {
  return config.logo && !config.logo.startsWith(ownAssets)
    ? [
        {
          path: '/logo',
          code: 'foreignLogo',
          params: {},
          message: 'upload the logo: the hosted screens show no images from other addresses',
        },
      ]
    : [];
}

/** The default language is one the app offers (common/locales.ts). */
function unofferedDefaultLanguage(config: AppConfig): ProblemDetail[] {
  const problem = languageSettingsProblem(config);
  return problem ? [{ path: '/defaultLanguage', code: 'unofferedDefaultLanguage', params: {}, message: problem }] : [];
}

/** Apple's client secrets are ES256 JWTs signed with the key Apple issued (a .p8 file: PKCS #8, EC P-256). */
function unusableAppleKey(config: AppConfig): ProblemDetail[] {
  const pem = config.socialProviders?.apple?.clientSecret;
  if (!pem) return [];
  try {
    const key = createPrivateKey({ key: pem.trim(), format: 'pem' });
    if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return [];
  } catch {
    // Not a PEM private key at all: the same answer as a key of another kind.
  }
  return [
    {
      path: '/socialProviders/apple/clientSecret',
      code: 'applePrivateKey',
      params: {},
      message: "paste the whole .p8 private key file Apple gave you (it starts with '-----BEGIN PRIVATE KEY-----')",
    },
  ];
}

/**
 * The document, typed, when it passes the schema and the CSS rule; otherwise a 400 naming every
 * problem. The logo and the CSS may load only `appId`'s own uploaded assets, served from `apiUrl`.
 */
export function checkAppConfig(document: unknown, appId: string, apiUrl: string): AppConfig {
  const validateAppConfig = appConfigValidator();
  if (!validateAppConfig(document)) {
    throw validationFailed(distinct((validateAppConfig.errors ?? []).map(detailOf)));
  }
  const problems = [
    ...duplicateLabels(document),
    ...costlyPatterns(document),
    ...duplicatePayments(document),
    ...noSignInMethod(document),
    ...foreignLogo(document, assetsBaseOf(apiUrl, appId)),
    ...unofferedDefaultLanguage(document),
    ...unusableAppleKey(document),
  ];
  if (problems.length > 0) throw validationFailed(problems);
  const css = document.branding?.customCss;
  if (css !== undefined) {
    const verdict = checkCustomCss(css, { appId });
    if (!verdict.ok) {
      throw new AdminError(400, 'INVALID_CSS', customCssProblemTexts[verdict.reason], [
        { path: '/branding/customCss', code: verdict.reason, params: {}, message: customCssProblemTexts[verdict.reason] },
      ]);
    }
  }
  return document;
}
