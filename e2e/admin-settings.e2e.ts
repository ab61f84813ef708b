// Profile and workspace settings in a real Chromium against the real server: the signed-in layout and
// its guard, the /user-management and /user redirects, profile and workspace saves (names updated in
// the header after the token refresh), the logo, and the two-factor switch that saves at once.
import { and, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tenants, users } from '../server/db/schema.ts';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';

let foyer: TestFoyer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

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

const heading = () => page.getByRole('heading', { level: 1 });

async function acme() {
  const [row] = await foyer.db
    .select({ name: tenants.name, mfa: tenants.mfa })
    .from(tenants)
    .where(and(eq(tenants.appId, foyer.demo.appId), eq(tenants.id, (await acmeId())!)));
  return row!;
}

async function acmeId() {
  const rows = await foyer.db.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.appId, foyer.demo.appId));
  return rows.find((row) => row.name.startsWith('Acme'))?.id;
}

describe('profile and workspace settings in the browser', () => {
  it('guards the management screens without showing them, then redirects /user-management to the profile and saves it', async () => {
    // Records whether the signed-in layout ever rendered before the sign-in.
    await context.addInitScript(() => {
      new MutationObserver(() => {
        if (document.querySelector('.foyer-admin, table') && !localStorage.getItem('NB_OAUTH_REFRESH_TOKEN')) {
          sessionStorage.setItem('flashed', 'yes');
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const admin = foyer.demo.users[1]!;
    await page.goto(`${foyer.urls.ui}/user-management`);
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${foyer.urls.ui}/user-management/profile`);
    expect(await page.evaluate(() => sessionStorage.getItem('flashed'))).toBeNull();

    await expect.poll(() => heading().textContent()).toBe('Profile');
    const firstName = page.getByLabel('First name');
    await expect.poll(() => firstName.inputValue()).toBe('Adam');
    expect(await page.getByLabel('Last name').inputValue()).toBe('Admin');
    expect(await page.getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page');
    await expectNoAxeViolations(page);

    await firstName.fill('Adrian');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Your profile has been saved.' }).waitFor();
    // The header reads the renewed tokens.
    await expect.poll(() => page.locator('.foyer-admin__user').textContent()).toContain('Adrian Admin');
    const [stored] = await foyer.db.select({ firstName: users.firstName, consent: users.consentsToPrivacyPolicy }).from(users).where(eq(users.email, admin.email));
    expect(stored).toEqual({ firstName: 'Adrian', consent: true });
    await expectNoAxeViolations(page);

    // Any other /user path shows the list.
    await page.goto(`${foyer.urls.ui}/user/anything`);
    await page.waitForURL(`${foyer.urls.ui}/user/list`);
    await page.getByRole('table', { name: 'Workspace users' }).waitFor();
  });

  it('saves the workspace name, shows its logo, and switches two-factor authentication at once', async () => {
    const owner = foyer.demo.users[0]!;
    await page.goto(`${foyer.urls.ui}/user-management/workspace`);
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/auth\/choose-user/);
    await page.getByRole('radio', { name: 'Acme' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${foyer.urls.ui}/user-management/workspace`);

    await expect.poll(() => heading().textContent()).toBe('Workspace');
    const name = page.getByLabel('Name', { exact: true });
    await expect.poll(() => name.inputValue()).toBe('Acme');
    expect(await page.getByRole('img', { name: 'Acme logo' }).first().getAttribute('src')).toContain('placeholder-logo.svg');
    expect(await page.getByLabel('Language').locator('option').allTextContents()).toEqual(['', 'English', 'Svenska']);
    await expectNoAxeViolations(page);

    await name.fill('Acme Labs');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Your workspace has been saved.' }).waitFor();
    await expect.poll(() => page.locator('.foyer-admin__workspace').textContent()).toBe('Acme Labs');
    expect((await acme()).name).toBe('Acme Labs');

    const twoFactor = page.getByRole('switch', { name: 'Two-factor authentication' });
    expect(await twoFactor.getAttribute('aria-checked')).toBe('false');
    await twoFactor.click();
    await page.getByRole('status').filter({ hasText: 'Two-factor authentication is on.' }).waitFor();
    expect(await twoFactor.getAttribute('aria-checked')).toBe('true');
    expect((await acme()).mfa).toBe(true);
    await expectNoAxeViolations(page);
    await twoFactor.click();
    await page.getByRole('status').filter({ hasText: 'Two-factor authentication is off.' }).waitFor();
    expect((await acme()).mfa).toBe(false);

    // The navigation leads to the users table and back.
    await page.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(`${foyer.urls.ui}/user-management/users`);
    await page.getByRole('table', { name: 'Workspace users' }).waitFor();
  });
});
