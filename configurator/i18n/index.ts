// The configurator's own texts (configurator/i18n/en.json, in the first load and every other
// language's fallback); each other language is a chunk of its own, fetched only when shown. The
// language is the signed-in owner's workspace locale, else the browser's preferred languages.
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { AuthSession } from '../../src/auth/types.ts';
import { browserLanguages, screenLanguage, signedInLocale } from '../../src/i18n/choice.ts';
import { applyDocumentLanguage } from '../../src/i18n/document.ts';
import { I18NEXT_OPTIONS, intlFormatter } from '../../src/i18n/intl-formatter.ts';
import en from './en.json';

const shippedFiles = import.meta.glob<Record<string, unknown>>(['./*.json', '!./en.json'], { import: 'default' });

export function createConsoleI18n(language = 'en'): I18n {
  const instance = i18next.createInstance();
  void instance
    .use(initReactI18next)
    .use(intlFormatter)
    .init({
      resources: { en: { translation: en } },
      lng: language,
      ...I18NEXT_OPTIONS,
    });
  return instance;
}

/** The configurator's language for whoever is (or is not) signed in. */
export function consoleLanguage(auth: Pick<AuthSession, 'isAuthenticated' | 'currentUser'>): string {
  return screenLanguage({ userLocale: signedInLocale(auth), preferred: browserLanguages() });
}

/** Shows the configurator in `language`, its texts fetched first. */
export async function showConsoleLanguage(instance: I18n, language: string): Promise<void> {
  const load = shippedFiles[`./${language}.json`];
  if (load && !instance.hasResourceBundle(language, 'translation')) {
    instance.addResourceBundle(language, 'translation', await load(), true, false);
  }
  if (instance.language !== language) await instance.changeLanguage(language);
  applyDocumentLanguage(language);
}
