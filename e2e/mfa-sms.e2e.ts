// Two-factor by SMS in a real Chromium against the real server, with Acme requiring it: the setup
// wizard by keyboard alone, the security code at the next sign-in, recovery with the recovery code.
// Codes are read from the development mailbox, which lists text messages too. Every screen passes axe.
import { eq } from 'drizzle-orm';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tenants } from '../server/db/schema.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';
import { messagesTo, nextSmsCode } from './support/mailbox.ts';

const suite = browserSuite(async (foyer) => {
  await foyer.db.update(tenants).set({ mfa: true }).where(eq(tenants.name, 'Acme'));
});

const PHONE_NUMBER = '+46701234567';
/** The recovery code the wizard showed, for the recovery test. */
let recoveryCode = '';

const admin = () => suite.foyer.demo.users[1]!;

const focusedLabel = () =>
  suite.page.evaluate(() => {
    const element = document.activeElement as HTMLInputElement | null;
    return element?.labels?.[0]?.textContent?.trim() ?? element?.textContent?.trim();
  });

async function signIn() {
  await suite.page.goto(suite.foyer.urls.ui);
  await suite.page.waitForURL(/\/auth\/login/);
  await suite.page.getByLabel('Email').fill(admin().email);
  await suite.page.getByRole('button', { name: 'Continue' }).click();
  await suite.page.getByLabel('Password').fill(admin().password);
  await suite.page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectHome() {
  await suite.page.waitForURL(`${suite.foyer.urls.ui}/`);
  await expect.poll(() => suite.page.locator('dl').textContent()).toContain('Acme');
}

/** Presses Tab until the focused element is the button or link named `name` (at most 10 times). */
async function tabTo(name: string) {
  for (let i = 0; i < 10; i += 1) {
    if ((await focusedLabel()) === name) return;
    await suite.page.keyboard.press('Tab');
  }
  throw new Error(`focus never reached ${name}`);
}

describe('two-factor by SMS', () => {
  it('sets up the phone in the wizard with the keyboard alone', async () => {
    await suite.page.goto(suite.foyer.urls.ui);
    await suite.page.waitForURL(/\/auth\/login/);
    await suite.page.getByLabel('Email').waitFor();
    await expect.poll(focusedLabel).toBe('Email');
    await suite.page.keyboard.type(admin().email);
    await suite.page.keyboard.press('Enter');
    await suite.page.getByLabel('Password').waitFor();
    await expect.poll(focusedLabel).toBe('Password');
    await suite.page.keyboard.type(admin().password);
    await suite.page.keyboard.press('Enter');

    // The method choice: text message.
    await suite.page.waitForURL(/\/auth\/mfa\/setup/);
    await suite.page.getByRole('button', { name: 'Authenticator app' }).waitFor();
    await tabTo('Text message');
    await suite.page.keyboard.press('Enter');

    // Step 0: the phone number.
    const phone = suite.page.getByLabel('Phone number', { exact: true });
    await phone.waitFor();
    expect(await phone.getAttribute('placeholder')).toBe('+46...');
    expect(await phone.getAttribute('type')).toBe('tel');
    await suite.page.getByText('Use the international format').waitFor();
    expect(await suite.page.getByRole('button', { name: 'Send code' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(suite.page);
    await expect.poll(focusedLabel).toBe('Phone number');
    // The server checks the format: a number without the country code is refused with SPEC's text.
    await suite.page.keyboard.type('0701234567');
    await suite.page.keyboard.press('Enter');
    await suite.page
      .getByRole('alert')
      .filter({
        hasText:
          "There was an error when trying to setup your phone number. Try again and make sure you're using the correct format, otherwise contact support.",
      })
      .waitFor();
    await expectNoAxeViolations(suite.page);
    await phone.focus();
    await suite.page.keyboard.press('ControlOrMeta+A');
    await suite.page.keyboard.type(PHONE_NUMBER);
    await suite.page.keyboard.press('Enter');

    // Step 1: the texted code.
    const code = suite.page.getByLabel('Security code', { exact: true });
    await code.waitFor();
    await suite.page.getByText(`We sent a security code to ${PHONE_NUMBER}.`).waitFor();
    expect(await suite.page.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(suite.page);
    await expect.poll(focusedLabel).toBe('Security code');
    await suite.page.keyboard.type(await nextSmsCode(suite.foyer.urls.ui, PHONE_NUMBER));
    await suite.page.keyboard.press('Enter');

    // Step 2: the recovery code, shown once, then Continue.
    const shown = suite.page.getByLabel('Recovery code', { exact: true });
    await shown.waitFor();
    recoveryCode = await shown.inputValue();
    expect(recoveryCode).toMatch(/^[2-9A-Z]{4}(-[2-9A-Z]{4}){3}$/);
    await expectNoAxeViolations(suite.page);
    // Kept somewhere else than the screen: copied, or downloaded as a text file.
    await suite.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.foyer.urls.ui });
    await suite.page.getByRole('button', { name: 'Copy code' }).click();
    await suite.page.getByText('Recovery code copied.').waitFor();
    expect(await suite.page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCode);
    const [download] = await Promise.all([
      suite.page.waitForEvent('download'),
      suite.page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('recovery-code.txt');
    expect(await readFile((await download.path())!, 'utf8')).toContain(recoveryCode);
    await tabTo('Continue');
    await suite.page.keyboard.press('Enter');

    // Step 3: the workspace picker, which picks the only workspace.
    await expectHome();
  });

  it('asks for a texted security code at the next sign-in', async () => {
    expect(recoveryCode).not.toBe('');
    const sent = (await messagesTo(suite.foyer.urls.ui, PHONE_NUMBER)).length;
    await signIn();
    await suite.page.waitForURL(/\/auth\/mfa\/required/);
    const field = suite.page.getByLabel('Security code', { exact: true });
    await field.waitFor();
    expect(await suite.page.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(suite.page);
    const code = await nextSmsCode(suite.foyer.urls.ui, PHONE_NUMBER, sent);

    await field.fill(code === '000000' ? '111111' : '000000');
    await suite.page.getByRole('button', { name: 'Verify' }).click();
    await suite.page.getByRole('alert').filter({ hasText: 'Wrong security code, please try again.' }).waitFor();
    expect(await field.inputValue()).toBe('');
    await expectNoAxeViolations(suite.page);

    await field.fill(code);
    await suite.page.getByRole('button', { name: 'Verify' }).click();
    await expectHome();
  });

  it('recovers with the recovery code and goes back to setup', async () => {
    expect(recoveryCode).not.toBe('');
    await signIn();
    await suite.page.waitForURL(/\/auth\/mfa\/required/);
    await suite.page.getByRole('link', { name: 'Use a recovery code instead' }).click();
    await suite.page.waitForURL(/\/auth\/mfa\/recover/);
    const field = suite.page.getByLabel('Recovery code', { exact: true });
    await field.waitFor();
    expect(await suite.page.getByRole('button', { name: 'Recover' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(suite.page);

    await field.fill('AAAA-BBBB-CCCC-DDDD');
    await suite.page.getByRole('button', { name: 'Recover' }).click();
    await suite.page.getByRole('alert').filter({ hasText: 'Wrong recovery code, please try again.' }).waitFor();
    await expectNoAxeViolations(suite.page);

    await field.fill(recoveryCode);
    await suite.page.getByRole('button', { name: 'Recover' }).click();
    await suite.page.waitForURL(/\/auth\/mfa\/setup/);
    await suite.page.getByRole('button', { name: 'Text message' }).click();
    await suite.page.getByLabel('Phone number', { exact: true }).waitFor();
  });
});
