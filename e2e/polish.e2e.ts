// Everyday polish in a real Chromium: screen titles that tell screens apart, the demo's policy pages,
// the users page's navigation, edit mode and empty search, the app's corner radius on every control,
// and the configurator's apps list status.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apps, tenantUsers, users } from '../server/db/schema.ts';
import { DEMO_PASSWORD } from '../server/seed/demo.ts';
import { socialProviderFlags } from '../common/app-config.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { signInToWorkspace } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();
const ui = () => suite.foyer.urls.ui;
const owner = () => suite.foyer.demo.users[0]!;

describe('everyday polish', () => {
  it("titles each screen with the screen's name and the app's", async () => {
    await suite.page.goto(`${ui()}/auth/reset-password`);
    await expect.poll(() => suite.page.title()).toBe('Reset password · Demo app');
    await suite.page.goto(`${ui()}/auth/magic-link`);
    await expect.poll(() => suite.page.title()).toBe('Magic link · Demo app');
    await signInToWorkspace(suite.page, ui(), 'Acme');
    await expect.poll(() => suite.page.title()).toBe('You are signed in · Demo app');
    await suite.page.goto(`${ui()}/user-management/profile`);
    await expect.poll(() => suite.page.title()).toBe('Profile · Demo app');
  });

  it('lists the recent sign-ins on the profile, with how and from where', async () => {
    await signInToWorkspace(suite.page, ui(), 'Acme');
    await suite.page.goto(`${ui()}/user-management/profile`);
    const activity = suite.page.getByRole('list', { name: 'Recent activity' });
    await expect.poll(() => activity.getByRole('listitem').first().textContent()).toContain('Signed in with a password');
    expect(await activity.getByRole('listitem').first().textContent()).toContain('from 127.0.0.1');
    await expectNoAxeViolations(suite.page);
  });

  it("shows owners the workspace's administration log, filtered by who acted, and keeps it from viewers", async () => {
    await signInToWorkspace(suite.page, ui(), 'Globex');
    await suite.page.goto(`${ui()}/user-management/users`);
    const invitee = `logged-${Date.now()}@globex.test`;
    await suite.page.getByLabel('Email address 1').fill(invitee);
    await suite.page.getByRole('button', { name: 'Invite', exact: true }).click();
    await suite.page.getByRole('status').filter({ hasText: 'Invite has been sent!' }).waitFor();

    await suite.page.getByRole('navigation', { name: 'User management' }).getByRole('link', { name: 'Activity' }).click();
    await expect.poll(() => suite.page.title()).toBe('Activity · Demo app');
    const log = suite.page.getByRole('table', { name: 'Administration log' });
    const invited = log.getByRole('row').filter({ hasText: invitee });
    await invited.waitFor();
    expect(await invited.textContent()).toContain('Invited');
    expect(await invited.textContent()).toContain(owner().email);
    await expectNoAxeViolations(suite.page);
    await suite.page.getByLabel('Who').selectOption({ label: 'Vera Viewer' });
    await log.getByText('Nothing has happened here yet.').waitFor();

    // A viewer of the same workspace has no such page.
    await suite.page.goto(`${ui()}/auth/logout`);
    await suite.page.getByLabel('Email').fill('viewer@globex.demo.foyer.test');
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.getByLabel('Password').fill(DEMO_PASSWORD);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    await suite.page.waitForURL(`${ui()}/`);
    await suite.page.goto(`${ui()}/user-management/activity`);
    await suite.page.getByRole('heading', { level: 1, name: 'Workspace activity' }).waitFor();
    expect(await suite.page.getByRole('navigation', { name: 'User management' }).getByRole('link', { name: 'Activity' }).count()).toBe(0);
    expect(await suite.page.getByRole('table', { name: 'Administration log' }).count()).toBe(0);
  });

  it("leads the demo's privacy and terms links to real pages, also when signed in", async () => {
    await suite.page.goto(`${ui()}/auth/login`);
    await suite.page.getByRole('link', { name: 'Privacy policy' }).click();
    await suite.page.waitForURL(`${ui()}/privacy`);
    await suite.page.getByRole('heading', { level: 1, name: 'Privacy policy' }).waitFor();
    await expectNoAxeViolations(suite.page);

    await signInToWorkspace(suite.page, ui(), 'Acme');
    await suite.page.goto(`${ui()}/terms`);
    await suite.page.getByRole('heading', { level: 1, name: 'Terms of service' }).waitFor();
    await suite.page.getByRole('link', { name: 'Back to the app' }).click();
    await suite.page.locator('dl').waitFor();
  });

  it('marks Users as the current page on /user/list, leaves edit mode on Escape, and shows no pages for an empty search', async () => {
    await signInToWorkspace(suite.page, ui(), 'Acme');
    await suite.page.goto(`${ui()}/user/list`);
    const nav = suite.page.getByRole('navigation', { name: 'User management' });
    await expect.poll(() => nav.locator('[aria-current="page"]').allTextContents()).toEqual(['Users']);

    const table = suite.page.getByRole('table', { name: 'Workspace users' });
    const row = table.getByRole('row').filter({ hasText: 'admin@acme.demo.foyer.test' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByRole('combobox').waitFor();
    await suite.page.keyboard.press('Escape');
    await row.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await row.getByRole('combobox').count()).toBe(0);
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.textContent)).toBe('Edit');

    await suite.page.getByLabel('Search').fill('nobody-matches-this');
    await table.getByText('No users match your search.').waitFor();
    expect(await suite.page.getByRole('navigation', { name: 'Pagination' }).count()).toBe(0);
    await expectNoAxeViolations(suite.page);
  });

  it('keeps the users page within 390 and 320 px screens, the row actions reachable in the scrolling table', async () => {
    await signInToWorkspace(suite.page, ui(), 'Acme');
    for (const width of [390, 320]) {
      await suite.page.setViewportSize({ width, height: 800 });
      await suite.page.goto(`${ui()}/user-management/users`);
      const deleteAdam = suite.page
        .getByRole('row')
        .filter({ hasText: 'admin@acme.demo.foyer.test' })
        .getByRole('button', { name: 'Delete' });
      await deleteAdam.waitFor();
      expect(await suite.page.evaluate(() => document.documentElement.scrollWidth), `${width}`).toBe(width);
      await deleteAdam.focus();
      const box = (await deleteAdam.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= width, `${width}`).toBe(true);
      await expectNoAxeViolations(suite.page);
    }
  });

  it('signs a member out with the reason once their membership is disabled: on reload and on focus', async () => {
    const admin = suite.foyer.demo.users[1]!;
    const [membership] = await suite.foyer.db
      .select({ id: tenantUsers.id })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(eq(users.email, admin.email));
    const setEnabled = (enabled: boolean) => suite.foyer.db.update(tenantUsers).set({ enabled }).where(eq(tenantUsers.id, membership!.id));
    const signInAsAdmin = async () => {
      await suite.page.goto(ui());
      await suite.page.getByLabel('Email').fill(admin.email);
      await suite.page.getByRole('button', { name: 'Continue' }).click();
      await suite.page.getByLabel('Password').fill(admin.password);
      await suite.page.getByRole('button', { name: 'Sign in' }).click();
      await suite.page.waitForURL(`${ui()}/`);
      await suite.page.locator('dl').waitFor();
    };
    const expectSignedOutWithReason = async () => {
      await suite.page.getByText('Your access to that workspace has ended.', { exact: false }).waitFor();
      expect(suite.page.url()).toMatch(/\/auth\/login/);
      expect(await suite.page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'))).toBeNull();
      expect(await suite.page.getByText('No workspace found!').count()).toBe(0);
    };
    try {
      await signInAsAdmin();
      await setEnabled(false);
      await suite.page.reload();
      await expectSignedOutWithReason();
      await expectNoAxeViolations(suite.page);

      await setEnabled(true);
      await suite.context.clearCookies();
      await signInAsAdmin();
      await setEnabled(false);
      await suite.page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await expectSignedOutWithReason();
    } finally {
      await setEnabled(true);
    }
  });

  it("draws each social button in its provider's mark and colours, with no image from the providers' hosts", async () => {
    const [app] = await suite.foyer.db.select().from(apps).where(eq(apps.id, suite.foyer.demo.appId));
    const flags = Object.fromEntries(Object.values(socialProviderFlags).map((flag) => [flag, true]));
    await suite.foyer.db
      .update(apps)
      .set({ settings: { ...app!.settings, ...flags } })
      .where(eq(apps.id, suite.foyer.demo.appId));
    try {
      const foreign: string[] = [];
      suite.page.on('request', (request) => {
        if (!request.url().startsWith('http://localhost:')) foreign.push(request.url());
      });
      await suite.page.goto(`${ui()}/auth/login`);
      const buttons = suite.page.getByRole('list', { name: 'Social sign-in' }).getByRole('link');
      await expect.poll(() => buttons.count()).toBe(6);
      const looks = await buttons.evaluateAll((links) =>
        links.map((link) => ({ mark: link.querySelector('svg') !== null, background: getComputedStyle(link).backgroundColor })),
      );
      expect(looks.every((look) => look.mark)).toBe(true);
      expect(new Set(looks.map((look) => look.background)).size).toBeGreaterThanOrEqual(5);
      expect(foreign).toEqual([]);
      await expectNoAxeViolations(suite.page);
    } finally {
      await suite.foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, suite.foyer.demo.appId));
    }
  });

  it("rounds buttons and inputs with the app's corner radius, not only the card", async () => {
    const [app] = await suite.foyer.db.select().from(apps).where(eq(apps.id, suite.foyer.demo.appId));
    await suite.foyer.db
      .update(apps)
      .set({ settings: { ...app!.settings, branding: { radius: '20px' } } })
      .where(eq(apps.id, suite.foyer.demo.appId));
    try {
      await suite.page.goto(`${ui()}/auth/login`);
      const radius = (locator: ReturnType<Page['getByRole']>) =>
        locator.evaluate((element) => getComputedStyle(element).borderTopLeftRadius);
      await expect.poll(() => radius(suite.page.getByRole('main'))).toBe('20px');
      expect(await radius(suite.page.getByRole('button', { name: 'Continue' }))).toBe('15px');
      expect(await radius(suite.page.getByRole('textbox', { name: 'Email' }))).toBe('15px');
    } finally {
      await suite.foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, suite.foyer.demo.appId));
    }
  });

  it('lists the live demo app as published in the configurator', async () => {
    await suite.page.goto(`${ui()}/configurator`);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    await suite.page.getByLabel('Email').fill(owner().email);
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await suite.page.getByLabel('Password').fill(DEMO_PASSWORD);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    const row = suite.page.getByRole('table', { name: 'Your apps' }).getByRole('row').filter({ hasText: 'Demo app' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Version 1');
    expect(await row.textContent()).toContain('Live, no unpublished changes');
    expect(await row.textContent()).not.toContain('Not published yet');
  });
});
