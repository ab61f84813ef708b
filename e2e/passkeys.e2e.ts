// Passkeys in a real Chromium with its virtual authenticator (CDP WebAuthn domain) against the real
// server: 'Create Passkeys' on a reset link, sign-in with the button and through autofill, the
// profile's list and delete (after which sign-in fails), and a second ceremony aborting the first.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeys, tenantUsers, users } from '../server/db/schema.ts';
import { issueToken } from '../server/auth/tokens/service.ts';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';
import { demoWorkspaceId } from './support/workspaces.ts';

let foyer: TestFoyer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let authenticatorId: string;
const logs: string[] = [];

/** Set in localStorage, the page reports no autofill support, so only the button signs in. */
const NO_AUTOFILL = 'e2e-no-passkey-autofill';

beforeAll(async () => {
  [foyer, browser] = await Promise.all([startFoyer(), launchBrowser()]);
  context = await browser.newContext();
  await context.addInitScript((flag) => {
    if (localStorage.getItem(flag)) PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  }, NO_AUTOFILL);
  page = await context.newPage();
  page.on('console', (message) => logs.push(message.text()));
  cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await foyer?.close();
});

async function newMember(workspaces = ['Acme']): Promise<{ id: string; email: string }> {
  const email = `passkey-${randomUUID().slice(0, 8)}@acme.demo.foyer.test`;
  const id = randomUUID();
  await foyer.db.insert(users).values({ id, appId: foyer.demo.appId, email, firstName: 'Pia', lastName: 'Passkey', onboarded: true });
  for (const name of workspaces) {
    const tenantId = await demoWorkspaceId(foyer, name);
    await foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId, userId: id, role: 'VIEWER', onboarded: true });
  }
  return { id, email };
}

async function expectHome(workspace = 'Acme') {
  await page.waitForURL(`${foyer.urls.ui}/`);
  await expect.poll(() => page.locator('dl').textContent()).toContain(workspace);
}

async function logOut() {
  await page.getByRole('link', { name: 'Log out' }).click();
  await page.waitForURL(/\/auth\/login/);
  await page.getByLabel('Email').waitFor();
}

const logged = (text: string) => expect.poll(() => logs.some((line) => line.includes(text)), { timeout: 15_000 }).toBe(true);

describe('passkeys in the browser', () => {
  it('registers through a reset link, signs in by button and by autofill, deletes in the profile, then fails to sign in', async () => {
    const member = await newMember();
    const token = await issueToken(foyer.db, { appId: foyer.demo.appId, userId: member.id, purpose: 'reset' });

    await page.goto(`${foyer.urls.ui}/auth/set-password/${token}`);
    const create = page.getByRole('button', { name: 'Create Passkeys' });
    await create.click();
    await page.getByRole('status').filter({ hasText: 'Passkey created.' }).waitFor();
    await expectNoAxeViolations(page);
    expect(await foyer.db.select().from(passkeys).where(eq(passkeys.userId, member.id))).toHaveLength(1);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    // The button, with autofill switched off.
    await page.evaluate((flag) => localStorage.setItem(flag, '1'), NO_AUTOFILL);
    await page.goto(foyer.urls.ui);
    await page.waitForURL(/\/auth\/login/);
    const button = page.getByRole('button', { name: 'Sign in with Passkeys' });
    await button.waitFor();
    await expectNoAxeViolations(page);
    await button.focus();
    await page.keyboard.press('Enter');
    await expectHome();
    await logOut();

    // Autofill: the conditional request started on load signs in by itself with the virtual authenticator.
    await page.evaluate((flag) => localStorage.removeItem(flag), NO_AUTOFILL);
    await page.reload();
    await expectHome();

    // The profile lists it; delete it after the confirmation.
    await page.goto(`${foyer.urls.ui}/user-management/profile`);
    const list = page.getByRole('list', { name: 'Passkeys' });
    await expect.poll(() => list.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Passkey 1')]);
    expect(await list.textContent()).not.toContain('never');
    await expectNoAxeViolations(page);

    // Renamed in place by keyboard; Escape leaves the form unsaved.
    await page.getByRole('button', { name: 'Rename Passkey 1' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Rename Passkey 1' }).click();
    const nameField = page.getByLabel('Passkey name');
    await nameField.fill('Work laptop');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Enter');
    await expect.poll(() => list.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Work laptop')]);
    await page.getByRole('button', { name: 'Rename Work laptop' }).click();
    await page.getByLabel('Passkey name').fill('Passkey 1');
    await list.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => list.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Passkey 1')]);
    await page.getByRole('button', { name: 'Delete Passkey 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete passkey' });
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('You have no passkeys yet.').waitFor();
    expect(await foyer.db.select().from(passkeys).where(eq(passkeys.userId, member.id))).toHaveLength(0);

    // Add one from the profile (the authenticator replaces its credential for this account), then delete it too.
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect(await list.textContent()).toContain('never');
    expect(await foyer.db.select().from(passkeys).where(eq(passkeys.userId, member.id))).toHaveLength(1);
    // A second one on the same authenticator is refused by it, and the person is told why.
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('alert').filter({ hasText: 'This device already holds a passkey for your account.' }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Delete Passkey 1' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('You have no passkeys yet.').waitFor();

    // The authenticator still offers the credential; the server refuses it and the login stays.
    logs.length = 0;
    await page.evaluate((flag) => localStorage.setItem(flag, '1'), NO_AUTOFILL);
    await logOut();
    await page.getByRole('button', { name: 'Sign in with Passkeys' }).click();
    await logged('Authentication was not completed');
    await page.getByRole('alert').filter({ hasText: 'This passkey was not accepted.' }).waitFor();
    expect(page.url()).toMatch(/\/auth\/login/);
    expect(await page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'))).toBeNull();
    await expect.poll(() => page.getByRole('button', { name: 'Sign in with Passkeys' }).getAttribute('aria-busy')).toBeNull();
  });

  it('aborts a waiting autofill request when the button starts a ceremony', async () => {
    const member = await newMember();
    const token = await issueToken(foyer.db, { appId: foyer.demo.appId, userId: member.id, purpose: 'reset' });
    await page.goto(`${foyer.urls.ui}/auth/set-password/${token}`);
    await page.getByRole('button', { name: 'Create Passkeys' }).click();
    await page.getByRole('status').filter({ hasText: 'Passkey created.' }).waitFor();

    // Without simulated presence a ceremony waits for the user to touch the authenticator.
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: false });
    await page.evaluate((flag) => localStorage.removeItem(flag), NO_AUTOFILL);
    logs.length = 0;
    await page.goto(`${foyer.urls.ui}/auth/login`);
    const button = page.getByRole('button', { name: 'Sign in with Passkeys' });
    await button.waitFor();
    await logged('conditional (autofill) sign-in waits for the authenticator');
    await button.click();
    await logged('modal sign-in waits for the authenticator');
    await logged('ERROR_CEREMONY_ABORTED');
    expect(page.url()).toMatch(/\/auth\/login/);
  });

  it('signs in from a login opened directly, asking for the workspace once', async () => {
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: true });
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    const member = await newMember(['Acme', 'Globex']);
    const token = await issueToken(foyer.db, { appId: foyer.demo.appId, userId: member.id, purpose: 'reset' });
    await page.goto(`${foyer.urls.ui}/auth/set-password/${token}`);
    await page.getByRole('button', { name: 'Create Passkeys' }).click();
    await page.getByRole('status').filter({ hasText: 'Passkey created.' }).waitFor();

    await page.evaluate((flag) => localStorage.setItem(flag, '1'), NO_AUTOFILL);
    await page.goto(`${foyer.urls.ui}/auth/login`);
    await page.getByRole('button', { name: 'Sign in with Passkeys' }).click();
    await page.getByRole('radio', { name: 'Globex' }).check();
    const pickerLoads: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.url().startsWith(`${foyer.urls.ui}/auth/choose-user`)) pickerLoads.push(request.url());
    });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectHome('Globex');
    expect(pickerLoads).toEqual([]);
  });
});
