// i18next's texts as the screens read them (./texts.ts), apart from ./i18next.ts so that the
// configurator, which has an i18next instance of its own (configurator/i18n), reads them without the
// runtime's set-up.
import type { i18n as I18n } from 'i18next';
import type { Texts, TextsStore } from './texts.ts';

/**
 * `instance`'s texts as the screens read them (./texts.ts): anew whenever its language or texts change
 * (a language switch, a preview's new overrides), so the screens re-render with them. `showLanguage`
 * is the language switch (./i18next.ts), none where nothing switches it (the server's drawing, the
 * configurator's own instance, which the runtime's pager reads).
 */
export function i18nextTexts(instance: I18n, showLanguage?: (language: string) => Promise<void>): TextsStore {
  const read = (): Texts => ({
    language: instance.language,
    t: (key, options) => instance.t(key, options ?? {}),
    exists: (key, options) => instance.exists(key, options),
    showLanguage,
  });
  let current = read();
  return {
    get: () => current,
    subscribe(listener) {
      const changed = () => {
        current = read();
        listener();
      };
      instance.on('languageChanged', changed);
      instance.store.on('added', changed);
      instance.store.on('removed', changed);
      return () => {
        instance.off('languageChanged', changed);
        instance.store.off('added', changed);
        instance.store.off('removed', changed);
      };
    },
  };
}
