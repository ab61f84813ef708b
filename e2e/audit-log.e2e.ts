// The configurator's audit log in a real Chromium: the demo owner sees the demo app's sign-in attempts
// (their own failed one, with the device), filters by event type and by person from the keyboard, and the empty result
// says so. Axe-checked, within 320 px.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { OWNER_EMAIL, signInToConsole } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();
const ui = () => suite.foyer.urls.ui;

/** A failed and a good sign-in to the demo app, so its log has something to show. */
async function signInToDemoApp(page: Page) {
  await page.goto(`${ui()}/auth/login?appId=${suite.foyer.demo.appId}`);
  await page.getByLabel('Email').fill(OWNER_EMAIL);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill('Not-the-password-1!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').waitFor();
}

describe("the configurator's audit log", () => {
  it("lists the app's events with person and device, filters them from the keyboard, and fits 320 px", async () => {
    const page = suite.page;
    await signInToDemoApp(page);
    await signInToConsole(page, ui(), `/configurator/apps/${suite.foyer.demo.appId}/audit-log`);
    await page.getByRole('heading', { level: 2, name: 'Audit log' }).waitFor();
    const table = page.getByRole('table', { name: 'Audit events' });
    const rows = table.getByRole('row');
    await expect.poll(() => rows.nth(1).textContent()).toContain('Failed sign-in attempt');
    const failure = rows.nth(1);
    expect(await failure.textContent()).toContain(OWNER_EMAIL);
    expect(await failure.textContent()).toContain('Chrome on Linux');
    await expectNoAxeViolations(page);

    // Event type, by keyboard: the select takes the typed choice, Enter on the button applies it.
    await page.getByLabel('Event', { exact: true }).focus();
    await page.getByLabel('Event', { exact: true }).selectOption('login.failure');
    await page.getByRole('button', { name: 'Filter' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await rows.allTextContents()).slice(1).every((text) => text.includes('Failed sign-in attempt')))
      .toBe(true);

    await page.getByLabel('Person', { exact: true }).fill('nobody@nowhere.test');
    await page.keyboard.press('Enter');
    await table.getByText('No events match these filters.').waitFor();
    expect(await page.getByRole('navigation', { name: 'Pagination' }).count()).toBe(0);
    await expectNoAxeViolations(page);

    await page.setViewportSize({ width: 320, height: 640 });
    await page.getByLabel('Person', { exact: true }).fill('');
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
