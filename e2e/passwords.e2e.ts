// Password reset and set password in a real Chromium against the real server: from the login's
// RESET-PASSWORD step and from /auth/reset-password (by keyboard alone), the mailed link, the policy's
// messages while typing, 'Password set' and the way back in; expired and reused links.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tenantUsers, users, userTokens } from '../server/db/schema.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';
import { demoWorkspaceId } from './support/workspaces.ts';
import { messagesTo, nextLink } from './support/mailbox.ts';

const EXPIRED_TEXT = 'The link has expired. You need to request a new reset password link again.';
const SET_PASSWORD_LINK = /\/auth\/set-password\//;

const suite = browserSuite();

/** A member of Acme who has never had a password (as after an import). */
async function passwordlessMember(): Promise<string> {
  const email = `nopass-${randomUUID().slice(0, 8)}@acme.demo.foyer.test`;
  const acmeId = await demoWorkspaceId(suite.foyer, 'Acme');
  const userId = randomUUID();
  await suite.foyer.db
    .insert(users)
    .values({ id: userId, appId: suite.foyer.demo.appId, email, firstName: 'Pat', lastName: 'Nopass', onboarded: true });
  await suite.foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId: acmeId, userId, role: 'VIEWER', onboarded: true });
  return email;
}

const heading = () => suite.page.getByRole('heading', { level: 1 });
const expectHeading = (text: string) => expect.poll(() => heading().textContent()).toBe(text);

async function policyWarnings(): Promise<string[]> {
  const list = suite.page.getByRole('list', { name: 'Password requirements' });
  return (await list.count()) === 0 ? [] : list.getByRole('listitem').allTextContents();
}

async function expectHome(workspace: string) {
  await suite.page.waitForURL(`${suite.foyer.urls.ui}/`);
  await expect.poll(() => suite.page.locator('dl').textContent()).toContain(workspace);
}

async function expectExpired() {
  await suite.page.getByRole('alert').filter({ hasText: EXPIRED_TEXT }).waitFor();
  expect(await suite.page.getByRole('alert').textContent()).toContain('An error occured');
  expect(await suite.page.getByLabel('New password').count()).toBe(0);
}

describe('reset and set password in the browser', () => {
  it("sets a first password from the login's forgot-password link, with the policy shown while typing", async () => {
    const email = await passwordlessMember();
    await suite.page.goto(suite.foyer.urls.ui);
    await suite.page.waitForURL(/\/auth\/login/);
    await suite.page.getByLabel('Email').fill(email);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    // credentialsConfig answers every address alike, so the password step shows for a passwordless identity too.
    await suite.page.getByRole('button', { name: 'Forgot password?' }).click();

    await suite.page.waitForURL(`${suite.foyer.urls.ui}/auth/reset-password`);
    await expectHeading('Reset password');
    expect(await suite.page.getByLabel('Email').inputValue()).toBe(email);
    await expectNoAxeViolations(suite.page);
    await suite.page.getByRole('button', { name: 'Send reset link' }).click();
    await expectHeading('Check your email');
    await expectNoAxeViolations(suite.page);

    await suite.page.goto(await nextLink(suite.foyer.urls.ui, email, SET_PASSWORD_LINK));
    await expectHeading('Set password');
    const password = suite.page.getByLabel('New password');
    const repeat = suite.page.getByLabel('Repeat password');
    const submit = suite.page.getByRole('button', { name: 'Set password' });
    expect(await suite.page.getByLabel('Email').inputValue()).toBe(email);
    expect(await policyWarnings()).toEqual([]);
    await expectNoAxeViolations(suite.page);

    await password.pressSequentially('x');
    await expect
      .poll(policyWarnings)
      .toEqual([
        'Minimal length: 10 characters',
        'Should contain uppercase letter',
        'Should contain digit',
        'Should contain special character',
      ]);
    await password.pressSequentially('Y');
    await expect
      .poll(policyWarnings)
      .toEqual(['Minimal length: 10 characters', 'Should contain digit', 'Should contain special character']);
    await password.pressSequentially('7!');
    await expect.poll(policyWarnings).toEqual(['Minimal length: 10 characters']);
    await expectNoAxeViolations(suite.page);
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
    await expectNoAxeViolations(suite.page);
    await suite.page.getByRole('button', { name: 'Back to login' }).click();
    await expectHome('Acme');

    // The new password works for a fresh login.
    await suite.page.getByRole('link', { name: 'Log out' }).click();
    await suite.page.getByLabel('Email').fill(email);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.getByLabel('Password').fill('xY7!abcdefg');
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    await expectHome('Acme');
  });

  it('resets a password from /auth/reset-password with the keyboard alone; the used link then shows as expired', async () => {
    const admin = suite.foyer.demo.users[1]!;
    const before = (await messagesTo(suite.foyer.urls.ui, admin.email)).length;
    await suite.page.goto(`${suite.foyer.urls.ui}/auth/reset-password`);
    await suite.page.getByLabel('Email').waitFor();
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    await suite.page.keyboard.type(admin.email);
    await suite.page.keyboard.press('Enter');
    await expectHeading('Check your email');

    const link = await nextLink(suite.foyer.urls.ui, admin.email, SET_PASSWORD_LINK, before);
    await suite.page.goto(link);
    await suite.page.getByLabel('New password').waitFor();
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('new-password');
    const newPassword = 'Keyboard-only-2026?';
    await suite.page.keyboard.type(newPassword);
    await suite.page.keyboard.press('Tab');
    await suite.page.keyboard.type(newPassword);
    await suite.page.keyboard.press('Enter');
    await expectHeading('Password set');
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await suite.page.keyboard.press('Tab');
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.textContent)).toBe('Back to login');
    await suite.page.keyboard.press('Enter');
    await expectHome('Acme');

    // Single use: the same link again is expired, and opening it signs this browser out first.
    await suite.page.goto(link);
    await expectExpired();
    await expectNoAxeViolations(suite.page);
    expect(await suite.page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'))).toBeNull();
    expect(await suite.page.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/auth/reset-password');
  });

  it('shows the expired text for a link past its lifetime, also when it expires after opening', async () => {
    const viewer = suite.foyer.demo.users[2]!;
    const before = (await messagesTo(suite.foyer.urls.ui, viewer.email)).length;
    await suite.page.goto(`${suite.foyer.urls.ui}/auth/reset-password`);
    await suite.page.getByLabel('Email').fill(viewer.email);
    await suite.page.getByRole('button', { name: 'Send reset link' }).click();
    await expectHeading('Check your email');
    const link = await nextLink(suite.foyer.urls.ui, viewer.email, SET_PASSWORD_LINK, before);

    await suite.page.goto(link);
    await suite.page.getByLabel('New password').waitFor();
    const expireResetTokens = async () => {
      const [user] = await suite.foyer.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.appId, suite.foyer.demo.appId), eq(users.email, viewer.email)));
      await suite.foyer.db
        .update(userTokens)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(and(eq(userTokens.userId, user!.id), eq(userTokens.purpose, 'reset')));
    };
    await expireResetTokens();
    await suite.page.getByLabel('New password').fill('Too-late-2026!');
    await suite.page.getByLabel('Repeat password').fill('Too-late-2026!');
    await suite.page.getByRole('button', { name: 'Set password' }).click();
    await expectExpired();

    await suite.page.goto(link);
    await expectExpired();
  });
});
