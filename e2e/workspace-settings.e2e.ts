// Profile and workspace settings in a real Chromium against the real server: the signed-in layout and
// its guard, the /user-management and /user redirects, profile and workspace saves (names updated in
// the header after the token refresh), the logo, and the two-factor switch that saves at once.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LOCALES, SUPPORTED_LOCALES } from '../common/locales.ts';
import { tenants, users } from '../server/db/schema.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();

const heading = () => suite.page.getByRole('heading', { level: 1 });

async function acme() {
  const [row] = await suite.foyer.db
    .select({ name: tenants.name, mfa: tenants.mfa })
    .from(tenants)
    .where(and(eq(tenants.appId, suite.foyer.demo.appId), eq(tenants.id, (await acmeId())!)));
  return row!;
}

async function acmeId() {
  const rows = await suite.foyer.db
    .select({ id: tenants.id, name: tenants.name })
    .from(tenants)
    .where(eq(tenants.appId, suite.foyer.demo.appId));
  return rows.find((row) => row.name.startsWith('Acme'))?.id;
}

describe('profile and workspace settings in the browser', () => {
  it('guards the management screens without showing them, then redirects /user-management to the profile and saves it', async () => {
    // Records whether the signed-in layout ever rendered before the sign-in.
    await suite.context.addInitScript(() => {
      new MutationObserver(() => {
        if (document.querySelector('.foyer-admin, table') && !localStorage.getItem('NB_OAUTH_REFRESH_TOKEN')) {
          sessionStorage.setItem('flashed', 'yes');
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const admin = suite.foyer.demo.users[1]!;
    await suite.page.goto(`${suite.foyer.urls.ui}/user-management`);
    await suite.page.waitForURL(/\/auth\/login/);
    await suite.page.getByLabel('Email').fill(admin.email);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.getByLabel('Password').fill(admin.password);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/user-management/profile`);
    expect(await suite.page.evaluate(() => sessionStorage.getItem('flashed'))).toBeNull();

    await expect.poll(() => heading().textContent()).toBe('Profile');
    const firstName = suite.page.getByLabel('First name');
    await expect.poll(() => firstName.inputValue()).toBe('Adam');
    expect(await suite.page.getByLabel('Last name').inputValue()).toBe('Admin');
    expect(await suite.page.getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('page');
    await expectNoAxeViolations(suite.page);

    await firstName.fill('Adrian');
    await suite.page.getByRole('button', { name: 'Save' }).click();
    await suite.page.getByRole('status').filter({ hasText: 'Your profile has been saved.' }).waitFor();
    // The header reads the renewed tokens.
    await expect.poll(() => suite.page.locator('.foyer-admin__user').textContent()).toContain('Adrian Admin');
    const [stored] = await suite.foyer.db
      .select({ firstName: users.firstName, consent: users.consentsToPrivacyPolicy })
      .from(users)
      .where(eq(users.email, admin.email));
    expect(stored).toEqual({ firstName: 'Adrian', consent: true });
    await expectNoAxeViolations(suite.page);

    // Any other /user path shows the list.
    await suite.page.goto(`${suite.foyer.urls.ui}/user/anything`);
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/user/list`);
    await suite.page.getByRole('table', { name: 'Workspace users' }).waitFor();
  });

  it('saves the workspace name, shows its logo, and switches two-factor authentication at once', async () => {
    const owner = suite.foyer.demo.users[0]!;
    await suite.page.goto(`${suite.foyer.urls.ui}/user-management/workspace`);
    await suite.page.waitForURL(/\/auth\/login/);
    await suite.page.getByLabel('Email').fill(owner.email);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.getByLabel('Password').fill(owner.password);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    await suite.page.waitForURL(/\/auth\/choose-user/);
    await suite.page.getByRole('radio', { name: 'Acme' }).check();
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/user-management/workspace`);

    await expect.poll(() => heading().textContent()).toBe('Workspace');
    const name = suite.page.getByLabel('Name', { exact: true });
    await expect.poll(() => name.inputValue()).toBe('Acme');
    // No logo set: the workspace's initials stand in, never a placeholder picture that looks like loading.
    // The header's and the workspace page's (a component loaded on demand).
    await expect.poll(() => suite.page.getByRole('img', { name: 'Acme logo' }).allTextContents()).toEqual(['A', 'A']);
    // Every shipped language, each named in itself (common/locales.ts).
    expect(await suite.page.getByLabel('Language').locator('option').allTextContents()).toEqual([
      '',
      ...SUPPORTED_LOCALES.map((locale) => LOCALES[locale].endonym),
    ]);
    await expectNoAxeViolations(suite.page);

    await name.fill('Acme Labs');
    await suite.page.getByRole('button', { name: 'Save' }).click();
    await suite.page.getByRole('status').filter({ hasText: 'Your workspace has been saved.' }).waitFor();
    await expect.poll(() => suite.page.locator('.foyer-admin__workspace').textContent()).toBe('Acme Labs');
    expect((await acme()).name).toBe('Acme Labs');

    const twoFactor = suite.page.getByRole('switch', { name: 'Two-factor authentication' });
    expect(await twoFactor.getAttribute('aria-checked')).toBe('false');
    await twoFactor.click();
    await suite.page.getByRole('status').filter({ hasText: 'Two-factor authentication is on.' }).waitFor();
    expect(await twoFactor.getAttribute('aria-checked')).toBe('true');
    expect((await acme()).mfa).toBe(true);
    await expectNoAxeViolations(suite.page);
    await twoFactor.click();
    await suite.page.getByRole('status').filter({ hasText: 'Two-factor authentication is off.' }).waitFor();
    expect((await acme()).mfa).toBe(false);

    // The navigation leads to the users table and back.
    await suite.page.getByRole('link', { name: 'Users' }).click();
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/user-management/users`);
    await suite.page.getByRole('table', { name: 'Workspace users' }).waitFor();
  });
});
