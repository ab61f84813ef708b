// The profile's sessions list in a real Chromium: two browsers signed in as one person, this one
// marked, the other signed out from here, then all others, then everywhere; the device also shows in
// the recent activity. Keyboard only, axe-checked, within 320 px.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, slowTokenRevocation } from './support/browser.ts';
import { signInToWorkspace } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

const suite = browserSuite();
const ui = () => suite.foyer.urls.ui;

/** Another device: a browser context of its own, naming itself Firefox on Windows. */
async function signInElsewhere(browser: Browser) {
  const context = await browser.newContext({ userAgent: FIREFOX_WINDOWS });
  await signInToWorkspace(await context.newPage(), ui());
  return context;
}

/** Activates a control from the keyboard: focus it, then Enter. */
async function press(page: Page, locator: ReturnType<Page['getByRole']>) {
  await locator.focus();
  await page.keyboard.press('Enter');
}

describe('the sessions list', () => {
  it('shows each device with this one marked and signs one out, all others, then everywhere', async () => {
    const page = suite.page;
    const elsewhere = await signInElsewhere(suite.browser);
    const third = await signInElsewhere(suite.browser);
    await signInToWorkspace(page, ui());
    await page.goto(`${ui()}/user-management/profile`);
    const sessions = page.getByRole('list', { name: 'Where you are signed in' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(3);
    const mine = sessions.getByRole('listitem').filter({ hasText: 'This device' });
    expect(await mine.textContent()).toContain('Chrome on Linux');
    expect(await mine.getByRole('button').count()).toBe(0);
    expect(await sessions.getByRole('listitem').filter({ hasText: 'Firefox on Windows' }).count()).toBe(2);
    // The recent activity names the device too.
    const activity = page.getByRole('list', { name: 'Recent activity' });
    await expect.poll(() => activity.getByRole('listitem').first().textContent()).toContain('Chrome on Linux');
    await expectNoAxeViolations(page);

    const signOutOne = sessions.getByRole('button', { name: 'Sign out Firefox on Windows (Acme)' }).first();
    await press(page, signOutOne);
    await page.getByRole('status').filter({ hasText: 'Firefox on Windows has been signed out.' }).waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);

    await press(page, page.getByRole('button', { name: 'Sign out of all other sessions' }));
    const dialog = page.getByRole('dialog', { name: 'Sign out of all other sessions' });
    await expectNoAxeViolations(page);
    await press(page, dialog.getByRole('button', { name: 'Sign out of all other sessions' }));
    await page.getByRole('status').filter({ hasText: '1 other session has been signed out.' }).waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sign out of all other sessions' }).count()).toBe(0);

    await press(page, page.getByRole('button', { name: 'Sign out everywhere' }));
    await press(page, page.getByRole('dialog', { name: 'Sign out everywhere' }).getByRole('button', { name: 'Sign out everywhere' }));
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByLabel('Email').waitFor();
    await elsewhere.close();
    await third.close();
  });

  it('leaves for the sign-out alone after "Sign out everywhere", however slow the token revocation', async () => {
    const page = suite.page;
    await signInToWorkspace(page, ui());
    await page.goto(`${ui()}/user-management/profile`);
    // A slow network: the page is still revoking its refresh token when its session is already gone.
    await slowTokenRevocation(page);
    const visited: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(new URL(request.url()).pathname);
    });
    await press(page, page.getByRole('button', { name: 'Sign out everywhere' }));
    await press(page, page.getByRole('dialog', { name: 'Sign out everywhere' }).getByRole('button', { name: 'Sign out everywhere' }));
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByLabel('Email').waitFor();
    // One way out, through the auth service's sign-out; no sign-in started alongside it to race it.
    expect(visited.filter((path) => path.startsWith('/url/'))).toEqual([expect.stringMatching(/^\/url\/logout\//)]);
  });

  it('fits a 320 px wide screen', async () => {
    const page = suite.page;
    const elsewhere = await signInElsewhere(suite.browser);
    await signInToWorkspace(page, ui());
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${ui()}/user-management/profile`);
    const sessions = page.getByRole('list', { name: 'Where you are signed in' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const box = (await sessions.getByRole('button', { name: /^Sign out Firefox/ }).boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= 320).toBe(true);
    await elsewhere.close();
  });
});
