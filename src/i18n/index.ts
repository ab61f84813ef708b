// i18next set-up: `en` ships in the bundle (docs/SPEC.md texts); an app's translations.json overrides or adds
// languages at start-up (a preview replaces them with its draft's), and the language follows the
// signed-in user's workspace locale.
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';

export type TranslationResources = Record<string, Record<string, unknown>>;

export function createI18n(language = 'en'): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    // A copy: overrides merge into the store in place and must never reach the shipped texts.
    resources: { en: { translation: structuredClone(en) } },
    lng: language,
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    // Screens re-render when texts change under them (a preview's new overrides).
    react: { bindI18nStore: 'added removed' },
  });
  return instance;
}

/** Per-app texts from the branding storage; any failure means the app has none. */
export async function loadAppTranslations(apiUrl: string, appId: string): Promise<TranslationResources> {
  if (!appId) return {};
  try {
    const response = await fetch(`${apiUrl}/${encodeURIComponent(appId)}/translations.json`);
    if (!response.ok) return {};
    const body: unknown = await response.json();
    return isResources(body) ? body : {};
  } catch {
    return {};
  }
}

function isResources(value: unknown): value is TranslationResources {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((texts) => typeof texts === 'object' && texts !== null && !Array.isArray(texts))
  );
}

export function applyTranslations(instance: I18n, resources: TranslationResources): void {
  for (const [language, texts] of Object.entries(resources)) {
    instance.addResourceBundle(language, 'translation', texts, true, true);
  }
}

/**
 * Replaces every app override with `resources`: the store goes back to the shipped `en` texts, then
 * takes the new overrides, so an override left out of `resources` is gone rather than kept.
 */
export function replaceAppTranslations(instance: I18n, resources: TranslationResources): void {
  for (const language of Object.keys(instance.store.data)) instance.removeResourceBundle(language, 'translation');
  instance.addResourceBundle('en', 'translation', structuredClone(en), true, true);
  applyTranslations(instance, resources);
}

/** Switches to the workspace (or user) locale once known; unknown languages fall back to `en` per key. */
export function followLocale(instance: I18n, locale: string | undefined): void {
  const language = locale?.trim();
  if (language && instance.language !== language) void instance.changeLanguage(language);
}

/** Loads the app's custom stylesheet after Foyer's own so its token overrides win; a failing load leaves none. */
export const CUSTOM_CSS_LINK_ID = 'foyer-custom-css';

export function loadCustomCss(apiUrl: string, appId: string): void {
  if (!appId || typeof document === 'undefined') return;
  if (document.getElementById(CUSTOM_CSS_LINK_ID)) return;
  const link = document.createElement('link');
  link.id = CUSTOM_CSS_LINK_ID;
  link.rel = 'stylesheet';
  link.href = `${apiUrl}/${encodeURIComponent(appId)}/custom.css`;
  link.addEventListener('error', () => link.remove());
  document.head.appendChild(link);
}

/** A moment as the screens show it (a passkey's dates, activity): medium date and short time in `language`. */
export function formatDateTime(value: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
}

/** The translation key of an audit event's text: keys have no dots of their own (login.success → login_success). */
export function auditEventKey(section: string, type: string): string {
  return `${section}.${type.replace(/\./g, '_')}`;
}

/**
 * A device as the screens name it ("Firefox on Windows") from the browser and OS the server read from
 * its User-Agent; undefined when it named neither.
 */
export function deviceLabel(t: (key: string, options?: Record<string, unknown>) => string, browser?: string | null, os?: string | null): string | undefined {
  if (browser && os) return t('devices.browserOnOs', { browser, os });
  return browser ?? os ?? undefined;
}
