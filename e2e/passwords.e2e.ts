// Password reset and set password in a real Chromium against the real server: from the login's
// RESET-PASSWORD step and from /auth/reset-password (by keyboard alone), the mailed link, the policy's
// messages while typing, 'Password set' and the way back in; expired and reused links.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tenants, tenantUsers, users, userTokens } from '../server/db/schema.ts';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';
import { messagesTo, nextLink } from './support/mailbox.ts';

let foyer: TestFoyer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const EXPIRED_TEXT = 'The link has expired. You need to request a new reset password link again.';
const SET_PASSWORD_LINK = /\/auth\/set-password\//;

beforeAll(async () => {
  [foyer, browser] = await Promise.all([startFoyer(), launchBrowser()]);
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

/** A member of Acme who has never had a password (as after an import). */
async function passwordlessMember(): Promise<string> {
  const email = `nopass-${randomUUID().slice(0, 8)}@acme.demo.foyer.test`;
  const [acme] = await foyer.db.select({ id: tenants.id }).from(tenants).where(and(eq(tenants.appId, foyer.demo.appId), eq(tenants.name, 'Acme')));
  const userId = randomUUID();
  await foyer.db.insert(users).values({ id: userId, appId: foyer.demo.appId, email, firstName: 'Pat', lastName: 'Nopass', onboarded: true });
  await foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId: acme!.id, userId, role: 'VIEWER', onboarded: true });
  return email;
}

const heading = () => page.getByRole('heading', { level: 1 });
const expectHeading = (text: string) => expect.poll(() => heading().textContent()).toBe(text);

async function policyWarnings(): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Password requirements' });
  return (await list.count()) === 0 ? [] : list.getByRole('listitem').allTextContents();
}

async function expectHome(workspace: string) {
  await page.waitForURL(`${foyer.urls.ui}/`);
  await expect.poll(() => page.locator('dl').textContent()).toContain(workspace);
}

async function expectExpired() {
  await page.getByRole('alert').filter({ hasText: EXPIRED_TEXT }).waitFor();
  expect(await page.getByRole('alert').textContent()).toContain('An error occured');
  expect(await page.getByLabel('New password').count()).toBe(0);
}

describe('reset and set password in the browser', () => {
  it("sets a first password from the login's reset step, with the policy shown while typing", async () => {
    const email = await passwordlessMember();
    await page.goto(foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Reset password' }).click();

    await page.waitForURL(`${foyer.urls.ui}/auth/reset-password`);
    await expectHeading('Reset password');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expectHeading('Check your email');
    await expectNoAxeViolations(page);

    await page.goto(await nextLink(foyer.urls.ui, email, SET_PASSWORD_LINK));
    await expectHeading('Set password');
    const password = page.getByLabel('New password');
    const repeat = page.getByLabel('Repeat password');
    const submit = page.getByRole('button', { name: 'Set password' });
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await policyWarnings()).toEqual([]);
    await expectNoAxeViolations(page);

    await password.pressSequentially('x');
    await expect
      .poll(policyWarnings)
      .toEqual(['Minimal length: 10 characters', 'Should contain uppercase letter', 'Should contain digit', 'Should contain special character']);
    await password.pressSequentially('Y');
    await expect.poll(policyWarnings).toEqual(['Minimal length: 10 characters', 'Should contain digit', 'Should contain special character']);
    await password.pressSequentially('7!');
    await expect.poll(policyWarnings).toEqual(['Minimal length: 10 characters']);
    await expectNoAxeViolations(page);
    await password.pressSequentially('abcdefg');
    await expect.poll(policyWarnings).toEqual([]);
    expect(await submit.isDisabled()).toBe(true);
    await repeat.fill('xY7!abcdef');
    await expect.poll(policyWarnings).toEqual(['The passwords do not match.']);
    expect(await submit.isDisabled()).toBe(true);
    await repeat.fill('xY7!abcdefg');
    await expect.poll(() => submit.isDisabled()).toBe(false);
    await submit.click();

    await expectHeading('Password set');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Back to login' }).click();
    await expectHome('Acme');

    // The new password works for a fresh login.
    await page.getByRole('link', { name: 'Log out' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').fill('xY7!abcdefg');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectHome('Acme');
  });

  it('resets a password from /auth/reset-password with the keyboard alone; the used link then shows as expired', async () => {
    const admin = foyer.demo.users[1]!;
    const before = (await messagesTo(foyer.urls.ui, admin.email)).length;
    await page.goto(`${foyer.urls.ui}/auth/reset-password`);
    await page.getByLabel('Email').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    await page.keyboard.type(admin.email);
    await page.keyboard.press('Enter');
    await expectHeading('Check your email');

    const link = await nextLink(foyer.urls.ui, admin.email, SET_PASSWORD_LINK, before);
    await page.goto(link);
    await page.getByLabel('New password').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('new-password');
    const newPassword = 'Keyboard-only-2026?';
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Tab');
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Enter');
    await expectHeading('Password set');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Back to login');
    await page.keyboard.press('Enter');
    await expectHome('Acme');

    // Single use: the same link again is expired, and opening it signs this browser out first.
    await page.goto(link);
    await expectExpired();
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'))).toBeNull();
    expect(await page.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/auth/reset-password');
  });

  it('shows the expired text for a link past its lifetime, also when it expires after opening', async () => {
    const viewer = foyer.demo.users[2]!;
    const before = (await messagesTo(foyer.urls.ui, viewer.email)).length;
    await page.goto(`${foyer.urls.ui}/auth/reset-password`);
    await page.getByLabel('Email').fill(viewer.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expectHeading('Check your email');
    const link = await nextLink(foyer.urls.ui, viewer.email, SET_PASSWORD_LINK, before);

    await page.goto(link);
    await page.getByLabel('New password').waitFor();
    const expireResetTokens = async () => {
      const [user] = await foyer.db.select({ id: users.id }).from(users).where(and(eq(users.appId, foyer.demo.appId), eq(users.email, viewer.email)));
      await foyer.db
        .update(userTokens)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(and(eq(userTokens.userId, user!.id), eq(userTokens.purpose, 'reset')));
    };
    await expireResetTokens();
    await page.getByLabel('New password').fill('Too-late-2026!');
    await page.getByLabel('Repeat password').fill('Too-late-2026!');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expectExpired();

    await page.goto(link);
    await expectExpired();
  });
});
