// The languages Foyer ships: every screen, configurator, mail and SMS text exists in each of them
// (src/i18n/locales, configurator/i18n, server/notify/locales). A workspace's locale must be one of
// them (the server refuses any other); an app offers a subset of them on its hosted screens.

export interface LocaleInfo {
  /** The language's name in itself, as a language switch shows it. */
  endonym: string;
  dir: 'ltr' | 'rtl';
}

export const LOCALES = {
  en: { endonym: 'English', dir: 'ltr' },
  sv: { endonym: 'Svenska', dir: 'ltr' },
  de: { endonym: 'Deutsch', dir: 'ltr' },
  fr: { endonym: 'Français', dir: 'ltr' },
  es: { endonym: 'Español', dir: 'ltr' },
  'pt-BR': { endonym: 'Português (Brasil)', dir: 'ltr' },
  it: { endonym: 'Italiano', dir: 'ltr' },
  nl: { endonym: 'Nederlands', dir: 'ltr' },
  da: { endonym: 'Dansk', dir: 'ltr' },
  nb: { endonym: 'Norsk bokmål', dir: 'ltr' },
  fi: { endonym: 'Suomi', dir: 'ltr' },
  pl: { endonym: 'Polski', dir: 'ltr' },
  cs: { endonym: 'Čeština', dir: 'ltr' },
  tr: { endonym: 'Türkçe', dir: 'ltr' },
  ja: { endonym: '日本語', dir: 'ltr' },
  'zh-CN': { endonym: '简体中文', dir: 'ltr' },
  ko: { endonym: '한국어', dir: 'ltr' },
  ar: { endonym: 'العربية', dir: 'rtl' },
  he: { endonym: 'עברית', dir: 'rtl' },
  uk: { endonym: 'Українська', dir: 'ltr' },
} as const satisfies Record<string, LocaleInfo>;

export type SupportedLocale = keyof typeof LOCALES;

export const SUPPORTED_LOCALES = Object.keys(LOCALES) as SupportedLocale[];

export const DEFAULT_LOCALE: SupportedLocale = 'en';

export function isSupportedLocale(value: string): value is SupportedLocale {
  return Object.hasOwn(LOCALES, value);
}

export function localeDirection(locale: string): 'ltr' | 'rtl' {
  return isSupportedLocale(locale) ? LOCALES[locale].dir : 'ltr';
}

/**
 * The supported locale a language tag asks for, or undefined: the exact tag first (case-insensitive,
 * `_` read as `-`), then its primary language (`sv-SE` → `sv`, `pt-PT` → `pt-BR`, `zh-TW` → `zh-CN`
 * as the only Portuguese and Chinese shipped; `no`/`nn` → `nb`).
 */
export function matchLocale(tag: string | null | undefined, among: readonly string[] = SUPPORTED_LOCALES): SupportedLocale | undefined {
  const wanted = (tag ?? '').trim().replace(/_/g, '-').toLowerCase();
  if (!wanted) return undefined;
  const offered = among.filter(isSupportedLocale);
  const exact = offered.find((locale) => locale.toLowerCase() === wanted);
  if (exact) return exact;
  const primary = wanted.split('-')[0]!;
  const language = primary === 'no' || primary === 'nn' ? 'nb' : primary;
  return offered.find((locale) => locale.toLowerCase().split('-')[0] === language);
}

/**
 * The language of the signed-out screens: the visitor's own choice, else the first of the browser's
 * preferred languages the app offers, else the app's default (SPEC.md section 1 then takes over with
 * the workspace's locale once the user is known).
 */
export function chooseLocale(options: {
  chosen?: string | null;
  preferred?: readonly string[];
  offered?: readonly string[] | null;
  fallback?: string | null;
}): SupportedLocale {
  const offered = options.offered && options.offered.length > 0 ? options.offered.filter(isSupportedLocale) : SUPPORTED_LOCALES;
  const fallback = matchLocale(options.fallback, offered) ?? offered[0] ?? DEFAULT_LOCALE;
  const chosen = matchLocale(options.chosen, offered);
  if (chosen) return chosen;
  for (const tag of options.preferred ?? []) {
    const match = matchLocale(tag, offered);
    if (match) return match;
  }
  return fallback;
}

/** An app's language settings (schema/app-config.schema.json): both optional. */
export interface AppLanguageSettings {
  languages?: readonly string[];
  defaultLanguage?: string;
}

/** The languages an app's hosted screens offer: its list, or every shipped one when it has none. */
export function offeredLocales(settings: AppLanguageSettings): SupportedLocale[] {
  const listed = (settings.languages ?? []).filter(isSupportedLocale);
  return listed.length > 0 ? SUPPORTED_LOCALES.filter((locale) => listed.includes(locale)) : [...SUPPORTED_LOCALES];
}

/** The app's default language: its setting when offered, else English when offered, else the first offered. */
export function defaultLocaleOf(settings: AppLanguageSettings): SupportedLocale {
  const offered = offeredLocales(settings);
  const wanted = settings.defaultLanguage;
  if (wanted && isSupportedLocale(wanted) && offered.includes(wanted)) return wanted;
  return offered.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : offered[0]!;
}

/** Why an app's language settings cannot be saved, or undefined: the default must be one it offers. */
export function languageSettingsProblem(settings: AppLanguageSettings): string | undefined {
  if (
    settings.defaultLanguage &&
    settings.languages &&
    settings.languages.length > 0 &&
    !settings.languages.includes(settings.defaultLanguage)
  ) {
    return 'must be one of the offered languages';
  }
  return undefined;
}
