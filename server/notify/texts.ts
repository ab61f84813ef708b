// Mail texts: Foyer's own translation files (locales/*.json), overridden per app by the app's
// settings.translations[language] keys under `mail.`. The language is the recipient's locale when
// Foyer or the app has texts for it, otherwise English; a key missing in that language falls back
// to English. Texts are plain text: the HTML renderer escapes whole sentences, values included.
import en from './locales/en.json' with { type: 'json' };
import sv from './locales/sv.json' with { type: 'json' };
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

const bundled: Record<string, Texts> = { en: flatten(en), sv: flatten(sv) };

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

/** `sv-SE`, `SV` and ` sv ` all mean `sv`; the exact tag is tried first. */
function candidates(locale: string | null | undefined): string[] {
  const tag = (locale ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (!LANGUAGE_TAG.test(tag)) return [];
  const primary = tag.split('-')[0]!;
  return tag === primary ? [tag] : [tag, primary];
}

function appTexts(translations: AppTranslations, language: string): Texts {
  const own = translations?.[language];
  if (!own || typeof own !== 'object') return {};
  return Object.fromEntries(Object.entries(flatten(own)).filter(([key]) => key.startsWith(OVERRIDABLE_PREFIX)));
}

export function chooseLanguage(locale: string | null | undefined, translations?: AppTranslations): string {
  return (
    candidates(locale).find(
      (language) => language in bundled || Object.keys(appTexts(translations, language)).length > 0,
    ) ?? FALLBACK_LANGUAGE
  );
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

export function createTranslator(locale: string | null | undefined, translations?: AppTranslations): Translator {
  const language = chooseLanguage(locale, translations);
  const layers: Texts[] = [
    appTexts(translations, language),
    bundled[language] ?? {},
    appTexts(translations, FALLBACK_LANGUAGE),
    bundled[FALLBACK_LANGUAGE]!,
  ];
  const plural = pluralRules(language);
  const lookup = (key: string) => layers.find((layer) => key in layer)?.[key];
  return {
    language,
    t(key, values = {}) {
      const count = values.count;
      const text =
        (typeof count === 'number' ? lookup(`${key}_${plural.select(count)}`) ?? lookup(`${key}_other`) : undefined) ??
        lookup(key);
      if (text === undefined) throw new Error(`Missing mail text: ${key}`);
      return interpolate(text, values);
    },
  };
}

/** Every language Foyer itself ships mail texts for. */
export const bundledLanguages = Object.keys(bundled);

/** The bundled texts of one language, flattened (for the tests that keep the files in step). */
export function bundledTexts(language: string): Readonly<Texts> {
  return bundled[language] ?? {};
}
