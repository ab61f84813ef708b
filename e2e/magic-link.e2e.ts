// Magic links in a real Chromium against the real server: asked for from the login, the link signs
// in the browser that asked (continuing like a password login), and in any other browser lands on
// the login with the expired-link message.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';
import { messagesTo, nextLink } from './support/mailbox.ts';

const MAGIC_LINK = /\/auth\/magic-link\//;
const MLE_TEXT = "The magic link has expired, or you're not using the same browser that you sent the link from.";

const suite = browserSuite();

const expectHeading = (text: string) => expect.poll(() => suite.page.getByRole('heading', { level: 1 }).textContent()).toBe(text);

/** From the app's start through the login's magic-link button to 'Check your email'; answers the mailed link. */
async function askForLink(email: string, { checkAxe = false } = {}): Promise<string> {
  const before = (await messagesTo(suite.foyer.urls.ui, email)).length;
  await suite.page.goto(suite.foyer.urls.ui);
  await suite.page.waitForURL(/\/auth\/login/);
  await suite.page.getByLabel('Email').fill(email);
  await suite.page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await suite.page.waitForURL(`${suite.foyer.urls.ui}/auth/magic-link`);
  expect(await suite.page.getByLabel('Email').inputValue()).toBe(email);
  if (checkAxe) await expectNoAxeViolations(suite.page);
  await suite.page.getByRole('button', { name: 'Send link' }).click();
  await expectHeading('Check your email');
  await suite.page.getByText(`We sent a sign-in link to ${email}. The link is valid for 15 minutes.`).waitFor();
  return nextLink(suite.foyer.urls.ui, email, MAGIC_LINK, before);
}

describe('magic link in the browser', () => {
  it('signs in the browser that asked for it, once', async () => {
    const admin = suite.foyer.demo.users[1]!;
    await suite.page.goto(`${suite.foyer.urls.ui}/auth/login`);
    await suite.page.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
    await expectNoAxeViolations(suite.page);

    const link = await askForLink(admin.email, { checkAxe: true });
    await expectNoAxeViolations(suite.page);
    await suite.page.goto(link);
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/`);
    await expect.poll(() => suite.page.locator('dl').textContent()).toContain('Acme');
    expect(await suite.page.locator('dl').textContent()).toContain(admin.email);

    // Used once: the same link again keeps the signed-in user where they are and says it was used.
    await suite.page.goto(link);
    await suite.page.getByText('That sign-in link was already used. You are still signed in.').waitFor();
    expect(suite.page.url()).toBe(`${suite.foyer.urls.ui}/`);
    expect(await suite.page.locator('dl').textContent()).toContain('Acme');
    await expectNoAxeViolations(suite.page);
  });

  it('refuses the link in another browser with the expired-link message', async () => {
    const owner = suite.foyer.demo.users[0]!;
    const link = await askForLink(owner.email);
    const otherBrowser = await suite.browser.newContext();
    try {
      const other = await otherBrowser.newPage();
      await other.goto(link);
      await other.waitForURL(/\/auth\/login\?/);
      const alert = other.getByRole('alert').filter({ hasText: MLE_TEXT });
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Could not login');
      await expectNoAxeViolations(other);
    } finally {
      await otherBrowser.close();
    }
  });

  it("offers 'Forgot password?' on the password step, handing over the e-mail", async () => {
    const owner = suite.foyer.demo.users[0]!;
    await suite.page.goto(`${suite.foyer.urls.ui}/auth/login`);
    await suite.page.getByLabel('Email').fill(owner.email);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.getByLabel('Password').waitFor();
    await expectNoAxeViolations(suite.page);
    await suite.page.getByRole('button', { name: 'Forgot password?' }).click();
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/auth/reset-password`);
    expect(await suite.page.getByLabel('Email').inputValue()).toBe(owner.email);
  });
});
