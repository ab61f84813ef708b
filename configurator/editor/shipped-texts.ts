// Foyer's own runtime texts per language (src/i18n/locales), as the translations editor shows them
// beside an override: English at once, every other language fetched when the owner picks it.
import { useEffect, useState } from 'react';
import runtimeEn from '../../src/i18n/locales/en.json';
import { flattenTexts, type FlatTexts } from './translations.ts';

const files = import.meta.glob<Record<string, unknown>>(['../../src/i18n/locales/*.json', '!../../src/i18n/locales/en.json'], {
  import: 'default',
});

export const SHIPPED_ENGLISH: FlatTexts = flattenTexts(runtimeEn);

const loaded = new Map<string, FlatTexts>([['en', SHIPPED_ENGLISH]]);

/** Whether Foyer ships runtime texts for `language`. */
export function shipsLanguage(language: string): boolean {
  return loaded.has(language) || `../../src/i18n/locales/${language}.json` in files;
}

/** Foyer's texts in `language`: undefined while they load, and for a language Foyer does not ship. */
export function useShippedTexts(language: string): FlatTexts | undefined {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const load = files[`../../src/i18n/locales/${language}.json`];
    if (loaded.has(language) || !load) return undefined;
    let current = true;
    void load().then((texts) => {
      loaded.set(language, flattenTexts(texts as Parameters<typeof flattenTexts>[0]));
      if (current) setVersion((version) => version + 1);
    });
    return () => {
      current = false;
    };
  }, [language]);
  return loaded.get(language);
}
