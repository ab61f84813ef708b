// The runtime's texts without i18next (./i18next.ts sets i18next up): each shipped language, `en`
// (docs/SPEC.md texts, every other language's fallback) included, is a chunk of its own, fetched only
// when shown, so a page carries no texts but its visitor's language. An app's translations.json
// overrides or adds texts at start-up (a preview replaces them with its draft's); src/i18n/choice.ts
// decides the language.
import { APP_STYLESHEET_ELEMENT_ID } from '../../common/first-paint.ts';
import { fieldIssueText } from './field-issues.ts';
import type { FieldMessage } from '../flow/errors.ts';
import type { Texts } from './texts.ts';

export type TranslationResources = Record<string, Record<string, unknown>>;

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

/** Every shipped language, one lazy chunk per file. */
const shippedFiles = import.meta.glob<Record<string, unknown>>('./locales/*.json', { import: 'default' });

/** The shipped texts of languages fetched so far: fetched once, re-added when overrides are replaced (./i18next.ts). */
export const shipped = new Map<string, Record<string, unknown>>();

/** Whether Foyer ships texts for `language` (a file in ./locales). */
export function hasShippedTexts(language: string): boolean {
  return `./locales/${language}.json` in shippedFiles;
}

/** Takes `language`'s shipped texts from the page (src/ssr/first-paint.ts), so showLanguage need not fetch them. */
export function adoptShippedTexts(language: string, texts: Record<string, unknown>): void {
  if (hasShippedTexts(language)) shipped.set(language, texts);
}

/** `language`'s shipped texts, fetched once; undefined for a language Foyer does not ship. */
export async function shippedTextsOf(language: string): Promise<Record<string, unknown> | undefined> {
  const load = shippedFiles[`./locales/${language}.json`];
  if (!load) return undefined;
  let texts = shipped.get(language);
  if (!texts) {
    texts = await load();
    shipped.set(language, texts);
  }
  return texts;
}

/** The app's custom stylesheet comes after Foyer's own so its token overrides win; a failing load leaves none. */
export const CUSTOM_CSS_LINK_ID = APP_STYLESHEET_ELEMENT_ID;

/** The app's stylesheet on the API host: its branding tokens, then its custom CSS (server/branding/plugin.ts). */
export function customCssUrl(apiUrl: string, appId: string): string {
  return `${apiUrl}/${encodeURIComponent(appId)}/custom.css`;
}

/** Links the app's stylesheet unless the page has it (the server's first paint links it in the head). */
export function loadCustomCss(apiUrl: string, appId: string): void {
  if (!appId || typeof document === 'undefined') return;
  if (document.getElementById(CUSTOM_CSS_LINK_ID)) return;
  const link = document.createElement('link');
  link.id = CUSTOM_CSS_LINK_ID;
  link.rel = 'stylesheet';
  link.href = customCssUrl(apiUrl, appId);
  link.addEventListener('error', () => link.remove());
  document.head.appendChild(link);
}

/** Every English text Foyer ships, by its text: the server writes SPEC.md's English, the screens translate it. */
let englishKeys: Map<string, string> | undefined;

function keyOfEnglish(text: string): string | undefined {
  const en = shipped.get('en');
  if (!en) return undefined;
  if (!englishKeys) {
    englishKeys = new Map();
    const visit = (tree: Record<string, unknown>, prefix: string) => {
      for (const [key, value] of Object.entries(tree)) {
        const path = prefix ? `${prefix}.${key}` : key;
        if (typeof value === 'string') {
          if (!englishKeys!.has(value)) englishKeys!.set(value, path);
        } else if (value && typeof value === 'object') visit(value as Record<string, unknown>, path);
      }
    };
    visit(en, '');
  }
  return englishKeys.get(text);
}

/**
 * A message from the server, in the screens' language: a field issue (code and values), a
 * translation key, or one of Foyer's English texts (the password rules SPEC.md words, which the
 * server answers as written), else as the server wrote it.
 */
export function translateServerMessage(instance: Pick<Texts, 'exists' | 't' | 'language'>, message: FieldMessage): string {
  if (typeof message === 'object') return fieldIssueText(instance, message) ?? translateServerMessage(instance, message.message);
  if (instance.exists(message)) return instance.t(message);
  const key = keyOfEnglish(message);
  return key ? instance.t(key) : message;
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
export function deviceLabel(
  t: (key: string, options?: Record<string, unknown>) => string,
  browser?: string | null,
  os?: string | null,
): string | undefined {
  if (browser && os) return t('devices.browserOnOs', { browser, os });
  return browser ?? os ?? undefined;
}
