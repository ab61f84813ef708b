// Signup in a real Chromium against the real server: a new workspace with a custom field and a plan
// from the query, the mailed link, the way back through the login, onboarding of the user and the
// workspace, and the signed-in home showing the new workspace. Every new screen passes axe.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apps, tenants, tenantUsers, users } from '../server/db/schema.ts';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';
import { messagesTo, nextLink } from './support/mailbox.ts';

let foyer: TestFoyer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [foyer, browser] = await Promise.all([startFoyer(), launchBrowser()]);
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({
      settings: {
        ...app!.settings,
        customSignupFields: [{ label: 'companySize', type: 'integer', userLabel: 'Company size', required: true }],
      },
    })
    .where(eq(apps.id, foyer.demo.appId));
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

async function expectHeading(text: string) {
  await expect.poll(() => heading().textContent()).toBe(text);
}

/** The policy's warning list as shown. */
async function policyWarnings(): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Password requirements' });
  if ((await list.count()) === 0) return [];
  return list.getByRole('listitem').allTextContents();
}

describe('signup in the browser', () => {
  it('signs up a workspace with a custom field and a plan, confirms by mail, and onboards into the home', async () => {
    const email = `founder-${randomUUID().slice(0, 8)}@signup.foyer.test`;
    const password = 'Founder-pass-2026!';

    await page.goto(`${foyer.urls.ui}/auth/signup?plan=ESSENTIAL&currency=USD&recurrenceInterval=month`);
    await page.getByLabel('Company size').waitFor();
    await expectHeading('Sign up');
    expect(await page.getByLabel('Company size').getAttribute('type')).toBe('number');
    expect(await page.getByRole('link', { name: 'privacy policy', exact: true }).getAttribute('href')).toBe(`${foyer.urls.ui}/privacy`);
    expect(await page.getByRole('link', { name: 'terms of service' }).getAttribute('href')).toBe(`${foyer.urls.ui}/terms`);
    const signUp = page.getByRole('button', { name: 'Sign up' });
    expect(await signUp.isDisabled()).toBe(true);
    await expectNoAxeViolations(page);

    await page.getByLabel('Email').fill(email);
    // The policy's messages follow each key.
    const passwordField = page.getByLabel('Password', { exact: true });
    await passwordField.pressSequentially('a');
    await expect
      .poll(policyWarnings)
      .toEqual(['Minimal length: 10 characters', 'Should contain uppercase letter', 'Should contain digit', 'Should contain special character']);
    await passwordField.pressSequentially('B3');
    await expect.poll(policyWarnings).toEqual(['Minimal length: 10 characters', 'Should contain special character']);
    await expectNoAxeViolations(page);
    await passwordField.fill('');
    await expect.poll(policyWarnings).toEqual(['Password field can not be empty.']);
    expect(await signUp.isDisabled()).toBe(true);
    await passwordField.fill(password);
    await expect.poll(policyWarnings).toEqual([]);

    // The server checks the custom value and answers on the field.
    await page.getByLabel('Company size').fill('12.5');
    await page.getByRole('checkbox', { name: /I agree to the privacy policy/ }).check();
    await signUp.click();
    await page.getByRole('alert').filter({ hasText: 'There was an error when creating the account.' }).waitFor();
    const sizeError = await page.getByLabel('Company size').getAttribute('aria-describedby');
    expect(sizeError).toBeTruthy();
    expect(await page.locator(`[id="${sizeError}"]`).textContent()).toBeTruthy();
    expect(await page.getByLabel('Company size').getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);

    await page.getByLabel('Company size').fill('12');
    await signUp.click();
    await expectHeading('Check your email');
    await page.getByText(`We sent an invite link to ${email}.`).waitFor();
    await expectNoAxeViolations(page);

    const [tenant] = await foyer.db
      .select({ plan: tenants.plan, onboarded: tenants.onboarded })
      .from(tenants)
      .innerJoin(tenantUsers, eq(tenantUsers.tenantId, tenants.id))
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(eq(users.email, email));
    expect(tenant).toEqual({ plan: 'ESSENTIAL', onboarded: false });
    const [owner] = await foyer.db.select({ customParams: users.customParams }).from(users).where(eq(users.email, email));
    expect(owner!.customParams).toEqual({ companySize: '12' });

    // The link confirms the password chosen on the form and signs the browser in.
    const link = await nextLink(foyer.urls.ui, email, /\/auth\/set-password\//);
    await page.goto(link);
    await expectHeading('Confirm your account');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expectHeading('Account confirmed');
    await expectNoAxeViolations(page);

    // Back to login: the login session is signed in, so the picker hands over the one workspace.
    await page.getByRole('button', { name: 'Back to login' }).click();
    await page.waitForURL(`${foyer.urls.ui}/onboard/user`);
    await expectHeading('Onboard user');
    await expectNoAxeViolations(page);
    await page.getByLabel('First name').fill('Nina');
    await page.getByLabel('Last name').fill('Founder');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`${foyer.urls.ui}/onboard/tenant`);
    await expectHeading('Onboard workspace');
    await expectNoAxeViolations(page);
    await page.getByLabel('Workspace name').fill('Initech');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`${foyer.urls.ui}/`);
    await expect.poll(() => page.locator('dl').textContent()).toContain('Initech');
    const details = await page.locator('dl').textContent();
    expect(details).toContain('Nina Founder');
    expect(details).toContain(email);
    expect(details).toContain('Owner');
    await expectNoAxeViolations(page);

    // The password from the form now signs in.
    await page.getByRole('link', { name: 'Log out' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${foyer.urls.ui}/`);
    await expect.poll(() => page.locator('dl').textContent()).toContain('Initech');
  });

  it('sends a signed-out visitor of onboarding to the login, then on to the app', async () => {
    const admin = foyer.demo.users[1]!;
    await page.goto(`${foyer.urls.ui}/onboard/tenant`);
    await page.waitForURL(/\/auth\/login/);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // An admin of an onboarded workspace has nothing to onboard: the start goes on to the app.
    await page.waitForURL(`${foyer.urls.ui}/`);
    await expect.poll(() => page.locator('dl').textContent()).toContain('Acme');
  });

  it('answers a signup with an existing e-mail exactly like a new one', async () => {
    const existing = foyer.demo.users[1]!.email;
    const before = (await messagesTo(foyer.urls.ui, existing)).length;
    await page.goto(`${foyer.urls.ui}/auth/signup`);
    await page.getByLabel('Company size').fill('3');
    await page.getByLabel('Email').fill(existing);
    await page.getByLabel('Password', { exact: true }).fill('Another-pass-2026!');
    await page.getByRole('checkbox', { name: /I agree/ }).check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expectHeading('Check your email');
    await page.getByText(`We sent an invite link to ${existing}.`).waitFor();
    // The owner of the address hears about it; the link confirms instead of setting a password.
    const link = await nextLink(foyer.urls.ui, existing, /\/auth\/set-password\//, before);
    await page.goto(link);
    await expectHeading('Confirm your account');
  });
});
