// i18next set-up: the texts of ./index.ts in an i18next instance, which every screen reads (./texts.ts)
// but a server-drawn page's first step before it has loaded (./carried-texts.ts, src/app/first-step.tsx).
import i18next, { type i18n as I18n } from 'i18next';
import { applyDocumentLanguage } from './document.ts';
import { hasShippedTexts, shipped, shippedTextsOf, type TranslationResources } from './index.ts';
import { I18NEXT_OPTIONS, intlFormatter } from './intl-formatter.ts';
import { i18nextTexts } from './i18next-texts.ts';
import type { TextsStore } from './texts.ts';

/**
 * An i18next instance showing `language`; `shippedTexts` are Foyer's texts of languages already at hand
 * (else showLanguage fetches them), kept as fetched ones are.
 */
export function createI18n(language = 'en', shippedTexts: TranslationResources = {}): I18n {
  for (const [code, texts] of Object.entries(shippedTexts)) shipped.set(code, texts);
  const instance = i18next.createInstance();
  void instance.use(intlFormatter).init({
    // Copies: overrides merge into the store in place and must never reach the shipped texts.
    resources: Object.fromEntries(Object.entries(shippedTexts).map(([code, texts]) => [code, { translation: structuredClone(texts) }])),
    lng: language,
    ...I18NEXT_OPTIONS,
  });
  return instance;
}

export function applyTranslations(instance: I18n, resources: TranslationResources): void {
  for (const [language, texts] of Object.entries(resources)) {
    instance.addResourceBundle(language, 'translation', texts, true, true);
  }
}

/**
 * Fetches `language`'s shipped texts once and adds them beneath any app override already in the
 * store (overwrite off), so an override applied earlier keeps winning.
 */
export async function loadShippedTexts(instance: I18n, language: string): Promise<void> {
  const texts = await shippedTextsOf(language);
  if (texts) instance.addResourceBundle(language, 'translation', structuredClone(texts), true, false);
}

/**
 * Shows the screens in `language`: its texts fetched first, so nothing shows half in English. A shipped
 * language has every key, so English (the fallback of the others, and the key of the server's English
 * messages, translateServerMessage) follows in the background rather than before the first screen.
 */
export async function showLanguage(instance: I18n, language: string): Promise<void> {
  const english = loadShippedTexts(instance, 'en');
  if (language !== 'en' && hasShippedTexts(language)) {
    // Failing, it leaves the server's English messages as written.
    english.catch(() => undefined);
    await loadShippedTexts(instance, language);
  } else await english;
  if (instance.language !== language) await instance.changeLanguage(language);
  applyDocumentLanguage(language);
}

/**
 * Replaces every app override with `resources`: the store goes back to the shipped texts, then
 * takes the new overrides, so an override left out of `resources` is gone rather than kept.
 */
export function replaceAppTranslations(instance: I18n, resources: TranslationResources): void {
  for (const language of Object.keys(instance.store.data)) instance.removeResourceBundle(language, 'translation');
  for (const [language, texts] of shipped) instance.addResourceBundle(language, 'translation', structuredClone(texts), true, true);
  applyTranslations(instance, resources);
}

/** An i18next instance and its texts as the screens read them. */
export interface I18nextTexts {
  i18n: I18n;
  texts: TextsStore;
}

/** i18next showing `language` with the app's `translations`. */
export async function i18nextShowing(language: string, translations: TranslationResources): Promise<I18nextTexts> {
  const instance = createI18n();
  applyTranslations(instance, translations);
  await showLanguage(instance, language);
  return { i18n: instance, texts: i18nextTexts(instance, (shown) => showLanguage(instance, shown)) };
}
