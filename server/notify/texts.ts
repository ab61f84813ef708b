// Mail and SMS texts: Foyer's own translation files (every locales/<locale>.json present, one per
// language of common/locales.ts), overridden per app by the app's settings.translations[language]
// keys under `mail.`. The language is the recipient's locale when Foyer or the app has texts for it,
// otherwise English; a key missing in that language falls back to English (i18next does the lookup,
// plurals and interpolation; numbers are written as the language writes them). Texts are plain text:
// the HTML renderer escapes whole sentences, values included.
import { readdirSync, readFileSync } from 'node:fs';
import i18next, { type FormatterModule } from 'i18next';
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

/**
 * The languages whose file is present, listed at start (a language whose file is missing is simply
 * not bundled: its mail is English). Each file is read on the first text of its language: most
 * starts send mail in few of the 20 languages or in none, and holding them all took heap for good.
 */
const bundledFiles = new Set(
  readdirSync(LOCALES_DIRECTORY)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length)),
);
if (!bundledFiles.has(FALLBACK_LANGUAGE)) throw new Error('server/notify/locales/en.json is missing');

const loaded = new Map<string, Texts>();

/** A shipped language's texts, flattened; undefined for a language Foyer ships no file for. */
function shippedTexts(language: string): Texts | undefined {
  if (!bundledFiles.has(language)) return undefined;
  let texts = loaded.get(language);
  if (!texts) {
    texts = flatten(JSON.parse(readFileSync(new URL(`${language}.json`, LOCALES_DIRECTORY), 'utf8')));
    loaded.set(language, texts);
  }
  return texts;
}

/** Tags compare case-insensitively (`pt-br` is `pt-BR`); the file's own spelling is the language's name. */
const bundledByLowerCase = new Map([...bundledFiles].map((language) => [language.toLowerCase(), language]));

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

/** Numbers as the language writes them (durations, minutes); texts such as a code stay as given. */
function numberFormatter(language: string): FormatterModule {
  let numbers: Intl.NumberFormat;
  try {
    numbers = new Intl.NumberFormat(language);
  } catch {
    numbers = new Intl.NumberFormat(FALLBACK_LANGUAGE);
  }
  return {
    type: 'formatter',
    init: () => undefined,
    add: () => undefined,
    addCached: () => undefined,
    // A value a text names but the caller did not give becomes empty.
    format: (value: unknown) => (typeof value === 'number' ? numbers.format(value) : String(value ?? '')),
  };
}

export function createTranslator(locale: string | null | undefined, translations?: AppTranslations): Translator {
  const language = chooseLanguage(locale, translations);
  const shipped = bundledFiles.has(language) ? language : bundledLanguageOf(language.toLowerCase().split('-')[0]!);
  const i18n = i18next.createInstance();
  // An app may name a language no Intl data knows (any key of its translations): i18next then
  // counts as English does.
  void i18n.use(numberFormatter(language)).init({
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    resources: {
      [language]: { translation: { ...(shipped ? shippedTexts(shipped) : {}), ...appTexts(translations, language) } },
      [FALLBACK_LANGUAGE]: { translation: { ...shippedTexts(FALLBACK_LANGUAGE)!, ...appTexts(translations, FALLBACK_LANGUAGE) } },
    },
    // The keys are already flat (`mail.reset.subject`); the renderer escapes whole sentences itself.
    keySeparator: false,
    interpolation: { escapeValue: false, alwaysFormat: true },
    initAsync: false,
  });
  return {
    language,
    t(key, values = {}) {
      if (!i18n.exists(key, values)) throw new Error(`Missing mail text: ${key}`);
      return i18n.t(key, values);
    },
  };
}

/** Every language Foyer itself ships mail texts for. */
export const bundledLanguages = [...bundledFiles];

/** The bundled texts of one language, flattened (for the tests that keep the files in step). */
export function bundledTexts(language: string): Readonly<Texts> {
  return shippedTexts(language) ?? {};
}
