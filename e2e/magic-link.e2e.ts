// Magic links in a real Chromium against the real server: asked for from the login, the link signs
// in the browser that asked (continuing like a password login), and in any other browser lands on
// the login with the expired-link message.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../server/testing.ts';
import { expectNoAxeViolations, launchBrowser } from './support/browser.ts';
import { messagesTo, nextLink } from './support/mailbox.ts';

let foyer: TestFoyer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const MAGIC_LINK = /\/auth\/magic-link\//;
const MLE_TEXT = "The magic link has expired, or you're not using the same browser that you sent the link from.";

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

const expectHeading = (text: string) => expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(text);

/** From the app's start through the login's magic-link button to 'Check your email'; answers the mailed link. */
async function askForLink(email: string, { checkAxe = false } = {}): Promise<string> {
  const before = (await messagesTo(foyer.urls.ui, email)).length;
  await page.goto(foyer.urls.ui);
  await page.waitForURL(/\/auth\/login/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.waitForURL(`${foyer.urls.ui}/auth/magic-link`);
  expect(await page.getByLabel('Email').inputValue()).toBe(email);
  if (checkAxe) await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expectHeading('Check your email');
  await page.getByText(`We sent a sign-in link to ${email}. The link is valid for 15 minutes.`).waitFor();
  return nextLink(foyer.urls.ui, email, MAGIC_LINK, before);
}

describe('magic link in the browser', () => {
  it('signs in the browser that asked for it, once', async () => {
    const admin = foyer.demo.users[1]!;
    await page.goto(`${foyer.urls.ui}/auth/login`);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
    await expectNoAxeViolations(page);

    const link = await askForLink(admin.email, { checkAxe: true });
    await expectNoAxeViolations(page);
    await page.goto(link);
    await page.waitForURL(`${foyer.urls.ui}/`);
    await expect.poll(() => page.locator('dl').textContent()).toContain('Acme');
    expect(await page.locator('dl').textContent()).toContain(admin.email);

    // Used once: the same link again lands on the login with the message.
    await page.goto(link);
    await page.waitForURL(/\/auth\/login\?/);
    await page.getByRole('alert').filter({ hasText: MLE_TEXT }).waitFor();
  });

  it('refuses the link in another browser with the expired-link message', async () => {
    const owner = foyer.demo.users[0]!;
    const link = await askForLink(owner.email);
    const otherBrowser = await browser.newContext();
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
    const owner = foyer.demo.users[0]!;
    await page.goto(`${foyer.urls.ui}/auth/login`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password').waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${foyer.urls.ui}/auth/reset-password`);
    expect(await page.getByLabel('Email').inputValue()).toBe(owner.email);
  });
});
