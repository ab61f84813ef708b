// The legacy auth mode in a real Chromium against the real server: the demo app signs in through
// /auth-proxy on the API host (src/auth/legacy). Login into the workspace picker and onboarding, the
// two-factor setup wizard and the security code, reset password, and a profile save, through the same
// flows as the OAuth mode; passkeys, magic links and social sign-in are switched on for the app but
// never offered. Every screen passes axe.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apps, tenants, tenantUsers, users } from '../server/db/schema.ts';
import { hashPassword } from '../server/auth/passwords.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';
import { messagesTo, nextLink, nextSmsCode } from './support/mailbox.ts';

const PASSWORD = 'Legacy-password-1!';
const PHONE_NUMBER = '+46701234599';

const suite = browserSuite(async (foyer) => {
  await foyer.db
    .update(apps)
    .set({
      settings: sql`${apps.settings} || '{"authLegacy": true, "passkeysEnabled": true, "magicLinkEnabled": true, "googleSsoEnabled": true, "githubSsoEnabled": true, "mfaEnabled": true}'::jsonb`,
    })
    .where(eq(apps.id, foyer.demo.appId));
  await foyer.db.insert(tenants).values({ id: randomUUID(), appId: foyer.demo.appId, name: 'Secure', mfa: true, onboarded: true });
});

/** A new identity, not onboarded unless said, with an enabled VIEWER membership in each workspace. */
async function newPerson(workspaces: string[], onboarded = false): Promise<string> {
  const { db, demo } = suite.foyer;
  const id = randomUUID();
  const email = `legacy-${id.slice(0, 8)}@demo.foyer.test`;
  await db.insert(users).values({ id, appId: demo.appId, email, passwordHash: await hashPassword(PASSWORD), onboarded });
  for (const name of workspaces) {
    const [tenant] = await db.select().from(tenants).where(eq(tenants.name, name));
    await db.insert(tenantUsers).values({ id: randomUUID(), tenantId: tenant!.id, userId: id, role: 'VIEWER', onboarded });
  }
  return email;
}

const heading = () => suite.page.getByRole('heading', { level: 1 });

async function expectHome(workspace: string) {
  await suite.page.waitForURL(`${suite.foyer.urls.ui}/`);
  await expect.poll(() => suite.page.locator('dl').textContent()).toContain(workspace);
}

/** Opens the app signed out, and signs in with e-mail and password, checking the login's screens. */
async function signIn(email: string, password = PASSWORD) {
  await suite.page.goto(suite.foyer.urls.ui);
  await suite.page.waitForURL(/\/auth\/login/);
  await suite.page.getByLabel('Email').fill(email);
  await suite.page.getByRole('button', { name: 'Continue' }).click();
  await suite.page.getByLabel('Password').fill(password);
  await suite.page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the legacy auth mode in the browser', () => {
  it('offers no passkey, magic link or social sign-in, and signs in through the picker into onboarding', async () => {
    const email = await newPerson(['Acme', 'Globex']);
    await suite.page.goto(suite.foyer.urls.ui);
    await suite.page.waitForURL(/\/auth\/login/);
    await suite.page.getByLabel('Email').waitFor();
    for (const name of [/passkey/i, /magic link/i, /google/i, /github/i]) {
      expect(await suite.page.getByRole('button', { name }).count()).toBe(0);
      expect(await suite.page.getByRole('link', { name }).count()).toBe(0);
    }
    await expectNoAxeViolations(suite.page);

    await suite.page.getByLabel('Email').fill(email);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.getByLabel('Password').fill('Wrong-password-1!');
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    await suite.page.getByRole('alert').filter({ hasText: 'Wrong credentials, please try again.' }).waitFor();
    await expectNoAxeViolations(suite.page);
    expect(await suite.page.getByRole('button', { name: /passkey|magic link/i }).count()).toBe(0);
    await suite.page.getByLabel('Password').fill(PASSWORD);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();

    // The picker, then onboarding (docs/SPEC.md section 2: in legacy mode choose-user continues to /onboard).
    await suite.page.waitForURL(/\/auth\/choose-user/);
    await expect.poll(() => heading().textContent()).toBe('Choose workspace');
    await suite.page.getByText('Globex').waitFor();
    await expectNoAxeViolations(suite.page);
    await suite.page.getByText('Globex').click();
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.waitForURL(/\/onboard\/user/);
    await expect.poll(() => heading().textContent()).toBe('Onboard user');
    await expectNoAxeViolations(suite.page);
    await suite.page.getByLabel('First name').fill('Lena');
    await suite.page.getByLabel('Last name').fill('Legacy');
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await expectHome('Globex');

    const stored = await suite.page.evaluate(() => ({
      token: localStorage.getItem('NB_AUTH_TOKEN'),
      tenantUserId: localStorage.getItem('NB_TENANT_USER_ID'),
      access: localStorage.getItem('NB_OAUTH_ACCESS_TOKEN'),
    }));
    expect(stored.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored.tenantUserId).toBeTruthy();
    expect(stored.access).toBeNull();
    const [row] = await suite.foyer.db.select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({ firstName: 'Lena', lastName: 'Legacy', onboarded: true });
  });

  it('saves the profile, and logging out revokes the token', async () => {
    const email = await newPerson(['Acme'], true);
    await signIn(email);
    await expectHome('Acme');
    await suite.page.goto(`${suite.foyer.urls.ui}/user-management/profile`);
    await expect.poll(() => heading().textContent()).toBe('Profile');
    // The sign-in sessions of the OAuth mode do not exist here.
    expect(await suite.page.getByRole('button', { name: /sign out everywhere/i }).count()).toBe(0);
    expect(await suite.page.getByRole('button', { name: /passkey/i }).count()).toBe(0);
    await expectNoAxeViolations(suite.page);
    await suite.page.getByLabel('First name').fill('Petra');
    await suite.page.getByLabel('Last name').fill('Profile');
    await suite.page.getByRole('button', { name: 'Save' }).click();
    await suite.page.getByRole('status').filter({ hasText: 'Your profile has been saved.' }).waitFor();
    await expect.poll(() => suite.page.locator('.foyer-admin__user').textContent()).toContain('Petra Profile');
    const [row] = await suite.foyer.db.select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({ firstName: 'Petra', lastName: 'Profile' });

    const token = await suite.page.evaluate(() => localStorage.getItem('NB_AUTH_TOKEN'));
    await suite.page.getByRole('link', { name: 'Log out' }).click();
    await suite.page.waitForURL(/\/auth\/login/);
    expect(await suite.page.evaluate(() => localStorage.getItem('NB_AUTH_TOKEN'))).toBeNull();
    const check = await fetch(`${suite.foyer.urls.api}/auth-proxy/tenantUsers`, {
      headers: { 'x-auth-token': token!, 'x-app-id': suite.foyer.demo.appId },
    });
    expect(check.status).toBe(401);
  });

  it('sets up two-factor in the wizard, then asks for the texted security code at the next sign-in', async () => {
    const email = await newPerson(['Secure'], true);
    await signIn(email);
    await suite.page.waitForURL(/\/auth\/mfa\/setup/);
    await suite.page.getByRole('button', { name: 'Text message' }).click();
    const phone = suite.page.getByLabel('Phone number', { exact: true });
    await phone.waitFor();
    await expectNoAxeViolations(suite.page);
    await phone.fill(PHONE_NUMBER);
    await suite.page.getByRole('button', { name: 'Send code' }).click();
    const code = suite.page.getByLabel('Security code', { exact: true });
    await code.waitFor();
    await expectNoAxeViolations(suite.page);
    await code.fill(await nextSmsCode(suite.foyer.urls.ui, PHONE_NUMBER));
    await suite.page.getByRole('button', { name: 'Verify' }).click();
    const shown = suite.page.getByLabel('Recovery code', { exact: true });
    await shown.waitFor();
    expect(await shown.inputValue()).toMatch(/^[2-9A-Z]{4}(-[2-9A-Z]{4}){3}$/);
    await expectNoAxeViolations(suite.page);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await expectHome('Secure');
    expect(await suite.page.evaluate(() => localStorage.getItem('NB_MFA_TOKEN'))).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await suite.page.getByRole('link', { name: 'Log out' }).click();
    await suite.page.waitForURL(/\/auth\/login/);
    const sent = (await messagesTo(suite.foyer.urls.ui, PHONE_NUMBER)).length;
    await signIn(email);
    await suite.page.waitForURL(/\/auth\/mfa\/required/);
    const field = suite.page.getByLabel('Security code', { exact: true });
    await field.waitFor();
    await expectNoAxeViolations(suite.page);
    const texted = await nextSmsCode(suite.foyer.urls.ui, PHONE_NUMBER, sent);
    await field.fill(texted === '000000' ? '111111' : '000000');
    await suite.page.getByRole('button', { name: 'Verify' }).click();
    await suite.page.getByRole('alert').filter({ hasText: 'Wrong security code, please try again.' }).waitFor();
    await expectNoAxeViolations(suite.page);
    await field.fill(texted);
    await suite.page.getByRole('button', { name: 'Verify' }).click();
    await expectHome('Secure');
  });

  it('resets the password from a mailed link, and the new password signs in', async () => {
    const email = await newPerson(['Acme'], true);
    await suite.page.goto(`${suite.foyer.urls.ui}/auth/reset-password`);
    await suite.page.getByLabel('Email').fill(email);
    await suite.page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => heading().textContent()).toBe('Check your email');
    await expectNoAxeViolations(suite.page);

    await suite.page.goto(await nextLink(suite.foyer.urls.ui, email, /\/auth\/set-password\//));
    await expect.poll(() => heading().textContent()).toBe('Set password');
    expect(await suite.page.getByLabel('Email').inputValue()).toBe(email);
    await expectNoAxeViolations(suite.page);
    await suite.page.getByLabel('New password').fill('Renewed-password-2!');
    await suite.page.getByLabel('Repeat password').fill('Renewed-password-2!');
    await suite.page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => heading().textContent()).toBe('Password set');
    await expectNoAxeViolations(suite.page);
    await suite.page.getByRole('button', { name: 'Back to login' }).click();
    await expectHome('Acme');

    await suite.page.getByRole('link', { name: 'Log out' }).click();
    await suite.page.waitForURL(/\/auth\/login/);
    await signIn(email, 'Renewed-password-2!');
    await expectHome('Acme');
  });
});
