// Which language the screens show (common/locales.ts chooseLocale): once the user is known, their
// workspace's locale (else their own), SPEC.md section 1; before that the visitor's own choice from
// the language switch (remembered in this browser), else the browser's preferred languages among
// those the app offers, else the app's default.
import { chooseLocale, matchLocale, SUPPORTED_LOCALES, type SupportedLocale } from '../../common/locales.ts';
import type { PublicAppConfig } from '../runtime/app-config.ts';
import type { AuthSession } from '../auth/types.ts';

/** Where the visitor's own choice is remembered; not an NB_ key, which SPEC.md reserves for tokens. */
export const LANGUAGE_CHOICE_KEY = 'FOYER_LANGUAGE';

export interface LanguageChoiceStore {
  get(): string | null;
  set(locale: string): void;
  subscribe(listener: () => void): () => void;
}

/** The remembered choice in `storage` (localStorage; a preview passes none and keeps it in memory). */
export function createLanguageChoiceStore(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined): LanguageChoiceStore {
  let current: string | null = null;
  try {
    current = storage?.getItem(LANGUAGE_CHOICE_KEY) ?? null;
  } catch {
    current = null;
  }
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(locale) {
      current = locale;
      try {
        storage?.setItem(LANGUAGE_CHOICE_KEY, locale);
      } catch {
        // Storage full or blocked: the choice holds for this page only.
      }
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface LanguageInputs {
  /** The signed-in user's workspace locale, else their own; undefined while signed out. */
  userLocale?: string | null;
  chosen?: string | null;
  preferred?: readonly string[];
  app?: Pick<PublicAppConfig, 'languages' | 'defaultLanguage'>;
}

export function screenLanguage({ userLocale, chosen, preferred, app }: LanguageInputs): SupportedLocale {
  const known = matchLocale(userLocale, SUPPORTED_LOCALES);
  if (known) return known;
  return chooseLocale({ chosen, preferred, offered: app?.languages, fallback: app?.defaultLanguage });
}

/** The browser's preferred languages, most wanted first. */
export function browserLanguages(): readonly string[] {
  return globalThis.navigator?.languages ?? (globalThis.navigator?.language ? [globalThis.navigator.language] : []);
}

/** The locale SPEC.md section 1 gives a signed-in user: their workspace's, else their own. */
export function signedInLocale(auth: Pick<AuthSession, 'isAuthenticated' | 'currentUser'>): string | undefined {
  if (!auth.isAuthenticated()) return undefined;
  const user = auth.currentUser();
  return user.tenant.locale || user.locale || undefined;
}
