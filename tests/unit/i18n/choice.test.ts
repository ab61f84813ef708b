// Which language the screens show: the workspace's locale once signed in, else the visitor's choice,
// the browser's preferences among the app's languages, or the app's default (common/locales.ts).
import { describe, expect, it } from 'vitest';
import {
  chooseLocale,
  defaultLocaleOf,
  languageSettingsProblem,
  localeDirection,
  matchLocale,
  offeredLocales,
} from '../../../common/locales.ts';
import { createLanguageChoiceStore, LANGUAGE_CHOICE_KEY, screenLanguage } from '../../../src/i18n/choice.ts';
import { applyDocumentLanguage } from '../../../src/i18n/document.ts';
import { passwordProblemTexts } from '../../../common/password-policy.ts';
import { translateServerMessage } from '../../../src/i18n/index.ts';
import { createI18n, showLanguage } from '../../../src/i18n/i18next.ts';
import en from '../../../src/i18n/locales/en.json';
import sv from '../../../src/i18n/locales/sv.json';

describe('matchLocale', () => {
  it('matches tags case-insensitively, then by language, Norwegian to Bokmål', () => {
    expect(matchLocale('PT-br')).toBe('pt-BR');
    expect(matchLocale('pt-PT')).toBe('pt-BR');
    expect(matchLocale('zh-TW')).toBe('zh-CN');
    expect(matchLocale('sv_SE')).toBe('sv');
    expect(matchLocale('no')).toBe('nb');
    expect(matchLocale('eo')).toBeUndefined();
    expect(matchLocale('de', ['en', 'sv'])).toBeUndefined();
  });
});

describe('chooseLocale', () => {
  const app = { offered: ['en', 'sv', 'ar'], fallback: 'sv' };

  it("takes the visitor's own choice first, when the app offers it", () => {
    expect(chooseLocale({ ...app, chosen: 'ar', preferred: ['sv'] })).toBe('ar');
    expect(chooseLocale({ ...app, chosen: 'de', preferred: ['en-GB'] })).toBe('en');
  });

  it("then the first of the browser's languages the app offers, else the app's default", () => {
    expect(chooseLocale({ ...app, preferred: ['fr-FR', 'ar-EG', 'en'] })).toBe('ar');
    expect(chooseLocale({ ...app, preferred: ['fr-FR', 'ja'] })).toBe('sv');
  });

  it('offers every shipped language when the app names none, English by default', () => {
    expect(chooseLocale({ preferred: ['ja-JP'] })).toBe('ja');
    expect(chooseLocale({ preferred: ['eo'] })).toBe('en');
  });
});

describe('screenLanguage', () => {
  it("follows the signed-in user's workspace locale over any choice (SPEC.md section 1)", () => {
    expect(screenLanguage({ userLocale: 'sv', chosen: 'de', preferred: ['fr'] })).toBe('sv');
    expect(screenLanguage({ userLocale: null, chosen: 'de', preferred: ['fr'] })).toBe('de');
    expect(screenLanguage({ userLocale: 'xx', preferred: ['fr'], app: { languages: ['en', 'fr'], defaultLanguage: 'en' } })).toBe('fr');
  });
});

describe('app language settings', () => {
  it('offer every shipped language unless listed, in the shipped order; the default must be offered', () => {
    expect(offeredLocales({})).toHaveLength(20);
    expect(offeredLocales({ languages: ['he', 'de', 'xx'] })).toEqual(['de', 'he']);
    expect(defaultLocaleOf({ languages: ['he', 'de'] })).toBe('de');
    expect(defaultLocaleOf({ languages: ['he', 'en'], defaultLanguage: 'he' })).toBe('he');
    expect(languageSettingsProblem({ languages: ['he', 'de'], defaultLanguage: 'en' })).toBeDefined();
    expect(languageSettingsProblem({ languages: ['he', 'de'], defaultLanguage: 'de' })).toBeUndefined();
  });
});

describe('the remembered choice', () => {
  it('is read from and written to storage, and tells its listeners', () => {
    const storage = new Map<string, string>([[LANGUAGE_CHOICE_KEY, 'sv']]);
    const store = createLanguageChoiceStore({
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
    });
    expect(store.get()).toBe('sv');
    const heard: (string | null)[] = [];
    store.subscribe(() => heard.push(store.get()));
    store.set('de');
    expect(storage.get(LANGUAGE_CHOICE_KEY)).toBe('de');
    expect(heard).toEqual(['de']);
  });
});

describe('showLanguage', () => {
  it('fetches the language, switches, and sets <html lang dir>: right to left for Arabic and Hebrew only', async () => {
    const i18n = createI18n('en', { en });
    await showLanguage(i18n, 'de');
    expect(i18n.t('actions.cancel')).toBe('Abbrechen');
    expect(document.documentElement.lang).toBe('de');
    expect(document.documentElement.dir).toBe('ltr');
    const root = document.createElement('html');
    applyDocumentLanguage('he', root);
    expect(root.dir).toBe('rtl');
    expect(localeDirection('ar')).toBe('rtl');
  });

  it('falls back to English per key for a language Foyer has no file for', async () => {
    const i18n = createI18n('en', { en });
    await showLanguage(i18n, 'eo');
    expect(i18n.language).toBe('eo');
    expect(i18n.t('actions.cancel')).toBe('Cancel');
  });

  it('writes numbers in texts the way the language does', async () => {
    const i18n = createI18n('en', { en });
    await showLanguage(i18n, 'de');
    expect(i18n.t('table.pageOf', { page: 1, pages: 2, total: 12345 })).toBe('Seite 1 von 2 (12.345 insgesamt)');
    expect(i18n.t('footer.copyright', { year: 2026 })).toBe('© 2026 Alle Rechte vorbehalten');
  });
});

describe('translateServerMessage', () => {
  it("translates a key, or one of Foyer's English texts the server answers (the password rules), and leaves others", async () => {
    const i18n = createI18n('en', { en });
    await showLanguage(i18n, 'sv');
    expect(translateServerMessage(i18n, passwordProblemTexts['password.policy.uppercase'])).toBe(sv.password.policy.uppercase);
    expect(translateServerMessage(i18n, 'users.errors.FORBIDDEN')).toBe(sv.users.errors.FORBIDDEN);
    expect(translateServerMessage(i18n, 'Something only the server says')).toBe('Something only the server says');
  });

  it('translates the field messages the server sends (server/graphql/input.ts, custom fields, flow attributes)', async () => {
    const i18n = createI18n('en', { en });
    await showLanguage(i18n, 'sv');
    expect(translateServerMessage(i18n, 'Enter a name')).toBe(sv.serverMessages.enterName);
    expect(translateServerMessage(i18n, 'Choose one of the options')).toBe(sv.serverMessages.chooseOption);
    expect(sv.serverMessages.enterName).not.toBe('Enter a name');
  });
});
