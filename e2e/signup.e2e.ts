// Signup in a real Chromium against the real server: a new workspace with a custom field and a plan
// from the query, the mailed link, the way back through the login, onboarding of the user and the
// workspace, and the signed-in home showing the new workspace. Every new screen passes axe.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apps, tenants, tenantUsers, users } from '../server/db/schema.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';
import { messagesTo, nextLink } from './support/mailbox.ts';

const suite = browserSuite(async (foyer) => {
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

const heading = () => suite.page.getByRole('heading', { level: 1 });

async function expectHeading(text: string) {
  await expect.poll(() => heading().textContent()).toBe(text);
}

/** The policy's warning list as shown. */
async function policyWarnings(): Promise<string[]> {
  const list = suite.page.getByRole('list', { name: 'Password requirements' });
  if ((await list.count()) === 0) return [];
  return list.getByRole('listitem').allTextContents();
}

describe('signup in the browser', () => {
  it('signs up a workspace with a custom field and a plan, confirms by mail, and onboards into the home', async () => {
    const email = `founder-${randomUUID().slice(0, 8)}@signup.foyer.test`;
    const password = 'Founder-pass-2026!';

    await suite.page.goto(`${suite.foyer.urls.ui}/auth/signup?plan=FREEMIUM&currency=USD&recurrenceInterval=month`);
    await suite.page.getByLabel('Company size').waitFor();
    await expectHeading('Sign up');
    expect(await suite.page.getByLabel('Company size').getAttribute('type')).toBe('number');
    expect(await suite.page.getByRole('link', { name: 'privacy policy', exact: true }).getAttribute('href')).toBe(
      `${suite.foyer.urls.ui}/privacy`,
    );
    expect(await suite.page.getByRole('link', { name: 'terms of service' }).getAttribute('href')).toBe(`${suite.foyer.urls.ui}/terms`);
    const signUp = suite.page.getByRole('button', { name: 'Sign up' });
    expect(await signUp.isDisabled()).toBe(true);
    await expectNoAxeViolations(suite.page);

    await suite.page.getByLabel('Email').fill(email);
    // The policy's messages follow each key.
    const passwordField = suite.page.getByLabel('Password', { exact: true });
    await passwordField.pressSequentially('a');
    await expect
      .poll(policyWarnings)
      .toEqual([
        'Minimal length: 10 characters',
        'Should contain uppercase letter',
        'Should contain digit',
        'Should contain special character',
      ]);
    await passwordField.pressSequentially('B3');
    await expect.poll(policyWarnings).toEqual(['Minimal length: 10 characters', 'Should contain special character']);
    await expectNoAxeViolations(suite.page);
    await passwordField.fill('');
    await expect.poll(policyWarnings).toEqual(['Password field can not be empty.']);
    expect(await signUp.isDisabled()).toBe(true);
    await passwordField.fill(password);
    await expect.poll(policyWarnings).toEqual([]);

    // The server checks the custom value and answers on the field.
    await suite.page.getByLabel('Company size').fill('12.5');
    await suite.page.getByRole('checkbox', { name: /I agree to the privacy policy/ }).check();
    await signUp.click();
    await suite.page.getByRole('alert').filter({ hasText: 'There was an error when creating the account.' }).waitFor();
    const sizeError = await suite.page.getByLabel('Company size').getAttribute('aria-describedby');
    expect(sizeError).toBeTruthy();
    expect(await suite.page.locator(`[id="${sizeError}"]`).textContent()).toBeTruthy();
    expect(await suite.page.getByLabel('Company size').getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(suite.page);

    await suite.page.getByLabel('Company size').fill('12');
    await signUp.click();
    await expectHeading('Check your email');
    await suite.page.getByText(`We sent an invite link to ${email}.`).waitFor();
    await expectNoAxeViolations(suite.page);

    const [tenant] = await suite.foyer.db
      .select({ plan: tenants.plan, onboarded: tenants.onboarded })
      .from(tenants)
      .innerJoin(tenantUsers, eq(tenantUsers.tenantId, tenants.id))
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(eq(users.email, email));
    expect(tenant).toEqual({ plan: 'FREEMIUM', onboarded: false });
    const [owner] = await suite.foyer.db
      .select({ customParams: tenantUsers.customParams })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(eq(users.email, email));
    expect(owner!.customParams).toEqual({ companySize: '12' });

    // The link confirms the password chosen on the form and signs the browser in.
    const link = await nextLink(suite.foyer.urls.ui, email, /\/auth\/set-password\//);
    await suite.page.goto(link);
    await expectHeading('Confirm your account');
    await expectNoAxeViolations(suite.page);
    await suite.page.getByRole('button', { name: 'Confirm' }).click();
    await expectHeading('Account confirmed');
    await expectNoAxeViolations(suite.page);

    // Back to login: the login session is signed in, so the picker hands over the one workspace.
    await suite.page.getByRole('button', { name: 'Back to login' }).click();
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/onboard/user`);
    await expectHeading('Onboard user');
    await expectNoAxeViolations(suite.page);
    await suite.page.getByLabel('First name').fill('Nina');
    await suite.page.getByLabel('Last name').fill('Founder');
    await suite.page.getByRole('button', { name: 'Continue' }).click();

    await suite.page.waitForURL(`${suite.foyer.urls.ui}/onboard/tenant`);
    await expectHeading('Onboard workspace');
    await expectNoAxeViolations(suite.page);
    await suite.page.getByLabel('Workspace name').fill('Initech');
    await suite.page.getByRole('button', { name: 'Continue' }).click();

    await suite.page.waitForURL(`${suite.foyer.urls.ui}/`);
    await expect.poll(() => suite.page.locator('dl').textContent()).toContain('Initech');
    const details = await suite.page.locator('dl').textContent();
    expect(details).toContain('Nina Founder');
    expect(details).toContain(email);
    expect(details).toContain('Owner');
    await expectNoAxeViolations(suite.page);

    // The password from the form now signs in.
    await suite.page.getByRole('link', { name: 'Log out' }).click();
    await suite.page.getByLabel('Email').fill(email);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.getByLabel('Password').fill(password);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/`);
    await expect.poll(() => suite.page.locator('dl').textContent()).toContain('Initech');
  });

  it('sends a signed-out visitor of onboarding to the login, then on to the app', async () => {
    const admin = suite.foyer.demo.users[1]!;
    await suite.page.goto(`${suite.foyer.urls.ui}/onboard/tenant`);
    await suite.page.waitForURL(/\/auth\/login/);
    await suite.page.getByLabel('Email').fill(admin.email);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.getByLabel('Password').fill(admin.password);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    // An admin of an onboarded workspace has nothing to onboard: the start goes on to the app.
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/`);
    await expect.poll(() => suite.page.locator('dl').textContent()).toContain('Acme');
  });

  it('answers a signup with an existing e-mail exactly like a new one', async () => {
    const existing = suite.foyer.demo.users[1]!.email;
    const before = (await messagesTo(suite.foyer.urls.ui, existing)).length;
    await suite.page.goto(`${suite.foyer.urls.ui}/auth/signup`);
    await suite.page.getByLabel('Company size').fill('3');
    await suite.page.getByLabel('Email').fill(existing);
    await suite.page.getByLabel('Password', { exact: true }).fill('Another-pass-2026!');
    await suite.page.getByRole('checkbox', { name: /I agree/ }).check();
    await suite.page.getByRole('button', { name: 'Sign up' }).click();
    await expectHeading('Check your email');
    await suite.page.getByText(`We sent an invite link to ${existing}.`).waitFor();
    // The owner of the address hears about it; the link confirms instead of setting a password.
    const link = await nextLink(suite.foyer.urls.ui, existing, /\/auth\/set-password\//, before);
    await suite.page.goto(link);
    await expectHeading('Confirm your account');
  });
});
