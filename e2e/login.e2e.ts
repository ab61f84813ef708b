// The login path in a real Chromium against the real server: hosted UI → /url/login → login screens
// → workspace picker → handover → code exchange → signed-in home. Every screen visited passes axe.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

const owner = () => suite.foyer.demo.users[0];
const admin = () => suite.foyer.demo.users[1];

const suite = browserSuite();

async function enterEmail(email: string) {
  await suite.page.getByLabel('Email').fill(email);
  await suite.page.getByRole('button', { name: 'Continue' }).click();
  await suite.page.getByLabel('Password').waitFor();
}

async function signIn(email: string, password: string) {
  await suite.page.goto(suite.foyer.urls.ui);
  await suite.page.waitForURL(/\/auth\/login/);
  await enterEmail(email);
  await suite.page.getByLabel('Password').fill(password);
  await suite.page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectHome(workspace: string, role: string) {
  await suite.page.waitForURL(`${suite.foyer.urls.ui}/`);
  await expect.poll(() => suite.page.locator('dl').textContent()).toContain(workspace);
  const details = await suite.page.locator('dl').textContent();
  expect(details).toContain(role);
}

describe('login in the browser', () => {
  it('signs in through /url/login, picks Globex, and keeps the session on reload', async () => {
    const visited: string[] = [];
    suite.page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(request.url());
    });

    await suite.page.goto(suite.foyer.urls.ui);
    await suite.page.waitForURL(/\/auth\/login/);
    expect(visited.some((url) => url.startsWith(`${suite.foyer.urls.auth}/url/login/${suite.foyer.demo.appId}`))).toBe(true);
    await expect.poll(() => suite.page.title()).toBe('Login · Demo app');
    await expectNoAxeViolations(suite.page);

    await enterEmail(owner().email);
    await expectNoAxeViolations(suite.page);
    await suite.page.getByLabel('Password').fill(owner().password);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();

    await suite.page.waitForURL(/\/auth\/choose-user/);
    await suite.page.getByRole('radio', { name: 'Globex' }).waitFor();
    const workspaces = await suite.page
      .getByRole('radio')
      .evaluateAll((radios) => radios.map((radio) => radio.closest('label')?.textContent?.trim()));
    expect(workspaces).toEqual(['Acme', 'Globex']);
    await expect.poll(() => suite.page.getByRole('heading', { level: 1 }).textContent()).toBe('Choose workspace');
    expect(await suite.page.title()).toBe('Choose workspace · Demo app');
    await expectNoAxeViolations(suite.page);

    await suite.page.getByRole('radio', { name: 'Globex' }).check();
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await expectHome('Globex', 'Owner');
    await expectNoAxeViolations(suite.page);

    await suite.page.reload();
    await expectHome('Globex', 'Owner');
    expect(suite.page.url()).toBe(`${suite.foyer.urls.ui}/`);
  });

  it('skips the picker for a user with a single workspace', async () => {
    await signIn(admin().email, admin().password);
    await expectHome('Acme', 'Admin');
  });

  it('shows the exact message for a wrong password and clears the field', async () => {
    await signIn(owner().email, 'not-the-password');
    const alert = suite.page.getByRole('alert').filter({ hasText: 'Wrong credentials, please try again.' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Could not login');
    expect(await suite.page.getByLabel('Password').inputValue()).toBe('');
    await expectNoAxeViolations(suite.page);
  });

  it('sends any other /auth path to the login screen', async () => {
    await suite.page.goto(`${suite.foyer.urls.ui}/auth/foo`);
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/auth/login`);
    await suite.page.getByLabel('Email').waitFor();
  });

  it('logs out to the login screen and the old refresh token stops working', async () => {
    await signIn(admin().email, admin().password);
    await expectHome('Acme', 'Admin');
    const refreshToken = await suite.page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'));
    expect(refreshToken).toBeTruthy();

    await suite.page.getByRole('link', { name: 'Log out' }).click();
    await suite.page.waitForURL(/\/auth\/login/);
    await suite.page.getByLabel('Email').waitFor();
    expect(await suite.page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'))).toBeNull();

    const refresh = await fetch(`${suite.foyer.urls.auth}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken!, client_id: suite.foyer.demo.appId }),
    });
    expect(refresh.status).toBe(400);
    expect((await refresh.json()).error).toBe('invalid_grant');

    // The session on the auth service is gone too: visiting the app asks for credentials again.
    await suite.page.goto(suite.foyer.urls.ui);
    await suite.page.waitForURL(/\/auth\/login/);
    await suite.page.getByLabel('Email').waitFor();
  });

  it('shows the Unknown App Id page for an app id the server does not know', async () => {
    await suite.page.goto(`${suite.foyer.urls.ui}/handover?appId=00000000-0000-0000-0000-000000000000`);
    await suite.page.getByText('Unknown App Id').waitFor();
    await suite.page.goto(`${suite.foyer.urls.ui}/auth/login`);
    await suite.page.getByText('Unknown App Id').waitFor();
    expect(await suite.page.getByText('Go back to the app and retry').isVisible()).toBe(true);
    await expectNoAxeViolations(suite.page);
  });

  it('completes the whole login with the keyboard alone', async () => {
    await suite.page.goto(suite.foyer.urls.ui);
    await suite.page.waitForURL(/\/auth\/login/);
    await suite.page.getByLabel('Email').waitFor();
    // Focus starts on the e-mail field; nothing below uses the mouse.
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    await suite.page.keyboard.type(owner().email);
    await suite.page.keyboard.press('Enter');
    await suite.page.getByLabel('Password').waitFor();
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('password');
    await suite.page.keyboard.type(owner().password);
    await suite.page.keyboard.press('Enter');

    await suite.page.waitForURL(/\/auth\/choose-user/);
    await suite.page.getByRole('radio', { name: 'Acme' }).waitFor();
    await tabUntil(() => document.activeElement?.getAttribute('type') === 'radio');
    await suite.page.keyboard.press('ArrowDown');
    await expect.poll(() => suite.page.getByRole('radio', { name: 'Globex' }).isChecked()).toBe(true);
    await tabUntil(() => document.activeElement?.textContent?.trim() === 'Continue');
    await suite.page.keyboard.press('Enter');
    await expectHome('Globex', 'Owner');
  });
});

/** Presses Tab until the focused element satisfies `focused` (at most 10 times). */
async function tabUntil(focused: () => boolean) {
  for (let i = 0; i < 10; i += 1) {
    if (await suite.page.evaluate(focused)) return;
    await suite.page.keyboard.press('Tab');
  }
  throw new Error('focus never reached the expected element');
}
