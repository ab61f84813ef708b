// The login path in a real Chromium against the real server: hosted UI → /url/login → login screens
// → workspace picker → handover → code exchange → signed-in home. Every screen visited passes axe.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';

let foyer: TestFoyer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const owner = () => foyer.demo.users[0];
const admin = () => foyer.demo.users[1];

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

async function enterEmail(email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').waitFor();
}

async function signIn(email: string, password: string) {
  await page.goto(foyer.urls.ui);
  await page.waitForURL(/\/auth\/login/);
  await enterEmail(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectHome(workspace: string, role: string) {
  await page.waitForURL(`${foyer.urls.ui}/`);
  await expect.poll(() => page.locator('dl').textContent()).toContain(workspace);
  const details = await page.locator('dl').textContent();
  expect(details).toContain(role);
}

describe('login in the browser', () => {
  it('signs in through /url/login, picks Globex, and keeps the session on reload', async () => {
    const visited: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(request.url());
    });

    await page.goto(foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    expect(visited.some((url) => url.startsWith(`${foyer.urls.auth}/url/login/${foyer.demo.appId}`))).toBe(true);
    await expect.poll(() => page.title()).toBe('Demo app');
    await expectNoAxeViolations(page);

    await enterEmail(owner().email);
    await expectNoAxeViolations(page);
    await page.getByLabel('Password').fill(owner().password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL(/\/auth\/choose-user/);
    await page.getByRole('radio', { name: 'Globex' }).waitFor();
    const workspaces = await page.getByRole('radio').evaluateAll((radios) =>
      radios.map((radio) => radio.closest('label')?.textContent?.trim()),
    );
    expect(workspaces).toEqual(['Acme', 'Globex']);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Choose workspace');
    await expectNoAxeViolations(page);

    await page.getByRole('radio', { name: 'Globex' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectHome('Globex', 'Owner');
    await expectNoAxeViolations(page);

    await page.reload();
    await expectHome('Globex', 'Owner');
    expect(page.url()).toBe(`${foyer.urls.ui}/`);
  });

  it('skips the picker for a user with a single workspace', async () => {
    await signIn(admin().email, admin().password);
    await expectHome('Acme', 'Admin');
  });

  it('shows the exact message for a wrong password and clears the field', async () => {
    await signIn(owner().email, 'not-the-password');
    const alert = page.getByRole('alert').filter({ hasText: 'Wrong credentials, please try again.' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Could not login');
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    await expectNoAxeViolations(page);
  });

  it('sends any other /auth path to the login screen', async () => {
    await page.goto(`${foyer.urls.ui}/auth/foo`);
    await page.waitForURL(`${foyer.urls.ui}/auth/login`);
    await page.getByLabel('Email').waitFor();
  });

  it('logs out to the login screen and the old refresh token stops working', async () => {
    await signIn(admin().email, admin().password);
    await expectHome('Acme', 'Admin');
    const refreshToken = await page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'));
    expect(refreshToken).toBeTruthy();

    await page.getByRole('link', { name: 'Log out' }).click();
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Email').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'))).toBeNull();

    const refresh = await fetch(`${foyer.urls.auth}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken!, client_id: foyer.demo.appId }),
    });
    expect(refresh.status).toBe(400);
    expect((await refresh.json()).error).toBe('invalid_grant');

    // The session on the auth service is gone too: visiting the app asks for credentials again.
    await page.goto(foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Email').waitFor();
  });

  it('shows the Unknown App Id page for an app id the server does not know', async () => {
    await page.goto(`${foyer.urls.ui}/handover?appId=00000000-0000-0000-0000-000000000000`);
    await page.getByText('Unknown App Id').waitFor();
    await page.goto(`${foyer.urls.ui}/auth/login`);
    await page.getByText('Unknown App Id').waitFor();
    expect(await page.getByText('Go back to the app and retry').isVisible()).toBe(true);
    await expectNoAxeViolations(page);
  });

  it('completes the whole login with the keyboard alone', async () => {
    await page.goto(foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Email').waitFor();
    // Focus starts on the e-mail field; nothing below uses the mouse.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    await page.keyboard.type(owner().email);
    await page.keyboard.press('Enter');
    await page.getByLabel('Password').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('password');
    await page.keyboard.type(owner().password);
    await page.keyboard.press('Enter');

    await page.waitForURL(/\/auth\/choose-user/);
    await page.getByRole('radio', { name: 'Acme' }).waitFor();
    await tabUntil(() => document.activeElement?.getAttribute('type') === 'radio');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByRole('radio', { name: 'Globex' }).isChecked()).toBe(true);
    await tabUntil(() => document.activeElement?.textContent?.trim() === 'Continue');
    await page.keyboard.press('Enter');
    await expectHome('Globex', 'Owner');
  });
});

/** Presses Tab until the focused element satisfies `focused` (at most 10 times). */
async function tabUntil(focused: () => boolean) {
  for (let i = 0; i < 10; i += 1) {
    if (await page.evaluate(focused)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('focus never reached the expected element');
}
