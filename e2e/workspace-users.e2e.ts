// Workspace administration in a real Chromium against the real server: inviting (blank inputs
// dropped, failures shown per address, by keyboard alone), the invitee's first password, editing a
// member's role and status, the reset link and the deletion behind their confirmation dialogs, and a
// viewer's read-only table. Every screen passes axe.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';
import { messagesTo, nextLink } from './support/mailbox.ts';

const owner = () => suite.foyer.demo.users[0]!;
const viewer = () => suite.foyer.demo.users[2]!;
const USERS_PATH = '/user-management/users';
const SET_PASSWORD_LINK = /\/auth\/set-password\//;

const suite = browserSuite();

/** Opens `path` signed out, signs in through the login (choosing `workspace` when asked) and comes back to it. */
async function signIn(target: Page, email: string, password: string, workspace?: string, path = USERS_PATH) {
  await target.goto(`${suite.foyer.urls.ui}${path}`);
  await target.waitForURL(/\/auth\/login/);
  await target.getByLabel('Email').fill(email);
  await target.getByRole('button', { name: 'Continue' }).click();
  await target.getByLabel('Password').fill(password);
  await target.getByRole('button', { name: 'Sign in' }).click();
  if (workspace) {
    await target.waitForURL(/\/auth\/choose-user/);
    await target.getByRole('radio', { name: workspace }).check();
    await target.getByRole('button', { name: 'Continue' }).click();
  }
  await target.waitForURL(`${suite.foyer.urls.ui}${path}`);
}

/** The operation a GraphQL POST carries; null for any other request. */
function graphQLBody(postData: string | null): { operationName?: string; variables?: unknown } | null {
  try {
    return postData ? (JSON.parse(postData) as { operationName?: string; variables?: unknown }) : null;
  } catch {
    return null;
  }
}

const table = () => suite.page.getByRole('table', { name: 'Workspace users' });
const rowOf = (text: string) => table().getByRole('row').filter({ hasText: text });
const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@invited.foyer.test`;

async function search(text: string) {
  await suite.page.getByLabel('Search users').fill(text);
  await expect.poll(() => table().locator('tbody tr').count()).toBe(1);
  await rowOf(text).waitFor();
}

describe('users administration in the browser', () => {
  it('invites two addresses (a blank input dropped); the invitee sets a password, then loses the workspace once disabled', async () => {
    const sent: unknown[] = [];
    let roleQueries = 0;
    suite.page.on('request', (request) => {
      const body = graphQLBody(request.postData());
      if (body?.operationName === 'CreateUsers') sent.push(body.variables);
      if (body?.operationName === 'ListUserRoles') roleQueries += 1;
    });
    await signIn(suite.page, owner().email, owner().password, 'Acme');
    await rowOf(owner().email).waitFor();
    expect(await rowOf(owner().email).textContent()).toContain('(you)');
    // The own row offers nothing to do.
    expect(await rowOf(owner().email).getByRole('button').count()).toBe(0);
    await expectNoAxeViolations(suite.page);

    const first = address('ines');
    const second = address('ivan');
    await suite.page.getByLabel('Email address 1').fill(first);
    await suite.page.getByRole('button', { name: '+ Add another' }).click();
    await suite.page.getByRole('button', { name: '+ Add another' }).click();
    await suite.page.getByLabel('Email address 3').fill(second);
    await suite.page.getByRole('button', { name: 'Invite', exact: true }).click();

    const notice = suite.page.getByRole('status').filter({ hasText: 'Invite has been sent!' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`Workspace invatation has been sent to users: ${first}, ${second}`);
    expect(sent).toEqual([{ userNames: [first, second] }]);
    await rowOf(first).waitFor();
    expect(await rowOf(first).textContent()).toContain('Invited user');
    // The roles are asked for once for the whole table, not per row.
    expect(roleQueries).toBe(1);
    await expectNoAxeViolations(suite.page);

    // The invitee chooses a password through the mailed link and lands in Acme.
    const inviteeContext = await suite.browser.newContext();
    const invitee = await inviteeContext.newPage();
    await invitee.goto(await nextLink(suite.foyer.urls.ui, first, SET_PASSWORD_LINK));
    const password = 'Invited-2026-pass!';
    await invitee.getByLabel('New password').fill(password);
    await invitee.getByLabel('Repeat password').fill(password);
    await invitee.getByRole('button', { name: 'Set password' }).click();
    await invitee.getByRole('button', { name: 'Back to login' }).click();
    // Signed in once the hosted home's sign-in has come back with tokens.
    await invitee.waitForFunction(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN') !== null);
    await invitee.goto(`${suite.foyer.urls.ui}${USERS_PATH}`);
    await invitee.getByRole('table', { name: 'Workspace users' }).waitFor();
    expect(await invitee.locator('.foyer-admin__workspace').textContent()).toBe('Acme');
    // The invite form is a slot gated to owners, admins and managers (flows/users.json): a viewer never sees it.
    await invitee.waitForLoadState('networkidle');
    expect(await invitee.getByRole('button', { name: 'Invite', exact: true }).count()).toBe(0);
    await inviteeContext.close();

    // The owner makes the invitee a manager and disables them.
    await search(first);
    await rowOf(first).getByRole('button', { name: 'Edit' }).click();
    const roleSelect = suite.page.getByRole('combobox', { name: 'Role of Invited user' });
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    expect(await roleSelect.locator('option').allTextContents()).toEqual(['Owner', 'Admin', 'Manager', 'Viewer']);
    await roleSelect.selectOption('MANAGER');
    const enabled = suite.page.getByRole('switch', { name: 'Enabled' });
    expect(await enabled.getAttribute('aria-checked')).toBe('true');
    await enabled.click();
    expect(await enabled.getAttribute('aria-checked')).toBe('false');
    await expectNoAxeViolations(suite.page);
    await suite.page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rowOf(first).textContent()).toContain('Deactivated');
    expect(await rowOf(first).textContent()).toContain('Manager');
    expect(await suite.page.getByRole('switch').count()).toBe(0);

    // Signing in again, the invitee is no longer offered Acme.
    const lockedContext = await suite.browser.newContext();
    const locked = await lockedContext.newPage();
    await locked.goto(`${suite.foyer.urls.ui}/auth/login`);
    await locked.getByLabel('Email').fill(first);
    await locked.getByRole('button', { name: 'Continue' }).click();
    await locked.getByLabel('Password').fill(password);
    await locked.getByRole('button', { name: 'Sign in' }).click();
    const outcome = locked.getByRole('alert').first();
    await outcome.waitFor();
    expect(await outcome.textContent()).toMatch(/No workspace found!|Wrong credentials/);
    expect(await locked.getByRole('radio', { name: 'Acme' }).count()).toBe(0);
    await lockedContext.close();
  });

  it('shows each refused address next to its input, and invites by keyboard alone', async () => {
    await signIn(suite.page, owner().email, owner().password, 'Acme');
    await table().waitFor();
    const fresh = address('kai');

    // From the page heading, Tab leads into the form; nothing below uses the mouse.
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await suite.page.keyboard.press('Tab');
    await expect.poll(() => suite.page.getByLabel('Email address 1').evaluate((input) => input === document.activeElement)).toBe(true);
    await suite.page.keyboard.type('not-an-address');
    await suite.page.keyboard.press('Tab');
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.textContent)).toBe('+ Add another');
    await suite.page.keyboard.press('Enter');
    await expect.poll(() => suite.page.getByLabel('Email address 2').evaluate((input) => input === document.activeElement)).toBe(true);
    await suite.page.keyboard.type(suite.foyer.demo.users[1]!.email);
    await suite.page.keyboard.press('Tab');
    await suite.page.keyboard.press('Enter');
    await expect.poll(() => suite.page.getByLabel('Email address 3').evaluate((input) => input === document.activeElement)).toBe(true);
    await suite.page.keyboard.type(fresh);
    await suite.page.keyboard.press('Enter');

    const notice = suite.page.getByRole('status').filter({ hasText: 'Invite has been sent!' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`Workspace invatation has been sent to users: ${fresh}`);
    // The refused addresses stay, each with its reason tied to its input.
    const invalid = suite.page.getByLabel('Email address 1');
    const member = suite.page.getByLabel('Email address 2');
    expect(await invalid.inputValue()).toBe('not-an-address');
    expect(await member.inputValue()).toBe(suite.foyer.demo.users[1]!.email);
    expect(await suite.page.getByLabel('Email address 3').count()).toBe(0);
    const reasonOf = async (input: typeof invalid) =>
      suite.page.locator(`#${(await input.getAttribute('aria-describedby'))!.replace(/:/g, '\\:')}`).textContent();
    expect(await invalid.getAttribute('aria-invalid')).toBe('true');
    expect(await reasonOf(invalid)).toBe('Enter a valid e-mail address.');
    expect(await reasonOf(member)).toBe('Already a member of this workspace.');
    await expectNoAxeViolations(suite.page);
    await nextLink(suite.foyer.urls.ui, fresh, SET_PASSWORD_LINK);
    // The notice goes away by itself.
    await notice.waitFor({ state: 'detached', timeout: 8_000 });
  });

  it('shows an invitation as Invited until accepted, sends it again, and revokes it behind a confirmation', async () => {
    await signIn(suite.page, owner().email, owner().password, 'Acme');
    await table().waitFor();
    const invitee = address('pending');
    await suite.page.getByLabel('Email address 1').fill(invitee);
    await suite.page.getByRole('button', { name: 'Invite', exact: true }).click();
    await suite.page.getByRole('status').filter({ hasText: 'Invite has been sent!' }).waitFor();
    await search(invitee);
    await expect.poll(() => rowOf(invitee).textContent()).toContain('Invited');
    expect(await rowOf(invitee).getByRole('button', { name: 'Edit' }).count()).toBe(0);

    await rowOf(invitee).getByRole('button', { name: 'Resend invite' }).click();
    await suite.page.getByText(`The invitation was sent to ${invitee} again.`).waitFor();
    await expect.poll(async () => (await messagesTo(suite.foyer.urls.ui, invitee)).length).toBe(2);
    await expectNoAxeViolations(suite.page);

    await rowOf(invitee).getByRole('button', { name: 'Revoke' }).click();
    const dialog = suite.page.getByRole('dialog', { name: 'Revoke invitation' });
    await dialog.getByText(`Revoke the invitation to ${invitee}?`, { exact: false }).waitFor();
    await expectNoAxeViolations(suite.page);
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await suite.page.getByText(`The invitation to ${invitee} was revoked.`).waitFor();
    await expect.poll(() => rowOf(invitee).count()).toBe(0);
  });

  it('offers at most twenty address inputs and says so', async () => {
    await signIn(suite.page, owner().email, owner().password, 'Acme');
    await table().waitFor();
    const addAnother = suite.page.getByRole('button', { name: '+ Add another' });
    for (let count = 1; count < 20; count += 1) await addAnother.click();
    await suite.page.getByLabel('Email address 20').waitFor();
    expect(await addAnother.count()).toBe(0);
    await suite.page.getByText('You can invite at most 20 people at a time.').waitFor();
    await expectNoAxeViolations(suite.page);
  });

  it('sends a reset link from a row and deletes a member behind confirmations (Escape cancels first)', async () => {
    await signIn(suite.page, owner().email, owner().password, 'Acme');
    const admin = suite.foyer.demo.users[1]!;
    await rowOf(admin.email).waitFor();

    const before = (await messagesTo(suite.foyer.urls.ui, admin.email)).length;
    const resetButton = rowOf(admin.email).getByRole('button', { name: 'Reset password' });
    await resetButton.click();
    const dialog = suite.page.getByRole('dialog', { name: 'Reset password' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await dialog.textContent()).toContain('Do you want to send a reset password link to Adam Admin?');
    await expectNoAxeViolations(suite.page);
    // Tab stays inside the dialog.
    for (let i = 0; i < 3; i += 1) {
      await suite.page.keyboard.press('Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await dialog.getByRole('button', { name: 'Send link' }).click();
    await suite.page.getByRole('status').filter({ hasText: 'A reset password link has been sent to Adam Admin.' }).waitFor();
    await nextLink(suite.foyer.urls.ui, admin.email, SET_PASSWORD_LINK, before);

    const deleteButton = rowOf(admin.email).getByRole('button', { name: 'Delete' });
    await deleteButton.click();
    const confirm = suite.page.getByRole('dialog', { name: 'Delete user' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('Are you sure you want to delete the user Adam Admin?');
    await suite.page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await deleteButton.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await rowOf(admin.email).count()).toBe(1);

    await deleteButton.click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await suite.page.getByRole('status').filter({ hasText: 'The user Adam Admin has been deleted.' }).waitFor();
    await expect.poll(() => rowOf(admin.email).count()).toBe(0);
  });

  it('shows a viewer the table read-only', async () => {
    await signIn(suite.page, viewer().email, viewer().password);
    await rowOf(owner().email).waitFor();
    expect(await table().locator('tbody').getByRole('button').count()).toBe(0);
    expect(await table().getByRole('columnheader').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('Name'), expect.stringContaining('Role')]),
    );
    expect(await suite.page.getByRole('heading', { name: 'Invite users' }).count()).toBe(0);
    // A row click changes nothing either.
    await rowOf(owner().email).click();
    expect(await suite.page.getByRole('combobox', { name: /Role of/ }).count()).toBe(0);
    expect(await suite.page.getByRole('link', { name: 'Workspace' }).count()).toBe(0);
    await expectNoAxeViolations(suite.page);
  });
});
