// Two-factor by authenticator app in a real Chromium against the real server, with Acme requiring it:
// the admin picks the app in the setup wizard, reads the key off the page, and this test computes the
// codes an authenticator app would show (otpauth); then logs out and signs in again with a code.
// Every new screen passes axe.
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { tenants } from '../server/db/schema.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';

let foyer: TestFoyer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const admin = () => foyer.demo.users[1]!;

beforeAll(async () => {
  [foyer, browser] = await Promise.all([startFoyer(), launchBrowser()]);
  await foyer.db.update(tenants).set({ mfa: true }).where(eq(tenants.name, 'Acme'));
  context = await browser.newContext();
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await foyer?.close();
});

const STEP_MS = 30_000;

/** What the authenticator app shows for `secret` at `timestamp`, and that time step. */
function appCode(secret: string, timestamp = Date.now()) {
  return { code: new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp }), step: Math.floor(timestamp / STEP_MS) };
}

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

describe('two-factor by authenticator app', () => {
  it('sets up the app from the QR code page, then asks for an app code at the next sign-in', async () => {
    await signIn();

    // The method choice.
    await page.waitForURL(/\/auth\/mfa\/setup/);
    await page.getByRole('button', { name: 'Text message' }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Authenticator app' }).click();

    // The QR code and the key in text, grouped by four.
    const qr = page.getByRole('img', { name: 'QR code that adds this account to your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const shownKey = (await page.locator('.foyer-totp__secret code').textContent()) ?? '';
    expect(shownKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    const secret = shownKey.replace(/\s/g, '');
    const field = page.getByLabel('Security code', { exact: true });
    await field.waitFor();
    expect(await page.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(page);

    const setupCode = appCode(secret);
    await field.fill(setupCode.code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong security code, please try again.' }).waitFor();
    expect(await field.inputValue()).toBe('');
    await expectNoAxeViolations(page);
    await field.fill(setupCode.code);
    await page.getByRole('button', { name: 'Verify' }).click();

    // The recovery code, shown once, then Continue to the workspace.
    const shown = page.getByLabel('Recovery code', { exact: true });
    await shown.waitFor();
    expect(await shown.inputValue()).toMatch(/^[2-9A-Z]{4}(-[2-9A-Z]{4}){3}$/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectHome();

    await page.getByRole('link', { name: 'Log out' }).click();
    await page.waitForURL(/\/auth\/login/);

    // The next sign-in: the app is the only method, so its code is asked for at once.
    await signIn();
    await page.waitForURL(/\/auth\/mfa\/required/);
    await page.getByText('Enter the six-digit code your authenticator app shows.').waitFor();
    const required = page.getByLabel('Security code', { exact: true });
    await required.waitFor();
    await expectNoAxeViolations(page);
    // The setup code's step is used up: the app's next code (still inside the accepted window) is typed.
    const next = appCode(secret, Math.max(Date.now(), (setupCode.step + 1) * STEP_MS));
    await required.fill(next.code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong security code, please try again.' }).waitFor();
    await required.fill(next.code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectHome();
  });
});
