// Two-factor by SMS in a real Chromium against the real server, with Acme requiring it: the setup
// wizard by keyboard alone, the security code at the next sign-in, recovery with the recovery code.
// Codes are read from the development mailbox, which lists text messages too. Every screen passes axe.
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { tenants } from '../server/db/schema.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';
import { messagesTo, nextSmsCode } from './support/mailbox.ts';

let foyer: TestFoyer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const PHONE_NUMBER = '+46701234567';
/** The recovery code the wizard showed, for the recovery test. */
let recoveryCode = '';

const admin = () => foyer.demo.users[1]!;

beforeAll(async () => {
  [foyer, browser] = await Promise.all([startFoyer(), launchBrowser()]);
  await foyer.db.update(tenants).set({ mfa: true }).where(eq(tenants.name, 'Acme'));
});

afterAll(async () => {
  await browser?.close();
  await foyer?.close();
});

beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

const focusedLabel = () =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLInputElement | null;
    return element?.labels?.[0]?.textContent?.trim() ?? element?.textContent?.trim();
  });

async function signIn() {
  await page.goto(foyer.urls.ui);
  await page.waitForURL(/\/auth\/login/);
  await page.getByLabel('Email').fill(admin().email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill(admin().password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectHome() {
  await page.waitForURL(`${foyer.urls.ui}/`);
  await expect.poll(() => page.locator('dl').textContent()).toContain('Acme');
}

/** Presses Tab until the focused element is the button or link named `name` (at most 10 times). */
async function tabTo(name: string) {
  for (let i = 0; i < 10; i += 1) {
    if ((await focusedLabel()) === name) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`focus never reached ${name}`);
}

describe('two-factor by SMS', () => {
  it('sets up the phone in the wizard with the keyboard alone', async () => {
    await page.goto(foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Email').waitFor();
    await expect.poll(focusedLabel).toBe('Email');
    await page.keyboard.type(admin().email);
    await page.keyboard.press('Enter');
    await page.getByLabel('Password').waitFor();
    await expect.poll(focusedLabel).toBe('Password');
    await page.keyboard.type(admin().password);
    await page.keyboard.press('Enter');

    // The method choice: text message.
    await page.waitForURL(/\/auth\/mfa\/setup/);
    await page.getByRole('button', { name: 'Authenticator app' }).waitFor();
    await tabTo('Text message');
    await page.keyboard.press('Enter');

    // Step 0: the phone number.
    const phone = page.getByLabel('Phone number', { exact: true });
    await phone.waitFor();
    expect(await phone.getAttribute('placeholder')).toBe('+46...');
    expect(await phone.getAttribute('type')).toBe('tel');
    await page.getByText('Use the international format').waitFor();
    expect(await page.getByRole('button', { name: 'Send code' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(page);
    await expect.poll(focusedLabel).toBe('Phone number');
    // The server checks the format: a number without the country code is refused with SPEC's text.
    await page.keyboard.type('0701234567');
    await page.keyboard.press('Enter');
    await page
      .getByRole('alert')
      .filter({ hasText: "There was an error when trying to setup your phone number. Try again and make sure you're using the correct format, otherwise contact support." })
      .waitFor();
    await expectNoAxeViolations(page);
    await phone.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(PHONE_NUMBER);
    await page.keyboard.press('Enter');

    // Step 1: the texted code.
    const code = page.getByLabel('Security code', { exact: true });
    await code.waitFor();
    await page.getByText(`We sent a security code to ${PHONE_NUMBER}.`).waitFor();
    expect(await page.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(page);
    await expect.poll(focusedLabel).toBe('Security code');
    await page.keyboard.type(await nextSmsCode(foyer.urls.ui, PHONE_NUMBER));
    await page.keyboard.press('Enter');

    // Step 2: the recovery code, shown once, then Continue.
    const shown = page.getByLabel('Recovery code', { exact: true });
    await shown.waitFor();
    recoveryCode = await shown.inputValue();
    expect(recoveryCode).toMatch(/^[2-9A-Z]{4}(-[2-9A-Z]{4}){3}$/);
    await expectNoAxeViolations(page);
    await tabTo('Continue');
    await page.keyboard.press('Enter');

    // Step 3: the workspace picker, which picks the only workspace.
    await expectHome();
  });

  it('asks for a texted security code at the next sign-in', async () => {
    expect(recoveryCode).not.toBe('');
    const sent = (await messagesTo(foyer.urls.ui, PHONE_NUMBER)).length;
    await signIn();
    await page.waitForURL(/\/auth\/mfa\/required/);
    const field = page.getByLabel('Security code', { exact: true });
    await field.waitFor();
    expect(await page.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(page);
    const code = await nextSmsCode(foyer.urls.ui, PHONE_NUMBER, sent);

    await field.fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong security code, please try again.' }).waitFor();
    expect(await field.inputValue()).toBe('');
    await expectNoAxeViolations(page);

    await field.fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectHome();
  });

  it('recovers with the recovery code and goes back to setup', async () => {
    expect(recoveryCode).not.toBe('');
    await signIn();
    await page.waitForURL(/\/auth\/mfa\/required/);
    await page.getByRole('link', { name: 'Use a recovery code instead' }).click();
    await page.waitForURL(/\/auth\/mfa\/recover/);
    const field = page.getByLabel('Recovery code', { exact: true });
    await field.waitFor();
    expect(await page.getByRole('button', { name: 'Recover' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(page);

    await field.fill('AAAA-BBBB-CCCC-DDDD');
    await page.getByRole('button', { name: 'Recover' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong recovery code, please try again.' }).waitFor();
    await expectNoAxeViolations(page);

    await field.fill(recoveryCode);
    await page.getByRole('button', { name: 'Recover' }).click();
    await page.waitForURL(/\/auth\/mfa\/setup/);
    await page.getByRole('button', { name: 'Text message' }).click();
    await page.getByLabel('Phone number', { exact: true }).waitFor();
  });
});
