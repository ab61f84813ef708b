// Languages in a real Chromium against the real server: the login and signup screens in Arabic (right
// to left, mirrored, axe clean) and Japanese from the browser's language; the signed-out language
// switch (changes the texts, keeps what was typed, is remembered); the workspace's locale once signed
// in; and a mail and a text message in the workspace's language (Swedish).
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { tenants } from '../server/db/schema.ts';
import ar from '../src/i18n/locales/ar.json';
import de from '../src/i18n/locales/de.json';
import ja from '../src/i18n/locales/ja.json';
import sv from '../src/i18n/locales/sv.json';
import svMail from '../server/notify/locales/sv.json';
import { expectNoAxeViolations } from './support/browser.ts';
import { messagesTo, nextSmsCode } from './support/mailbox.ts';
import { signInToConsole } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';

// Acme and Globex speak Swedish; Globex asks for a second factor (its viewer gets a texted code).
const suite = browserSuite(async (foyer) => {
  await foyer.db.update(tenants).set({ locale: 'sv' }).where(eq(tenants.name, 'Acme'));
  await foyer.db.update(tenants).set({ locale: 'sv', mfa: true }).where(eq(tenants.name, 'Globex'));
});

const admin = () => suite.foyer.demo.users[1]!;
const viewer = () => suite.foyer.demo.users[2]!;

/** A fresh page whose browser prefers `locale` (navigator.languages and Accept-Language). */
async function pageIn(locale: string): Promise<Page> {
  const context = await suite.browser.newContext({ locale });
  return context.newPage();
}

const documentLanguage = (page: Page) => page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

/**
 * Where a field's label text sits on the field's width: its gap to the field's left and right edges.
 * Labels start where the reading starts, so they hug the left edge in English and the right in Arabic.
 */
function labelGaps(page: Page, label: string) {
  return page.getByLabel(label, { exact: true }).evaluate((input: HTMLInputElement) => {
    const range = document.createRange();
    range.selectNodeContents(input.labels![0]!);
    const text = range.getBoundingClientRect();
    const field = input.getBoundingClientRect();
    return { left: Math.round(text.left - field.left), right: Math.round(field.right - text.right) };
  });
}

describe('languages in the browser', () => {
  it('shows login and signup in Arabic, right to left and mirrored, for a browser that prefers Arabic', async () => {
    const page = await pageIn('ar-EG');
    await page.goto(suite.foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    await expect.poll(() => heading(page)).toBe(ar.login.heading);
    expect(await documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    const login = await labelGaps(page, ar.fields.email);
    expect(login.right).toBeLessThanOrEqual(1);
    expect(login.left).toBeGreaterThan(50);
    await expectNoAxeViolations(page);

    await page.goto(`${suite.foyer.urls.ui}/auth/signup`);
    await expect.poll(() => heading(page)).toBe(ar.signup.heading);
    expect(await documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    const signup = await labelGaps(page, ar.fields.email);
    expect(signup.right).toBeLessThanOrEqual(1);
    expect(signup.left).toBeGreaterThan(50);
    await expectNoAxeViolations(page);

    // The same screen in English starts on the left: the layout mirrors, not only the text.
    const english = await pageIn('en-US');
    await english.goto(`${suite.foyer.urls.ui}/auth/signup`);
    await expect.poll(() => heading(english)).toBe('Sign up');
    expect(await documentLanguage(english)).toEqual({ lang: 'en', dir: 'ltr' });
    const ltr = await labelGaps(english, 'Email');
    expect(ltr.left).toBeLessThanOrEqual(1);
    expect(ltr.right).toBeGreaterThan(50);
  });

  it('shows login and signup in Japanese for a browser that prefers Japanese', async () => {
    const page = await pageIn('ja-JP');
    await page.goto(suite.foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    await expect.poll(() => heading(page)).toBe(ja.login.heading);
    expect(await documentLanguage(page)).toEqual({ lang: 'ja', dir: 'ltr' });
    await page.getByLabel(ja.fields.email, { exact: true }).waitFor();
    await expectNoAxeViolations(page);

    await page.goto(`${suite.foyer.urls.ui}/auth/signup`);
    await expect.poll(() => heading(page)).toBe(ja.signup.heading);
    await page.getByRole('button', { name: ja.signup.submit }).waitFor();
    await expectNoAxeViolations(page);
  });

  it('switches language on the signed-out screens, keeps what was typed, and remembers the choice', async () => {
    const { page } = suite;
    await page.goto(suite.foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    await expect.poll(() => heading(page)).toBe('Login');
    await page.getByLabel('Email').fill('visitor@example.test');

    const languageSwitch = page.getByLabel('Language');
    await expect.poll(() => languageSwitch.isEnabled()).toBe(true);
    expect(await languageSwitch.evaluate((select: HTMLSelectElement) => [...select.options].map((option) => option.lang))).toHaveLength(20);
    await languageSwitch.selectOption({ label: 'Deutsch' });
    await expect.poll(() => heading(page)).toBe(de.login.heading);
    expect(await documentLanguage(page)).toEqual({ lang: 'de', dir: 'ltr' });
    expect(await page.getByLabel(de.fields.email, { exact: true }).inputValue()).toBe('visitor@example.test');
    await expectNoAxeViolations(page);

    // From the keyboard: the switch is a native select, reached with Tab.
    await page.getByLabel(de.fields.locale).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLSelectElement | null)?.labels?.[0]?.textContent)).toBe(
      de.fields.locale,
    );

    await page.getByLabel(de.fields.locale).selectOption({ label: 'العربية' });
    await expect.poll(() => documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(await page.getByLabel(ar.fields.email, { exact: true }).inputValue()).toBe('visitor@example.test');

    await page.reload();
    await expect.poll(() => heading(page)).toBe(ar.login.heading);
    expect(await page.evaluate(() => localStorage.getItem('FOYER_LANGUAGE'))).toBe('ar');
  });

  it("follows the workspace's locale once signed in, over the visitor's own choice", async () => {
    const { page } = suite;
    await page.goto(suite.foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Language').selectOption({ label: 'Deutsch' });
    await expect.poll(() => heading(page)).toBe(de.login.heading);

    await page.getByLabel(de.fields.email, { exact: true }).fill(admin().email);
    await page.getByRole('button', { name: de.actions.continue }).click();
    await page.getByLabel(de.fields.password, { exact: true }).fill(admin().password);
    await page.getByRole('button', { name: de.actions.signIn }).click();

    await page.waitForURL(`${suite.foyer.urls.ui}/`);
    await expect.poll(() => heading(page)).toBe(sv.home.title);
    expect(await documentLanguage(page)).toEqual({ lang: 'sv', dir: 'ltr' });
    // Signed in, the workspace decides: the switch is gone.
    expect(await page.getByLabel(sv.fields.locale).count()).toBe(0);
    await expectNoAxeViolations(page);
  });

  it("mails a reset link and texts a security code in the workspace's language", async () => {
    const { page } = suite;
    const seen = (await messagesTo(suite.foyer.urls.ui, admin().email)).length;
    await page.goto(`${suite.foyer.urls.ui}/auth/reset-password`);
    await page.getByLabel('Email').fill(admin().email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(async () => (await messagesTo(suite.foyer.urls.ui, admin().email)).length, { timeout: 15_000 }).toBeGreaterThan(seen);
    const [mail] = await messagesTo(suite.foyer.urls.ui, admin().email);
    expect(mail!.subject).toBe(svMail.mail.reset.subject.replace('{{app}}', 'Demo app'));
    expect(mail!.text).toContain(svMail.mail.reset.button);

    // Globex's viewer signs in; Globex asks for a second factor, set up by text message.
    const phoneNumber = '+46709876543';
    await page.goto(suite.foyer.urls.ui);
    await page.getByLabel('Email').fill(viewer().email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').fill(viewer().password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/auth\/mfa\/setup/);
    await page.getByRole('button', { name: 'Text message' }).click();
    await page.getByLabel('Phone number', { exact: true }).fill(phoneNumber);
    await page.getByRole('button', { name: 'Send code' }).click();
    const code = await nextSmsCode(suite.foyer.urls.ui, phoneNumber);
    const [sms] = await messagesTo(suite.foyer.urls.ui, phoneNumber);
    expect(sms!.text).toBe(svMail.sms.mfaCode.replace('{{app}}', 'Demo app').replace('{{code}}', code).replace('{{minutes}}', '10'));
  });

  it('lets an owner choose the languages an app offers and its default, and override texts in any shipped language', async () => {
    const { page } = suite;
    await signInToConsole(page, suite.foyer.urls.ui, `/configurator/apps/${suite.foyer.demo.appId}/translations`);
    await page.getByRole('heading', { level: 2, name: 'Translations' }).waitFor();
    const offered = page.getByRole('group', { name: 'Languages offered' });
    expect(await offered.getByRole('checkbox', { checked: true }).count()).toBe(20);
    await expectNoAxeViolations(page);

    // Offer three languages, German by default.
    for (const checkbox of await offered.getByRole('checkbox').all()) {
      const language = await checkbox.evaluate((input) => input.parentElement?.querySelector('[lang]')?.getAttribute('lang'));
      if (!['en', 'de', 'ar'].includes(language ?? '')) await checkbox.uncheck();
    }
    await page.getByLabel('Default language').selectOption('de');
    expect(
      await page.getByLabel('Default language').evaluate((select: HTMLSelectElement) => [...select.options].map((option) => option.value)),
    ).toEqual(['en', 'de', 'ar']);

    // German: Foyer's own German text beside the override, which is marked and can be filtered for.
    await page.locator('#translation-language').selectOption('de');
    await page.getByLabel('Search texts').fill('login.heading');
    // The row itself: German arrives for every row before the search has narrowed the list to it.
    const headingRow = page.locator('.console-translation', { has: page.getByLabel('login.heading', { exact: true }) });
    await headingRow.getByText(`Foyer's text: ${de.login.heading}`).waitFor();
    await page.getByLabel('login.heading', { exact: true }).fill('Willkommen bei Acme');
    await page.getByText('1 overridden, 0 missing').waitFor();
    await page.getByLabel('Search texts').fill('');
    await page.getByRole('checkbox', { name: 'Show only overridden texts' }).check();
    expect(await page.locator('.console-translation').count()).toBe(1);
    await page.locator('.console__badge', { hasText: 'Overridden' }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByText('All edits are saved as a draft. Publish to make them live.').waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog');
    // The change list names the new settings.
    await dialog
      .getByText(/Languages offered/)
      .first()
      .waitFor();
    await dialog
      .getByText(/Default language/)
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await page.getByText(/Version \d+ is live\./).waitFor();

    // A visitor whose browser asks for French gets the default, German, and the owner's override.
    const visitor = await pageIn('fr-FR');
    await visitor.goto(`${suite.foyer.urls.ui}/auth/login?appId=${suite.foyer.demo.appId}`);
    await expect.poll(() => heading(visitor)).toBe('Willkommen bei Acme');
    expect(await documentLanguage(visitor)).toEqual({ lang: 'de', dir: 'ltr' });
    // The switch offers the app's languages once the runtime has hydrated it (drawn, it is off and lists the page's).
    const languageSwitch = visitor.getByLabel(de.fields.locale);
    await expect.poll(() => languageSwitch.isEnabled()).toBe(true);
    expect(await languageSwitch.evaluate((select: HTMLSelectElement) => [...select.options].map((option) => option.value))).toEqual([
      'en',
      'de',
      'ar',
    ]);
  }, 150_000);
});
