// Sign-in routing in a real Chromium against the real server: every way into the hosted screens ends
// signed in after one workspace choice (a login or magic-link page opened directly, a console owner's
// confirmation), a signed-in user switches workspace from the header, the empty-workspace warning
// lets go, and no address under /auth or on the auth service shows a server's raw answer.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { tenantUsers, users } from '../server/db/schema.ts';
import { flows } from '../src/flow/flows.ts';
import { demoWorkspaceId } from './support/workspaces.ts';
import { expectNoAxeViolations, slowTokenRevocation } from './support/browser.ts';
import { signInToWorkspace } from './support/sign-in.ts';
import { nextLink } from './support/mailbox.ts';
import { browserSuite } from './support/suite.ts';

const VIEWER_EMAIL = 'viewer@globex.demo.foyer.test';

// The viewer's only membership is switched off: signing in leaves them without a workspace.
const suite = browserSuite(async (foyer) => {
  const [viewer] = await foyer.db.select({ id: users.id }).from(users).where(eq(users.email, VIEWER_EMAIL));
  await foyer.db.update(tenantUsers).set({ enabled: false }).where(eq(tenantUsers.userId, viewer!.id));
});

const ui = () => suite.foyer.urls.ui;
const owner = () => suite.foyer.demo.users[0]!;
const heading = (page: Page = suite.page) => page.getByRole('heading', { level: 1 });

/** Every page load from now on (full navigations only; the runtime's own route changes are not loads). */
function recordLoads(page: Page): string[] {
  const loads: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads.push(request.url());
  });
  return loads;
}

async function enterCredentials(email: string, password: string, page: Page = suite.page) {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signed in on the demo home in `workspace`: tokens held, the page off /auth. */
async function expectSignedInHome(workspace: string) {
  await suite.page.waitForURL(`${ui()}/`);
  await expect.poll(() => suite.page.locator('dl').textContent()).toContain(workspace);
  expect(await suite.page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'))).toBeTruthy();
}

async function accessClaims() {
  const token = await suite.page.evaluate(() => localStorage.getItem('NB_OAUTH_ACCESS_TOKEN'));
  return decodeJwt(token!);
}

/** The page shows a screen of the product: HTML with a main heading, never a server's JSON. */
async function expectRenderedScreen(page: Page, address: string) {
  // Some screens move on by themselves (logout leaves for the login): judge the one the browser settles on.
  await page.waitForLoadState('networkidle');
  await heading(page).first().waitFor({ timeout: 15_000 });
  const shown = await page.evaluate(() => ({ type: document.contentType, text: document.body.innerText }));
  expect(shown.type, address).toBe('text/html');
  expect(shown.text, address).not.toMatch(/"statusCode"|^\s*\{/);
  expect(new URL(page.url()).origin, address).toBe(ui());
}

describe('sign-in routing in the browser', () => {
  it('a login opened directly asks for the workspace once, then is signed in', async () => {
    await suite.page.goto(`${ui()}/auth/login`);
    await enterCredentials(owner().email, owner().password);
    await suite.page.getByRole('radio', { name: 'Globex' }).check();
    const loads = recordLoads(suite.page);
    await suite.page.getByRole('button', { name: 'Continue' }).click();

    await expectSignedInHome('Globex');
    // No second picker, no second login: straight through the auth service to the signed-in home.
    const screensShown = loads.filter((url) => url.startsWith(`${ui()}/auth/`) && !url.startsWith(`${ui()}/auth/oauth-callback`));
    expect(screensShown).toEqual([]);
    expect((await accessClaims()).tid).toBe(await demoWorkspaceId(suite.foyer, 'Globex'));
  });

  it('a magic link asked for on a directly opened page asks for the workspace once', async () => {
    await suite.page.goto(`${ui()}/auth/magic-link`);
    await suite.page.getByLabel('Email').fill(owner().email);
    await suite.page.getByRole('button', { name: 'Send link' }).click();
    await expect.poll(() => heading().textContent()).toBe('Check your email');
    const link = await nextLink(ui(), owner().email, /\/auth\/magic-link\//);

    const loads = recordLoads(suite.page);
    await suite.page.goto(link);
    await suite.page.getByRole('radio', { name: 'Acme' }).check();
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await expectSignedInHome('Acme');
    expect(loads.filter((url) => new URL(url).pathname === '/auth/choose-user')).toHaveLength(1);
  });

  it('switches workspace from the signed-in header: new tokens for the chosen one, the old ones revoked', async () => {
    await suite.page.goto(ui());
    await enterCredentials(owner().email, owner().password);
    await suite.page.getByRole('radio', { name: 'Globex' }).check();
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await expectSignedInHome('Globex');
    const oldRefreshToken = await suite.page.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'));

    // The picker opened while signed in preselects the current workspace.
    await suite.page.goto(`${ui()}/auth/choose-user?autoSelect=false`);
    await suite.page.getByRole('radio', { name: 'Globex' }).waitFor();
    expect(await suite.page.getByRole('radio', { name: 'Globex' }).isChecked()).toBe(true);

    await suite.page.goto(`${ui()}/user-management/profile`);
    const toggle = suite.page.getByRole('button', { name: 'Switch workspace' });
    await toggle.click();
    const list = suite.page.getByRole('list', { name: 'Your workspaces' });
    await list.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await list.locator('[aria-current="true"]').textContent()).toContain('Globex');
    expect(await list.getByRole('button').allTextContents()).toEqual(['Acme']);
    await expectNoAxeViolations(suite.page);
    // The keyboard reaches the other workspace from the toggle.
    await toggle.focus();
    await suite.page.keyboard.press('Tab');
    expect(await suite.page.evaluate(() => document.activeElement?.textContent)).toBe('Acme');
    await suite.page.keyboard.press('Enter');

    await expectSignedInHome('Acme');
    const claims = await accessClaims();
    expect(claims.tid).toBe(await demoWorkspaceId(suite.foyer, 'Acme'));
    expect(await suite.page.evaluate(() => localStorage.getItem('NB_TENANT_USER_ID'))).toBe(claims.sub);
    const refresh = await fetch(`${suite.foyer.urls.auth}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: oldRefreshToken!, client_id: suite.foyer.demo.appId }),
    });
    expect((await refresh.json()).error).toBe('invalid_grant');

    // Back and forth from the home page's switcher too.
    await suite.page.getByRole('button', { name: 'Switch workspace' }).click();
    await suite.page.getByRole('list', { name: 'Your workspaces' }).getByRole('button', { name: 'Globex' }).click();
    await expectSignedInHome('Globex');
    expect((await accessClaims()).tid).toBe(await demoWorkspaceId(suite.foyer, 'Globex'));
  });

  it('switches workspace however slow the token revocation, with no sign-in started before the switch', async () => {
    await signInToWorkspace(suite.page, ui(), 'Globex');
    await suite.page.goto(`${ui()}/user-management/profile`);
    // A slow network: the page is still revoking the old refresh token when its tokens are already gone.
    await slowTokenRevocation(suite.page);
    const loads = recordLoads(suite.page);
    await suite.page.getByRole('button', { name: 'Switch workspace' }).click();
    await suite.page.getByRole('list', { name: 'Your workspaces' }).getByRole('button', { name: 'Acme' }).click();
    await expectSignedInHome('Acme');
    expect((await accessClaims()).tid).toBe(await demoWorkspaceId(suite.foyer, 'Acme'));
    // The switch is the page's first move: no sign-in of the workspace being left went before it.
    expect(loads[0]).toContain(`${suite.foyer.urls.auth}/auth/chooseTenantUser/`);
  });

  it('fits a 320 px wide screen: the open switcher in the header and on the home page, and the error page', async () => {
    await suite.page.setViewportSize({ width: 320, height: 640 });
    const fits = () => suite.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await suite.page.goto(ui());
    await enterCredentials(owner().email, owner().password);
    await suite.page.getByRole('radio', { name: 'Acme' }).check();
    await suite.page.getByRole('button', { name: 'Continue' }).click();
    await expectSignedInHome('Acme');
    for (const path of ['/', '/user-management/profile']) {
      await suite.page.goto(`${ui()}${path}`);
      await suite.page.getByRole('button', { name: 'Switch workspace' }).click();
      const list = suite.page.getByRole('list', { name: 'Your workspaces' });
      await list.waitFor();
      expect(await fits(), path).toBe(true);
      const box = (await list.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 320, path).toBe(true);
      await expectNoAxeViolations(suite.page);
      await suite.page.keyboard.press('Escape');
      await suite.page.getByRole('list', { name: 'Your workspaces' }).waitFor({ state: 'detached' });
    }
    await suite.page.goto(`${ui()}/auth/error?error=AUTHORIZATION_EXPIRED`);
    await suite.page.getByText('This sign-in has expired or was started in another browser.', { exact: false }).waitFor();
    expect(await fits()).toBe(true);
  });

  it('logging out forgets the workspace user too', async () => {
    await suite.page.goto(ui());
    await enterCredentials(suite.foyer.demo.users[1]!.email, suite.foyer.demo.users[1]!.password);
    await expectSignedInHome('Acme');
    expect(await suite.page.evaluate(() => localStorage.getItem('NB_TENANT_USER_ID'))).toBeTruthy();
    await suite.page.getByRole('link', { name: 'Log out' }).click();
    await suite.page.getByLabel('Email').waitFor();
    const left = await suite.page.evaluate(() => Object.keys(localStorage).filter((key) => key !== 'NB_APP_ID' && key.startsWith('NB_')));
    expect(left).toEqual([]);
  });

  it('lets a user without a workspace try a different e-mail, and / does not bring the warning back', async () => {
    await suite.page.goto(ui());
    await enterCredentials(VIEWER_EMAIL, suite.foyer.demo.users[2]!.password);
    await suite.page.getByText('No workspace found!').waitFor();
    await expectNoAxeViolations(suite.page);

    await suite.page.goto(ui());
    await suite.page.getByLabel('Email').waitFor();
    expect(await suite.page.getByText('No workspace found!').count()).toBe(0);

    await enterCredentials(VIEWER_EMAIL, suite.foyer.demo.users[2]!.password);
    await suite.page.getByText('No workspace found!').waitFor();
    await suite.page.getByRole('button', { name: 'Try a different email' }).click();
    await suite.page.getByLabel('Email').waitFor();
    expect(suite.page.url()).toMatch(/\/auth\/login/);
    await enterCredentials(suite.foyer.demo.users[1]!.email, suite.foyer.demo.users[1]!.password);
    await expectSignedInHome('Acme');
  });

  it("a console owner's signup confirmation goes back to the login and ends in the configurator signed in", async () => {
    const email = `owner-${randomUUID().slice(0, 8)}@console.foyer.test`;
    await suite.page.goto(`${ui()}/auth/signup?appId=${suite.foyer.demo.consoleAppId}`);
    await suite.page.getByLabel('Email').fill(email);
    await suite.page.getByLabel('Password', { exact: true }).fill('Console-owner-2026!');
    const consent = suite.page.getByRole('checkbox', { name: /I agree/ });
    if ((await consent.count()) > 0) await consent.check();
    await suite.page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => heading().textContent()).toBe('Check your email');

    await suite.page.goto(await nextLink(ui(), email, /\/auth\/set-password\//));
    await suite.page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => heading().textContent()).toBe('Account confirmed');
    await suite.page.getByRole('button', { name: 'Back to login' }).click();

    await suite.page.waitForURL(`${ui()}/configurator/apps`);
    await suite.page.getByRole('heading', { name: 'Apps' }).waitFor();
    expect(await suite.page.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('FOYER_CONSOLE_')))).toBe(true);
  });

  it('shows a screen, never JSON, for every route under /auth and for odd addresses on both origins', async () => {
    const sample = (route: string) => route.replace(/:[A-Za-z]+/g, 'sample-token');
    const authRoutes = [
      ...flows.flatMap((flow) => flow.routes).filter((route) => route.startsWith('/auth/')),
      '/auth/oauth-callback',
      '/auth/logout',
      '/auth/sign-out',
      '/auth/error',
      '/auth/anything-else',
    ].map(sample);
    const oddUiPaths = [
      '/auth/help.html',
      '/auth/set-password/abc.def',
      '/auth/login%',
      '/auth/%E0%A4%A',
      '/%',
      '/nothing/here.json',
      `/auth/set-password/${'a'.repeat(600)}%2F`,
    ];
    const auth = suite.foyer.urls.auth;
    const authAddresses = [
      `${auth}/`,
      `${auth}/nothing.html`,
      `${auth}/%`,
      `${auth}/auth/chooseTenantUser/someone-else`,
      `${auth}/auth/continue`,
      `${auth}/interaction/not-a-real-one`,
      `${auth}/url/login/no-such-app`,
      `${auth}/url/login/${suite.foyer.demo.appId}?redirectUri=${encodeURIComponent('https://attacker.example/callback')}`,
      `${auth}/authorize?client_id=no-such-app&response_type=code`,
    ];
    for (const address of [...[...authRoutes, ...oddUiPaths].map((path) => `${ui()}${path}`), ...authAddresses]) {
      const page = await suite.context.newPage();
      await page.goto(address);
      await expectRenderedScreen(page, address);
      await page.close();
    }
  });

  it('shows the expired-link screen with a way to a new link for a mangled set-password link', async () => {
    await suite.page.goto(`${ui()}/auth/set-password/${'a'.repeat(600)}%2F`);
    await suite.page.getByRole('link', { name: 'Request a new link' }).waitFor();
    await expectNoAxeViolations(suite.page);
  });

  it('shows the branded error page with a way back for a redirect address the app never registered', async () => {
    await suite.page.goto(
      `${suite.foyer.urls.auth}/url/login/${suite.foyer.demo.appId}?redirectUri=${encodeURIComponent('https://attacker.example/callback')}`,
    );
    await suite.page.waitForURL(new RegExp(`^${ui()}/auth/error`));
    await expect.poll(() => heading().textContent()).toBe('Something went wrong');
    await suite.page.getByText("This app's sign-in address is not registered.", { exact: false }).waitFor();
    await expectNoAxeViolations(suite.page);
    await suite.page.getByRole('link', { name: 'Back to login' }).click();
    await suite.page.getByLabel('Email').waitFor();
  });
});
