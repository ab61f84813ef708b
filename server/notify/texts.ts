// Mail and SMS texts: Foyer's own translation files (every locales/<locale>.json present, one per
// language of common/locales.ts), overridden per app by the app's settings.translations[language]
// keys under `mail.`. The language is the recipient's locale when Foyer or the app has texts for it,
// otherwise English; a key missing in that language falls back to English. Texts are plain text:
// the HTML renderer escapes whole sentences, values included.
import { readdirSync, readFileSync } from 'node:fs';
import type { Translations } from '../../common/app-config.ts';

type Texts = Record<string, string>;

export const FALLBACK_LANGUAGE = 'en';

function flatten(tree: unknown, prefix = '', into: Texts = {}): Texts {
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into[path] = value;
    else if (value && typeof value === 'object') flatten(value, path, into);
  }
  return into;
}

const LOCALES_DIRECTORY = new URL('./locales/', import.meta.url);

/** Read once at start: a language whose file is missing is simply not bundled (its mail is English). */
const bundled: Record<string, Texts> = Object.fromEntries(
  readdirSync(LOCALES_DIRECTORY)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file.slice(0, -'.json'.length), flatten(JSON.parse(readFileSync(new URL(file, LOCALES_DIRECTORY), 'utf8')))]),
);
if (!bundled.en) throw new Error('server/notify/locales/en.json is missing');

/** Tags compare case-insensitively (`pt-br` is `pt-BR`); the file's own spelling is the language's name. */
const bundledByLowerCase = new Map(Object.keys(bundled).map((language) => [language.toLowerCase(), language]));

/** Norwegian in general (`no`) and Nynorsk read the Bokmål texts, the only Norwegian shipped. */
const ALIASES: Record<string, string> = { no: 'nb', nn: 'nb' };

/** The keys an app may override: only mail texts, never the developer pages. */
const OVERRIDABLE_PREFIX = 'mail.';

export type AppTranslations = Translations | undefined | null;

export interface Translator {
  /** The language the texts are in (for `<html lang>`). */
  language: string;
  t(key: string, values?: Record<string, string | number>): string;
}

/** Language tags only: the language ends up in `<html lang>` and a mail header. */
const LANGUAGE_TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/;

/** `sv-SE`, `SV` and ` sv ` all mean `sv`; the exact tag is tried first, then its language. */
function candidates(locale: string | null | undefined): string[] {
  const tag = (locale ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (!LANGUAGE_TAG.test(tag)) return [];
  const primary = tag.split('-')[0]!;
  const alias = ALIASES[primary];
  return [...new Set([tag, primary, ...(alias ? [alias] : [])])];
}

/** A shipped language a candidate names; else one of a language with only Foyer's texts' region (`pt` → `pt-BR`). */
function bundledLanguageOf(candidate: string): string | undefined {
  return (
    bundledByLowerCase.get(candidate) ??
    (candidate.includes('-') ? undefined : [...bundledByLowerCase].find(([lower]) => lower.split('-')[0] === candidate)?.[1])
  );
}

/** The key of the app's translations that names `candidate`, compared case-insensitively. */
function appLanguageOf(translations: AppTranslations, candidate: string): string | undefined {
  return Object.keys(translations ?? {}).find(
    (language) => language.toLowerCase() === candidate && Object.keys(appTexts(translations, language)).length > 0,
  );
}

function appTexts(translations: AppTranslations, language: string): Texts {
  const own = translations?.[language];
  if (!own || typeof own !== 'object') return {};
  return Object.fromEntries(Object.entries(flatten(own)).filter(([key]) => key.startsWith(OVERRIDABLE_PREFIX)));
}

export function chooseLanguage(locale: string | null | undefined, translations?: AppTranslations): string {
  for (const candidate of candidates(locale)) {
    const language = appLanguageOf(translations, candidate) ?? bundledLanguageOf(candidate);
    if (language) return language;
  }
  return FALLBACK_LANGUAGE;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

/** Replaces {{name}} placeholders; a value a text names but the caller did not give becomes empty. */
export function interpolate(text: string, values: Record<string, string | number>): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => (name in values ? String(values[name]) : ''));
}

/** An app may name a language no Intl data knows (any key of its translations); English plurals then. */
function pluralRules(language: string): Intl.PluralRules {
  try {
    return new Intl.PluralRules(language);
  } catch {
    return new Intl.PluralRules(FALLBACK_LANGUAGE);
  }
}

function numberFormat(language: string): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(language);
  } catch {
    return new Intl.NumberFormat(FALLBACK_LANGUAGE);
  }
}

/** Numbers as the language writes them (durations, minutes); texts such as a code stay as given. */
function localized(values: Record<string, string | number>, numbers: Intl.NumberFormat): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, typeof value === 'number' ? numbers.format(value) : value]),
  );
}

export function createTranslator(locale: string | null | undefined, translations?: AppTranslations): Translator {
  const language = chooseLanguage(locale, translations);
  const shipped = bundled[language] ? language : bundledLanguageOf(language.toLowerCase().split('-')[0]!);
  const layers: Texts[] = [
    appTexts(translations, language),
    (shipped && bundled[shipped]) || {},
    appTexts(translations, FALLBACK_LANGUAGE),
    bundled[FALLBACK_LANGUAGE]!,
  ];
  const plural = pluralRules(language);
  const numbers = numberFormat(language);
  const lookup = (key: string) => layers.find((layer) => key in layer)?.[key];
  return {
    language,
    t(key, values = {}) {
      const count = values.count;
      const text =
        (typeof count === 'number' ? (lookup(`${key}_${plural.select(count)}`) ?? lookup(`${key}_other`)) : undefined) ?? lookup(key);
      if (text === undefined) throw new Error(`Missing mail text: ${key}`);
      return interpolate(text, localized(values, numbers));
    },
  };
}

/** Every language Foyer itself ships mail texts for. */
export const bundledLanguages = Object.keys(bundled);

/** The bundled texts of one language, flattened (for the tests that keep the files in step). */
export function bundledTexts(language: string): Readonly<Texts> {
  return bundled[language] ?? {};
}
