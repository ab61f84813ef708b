// @vitest-environment node
// Per-app translations from the branding storage (a local HTTP server here), and the locale switch.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../../src/i18n/locales/en.json';
import sv from '../../../src/i18n/locales/sv.json';
import { loadAppTranslations } from '../../../src/i18n/index.ts';
import { applyTranslations, createI18n, showLanguage } from '../../../src/i18n/i18next.ts';
import { passwordProblemTexts } from '../../../common/password-policy.ts';

let server: Server;
let apiUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/app-with-texts/translations.json') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ en: { login: { title: 'Sign in to Acme' } }, sv: { login: { title: 'Logga in' } } }));
    } else if (request.url === '/app-broken/translations.json') {
      response.setHeader('content-type', 'application/json');
      response.end('["not", "resources"]');
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('i18n', () => {
  it('ships the SPEC texts in en', async () => {
    const i18n = createI18n();
    await showLanguage(i18n, 'en');
    expect(i18n.t('login.errors.wrongCredentials')).toBe('Wrong credentials, please try again.');
    expect(i18n.t('errors.title')).toBe('An error occured');
    expect(i18n.t('footer.copyright', { year: 2026 })).toBe('2026 All Rights Reserved');
    expect(en.chooseUser.empty.message).toBe("You don't belong to any workspace. Contact support!");
  });

  it('shows the password policy in the same words the server writes', async () => {
    const i18n = createI18n();
    await showLanguage(i18n, 'en');
    for (const [key, text] of Object.entries(passwordProblemTexts)) expect(i18n.t(key)).toBe(text);
    expect(i18n.t('password.policy.complexity')).toBe('The password must be hard to guess!');
  });

  it("applies an app's translations and follows the workspace locale", async () => {
    const i18n = createI18n();
    applyTranslations(i18n, await loadAppTranslations(apiUrl, 'app-with-texts'));
    await showLanguage(i18n, 'en');
    expect(i18n.t('login.title')).toBe('Sign in to Acme');
    await showLanguage(i18n, 'sv');
    expect(i18n.language).toBe('sv');
    // The app's override, applied before the shipped Swedish texts were fetched, keeps winning.
    expect(i18n.t('login.title')).toBe('Logga in');
    // Keys the app does not translate come from Foyer's own Swedish texts.
    expect(i18n.t('chooseUser.newAccount')).toBe(sv.chooseUser.newAccount);
    expect(sv.chooseUser.newAccount).not.toBe(en.chooseUser.newAccount);
  });

  it('treats a missing or malformed translations.json as none', async () => {
    expect(await loadAppTranslations(apiUrl, 'app-without-texts')).toEqual({});
    expect(await loadAppTranslations(apiUrl, 'app-broken')).toEqual({});
    expect(await loadAppTranslations('http://127.0.0.1:1', 'unreachable')).toEqual({});
  });
});
