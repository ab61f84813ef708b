// Translation overrides: the runtime's texts are nested like src/i18n/locales/en.json, the editor
// works on flat dotted keys ('login.heading'). Foyer ships texts for `en`; a key of another language
// is missing until the app overrides it.
import type { TranslationTexts, Translations } from '../../common/app-config.ts';

export type FlatTexts = Record<string, string>;

export function flattenTexts(texts: TranslationTexts | undefined, prefix = ''): FlatTexts {
  const flat: FlatTexts = {};
  for (const [key, value] of Object.entries(texts ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat[path] = value;
    else Object.assign(flat, flattenTexts(value, path));
  }
  return flat;
}

/** Nests dotted keys again; empty texts are left out (an empty override means "no override"). */
export function unflattenTexts(flat: FlatTexts): TranslationTexts {
  const nested: TranslationTexts = {};
  for (const [key, value] of Object.entries(flat)) {
    if (value === '') continue;
    const parts = key.split('.');
    let node = nested;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next === 'object') node = next;
      else node = node[part] = {};
    }
    node[parts[parts.length - 1]!] = value;
  }
  return nested;
}

/** The app's translations with one key of one language set ('' removes it; an emptied language goes). */
export function setOverride(translations: Translations | undefined, language: string, key: string, text: string): Translations | undefined {
  const flat = { ...flattenTexts(translations?.[language]) };
  if (text === '') delete flat[key];
  else flat[key] = text;
  const texts = unflattenTexts(flat);
  const next: Translations = { ...translations };
  if (Object.keys(texts).length === 0) delete next[language];
  else next[language] = texts;
  return Object.keys(next).length === 0 ? undefined : next;
}

export interface TranslationCounts {
  total: number;
  /** Keys the app overrides in this language. */
  overridden: number;
  /** Keys with no text in this language: neither shipped by Foyer nor overridden. */
  missing: number;
}

export function translationCounts(defaults: FlatTexts, shipped: FlatTexts | undefined, overrides: FlatTexts): TranslationCounts {
  const keys = Object.keys(defaults);
  let overridden = 0;
  let missing = 0;
  for (const key of keys) {
    const override = overrides[key];
    if (override) overridden++;
    else if (!shipped?.[key]) missing++;
  }
  return { total: keys.length, overridden, missing };
}

/** Keys whose name, default text or override contains every word of `query` (case-insensitive). */
export function searchKeys(keys: string[], query: string, defaults: FlatTexts, overrides: FlatTexts): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return keys;
  return keys.filter((key) => {
    const haystack = `${key}\n${defaults[key] ?? ''}\n${overrides[key] ?? ''}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** Language codes the schema accepts ('sv', 'pt-BR'). */
export const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
