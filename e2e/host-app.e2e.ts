// The example host app (examples/host-app, built by `npm run build`), which uses only @foyer/react,
// served beside a test Foyer whose demo app registers its callback: sign in on the hosted screens,
// the user and workspace shown, an OWNER page and a TEAM-plan page gated, a workspace switch
// (prompt=select_account, the hosted picker), a token refresh under a short access-token lifetime,
// and a sign-out that reaches every tab. Every screen of the example passes axe.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apps, tenants } from '../server/db/schema.ts';
import { DEMO_PASSWORD } from '../server/seed/demo.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

const exampleDist = fileURLToPath(new URL('../examples/host-app/dist/', import.meta.url));
const contentTypes: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
};
/** Seconds an access token of the demo app lives in this file: short, so a refresh happens during the test. */
const ACCESS_TOKEN_TTL = 12;

let example: Server;
let exampleUrl = '';

const suite = browserSuite(async (foyer) => {
  const config = JSON.stringify({ authOrigin: foyer.urls.auth, hostedUiOrigin: foyer.urls.ui, appId: foyer.demo.appId });
  example = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://example').pathname;
    if (path === '/config.json') return response.writeHead(200, { 'content-type': 'application/json' }).end(config);
    // Files of the build; any other address is a page of the single-page app.
    const file = path.startsWith('/assets/') && !path.includes('..') ? path.slice(1) : 'index.html';
    readFile(`${exampleDist}${file}`).then(
      (body) => response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => example.listen(0, '127.0.0.1', resolve));
  exampleUrl = `http://127.0.0.1:${(example.address() as AddressInfo).port}`;

  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({
      redirectUris: [...app!.redirectUris, `${exampleUrl}/callback`],
      postLogoutRedirectUris: [...app!.postLogoutRedirectUris, `${exampleUrl}/`],
      accessTokenTtl: ACCESS_TOKEN_TTL,
    })
    .where(eq(apps.id, foyer.demo.appId));
  // Globex is on the Team plan (as a paid checkout would leave it); Acme stays on Freemium.
  await foyer.db
    .update(tenants)
    .set({ plan: 'TEAM' })
    .where(and(eq(tenants.appId, foyer.demo.appId), eq(tenants.name, 'Globex')));
});

afterAll(() => new Promise<void>((resolve) => (example ? example.close(() => resolve()) : resolve())));

/**
 * The example's Sign in, then the hosted login; with `workspace`, the hosted picker's choice. The
 * SDK brings the browser back to the page it signed in from, `returnTo`.
 */
async function signIn(page: Page, email: string, workspace?: string, returnTo = '/') {
  const { foyer } = suite;
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${foyer.urls.ui}/auth/login?**`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (workspace) {
    await page.getByRole('radio', { name: workspace }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await page.waitForURL(`${exampleUrl}${returnTo}`);
}

/** The tokens the SDK keeps for the demo app (oidc-client-ts's stored user). */
async function storedAccessToken(page: Page): Promise<string | null> {
  const key = `foyer.user:${suite.foyer.urls.auth}:${suite.foyer.demo.appId}`;
  const stored = await page.evaluate((name) => localStorage.getItem(name), key);
  return stored ? (JSON.parse(stored) as { access_token: string }).access_token : null;
}

function details(page: Page) {
  return page.locator('dl').innerText();
}

describe('the example host app on @foyer/react', () => {
  it('signs an owner in, gates by role and plan, switches workspace, refreshes, and signs out in every tab', async () => {
    const { page, context, foyer } = suite;
    await page.goto(exampleUrl);
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    await expectNoAxeViolations(page);

    await signIn(page, 'owner@demo.foyer.test', 'Acme');
    await page.getByRole('heading', { name: 'Hello, Olivia Owner' }).waitFor();
    expect(await details(page)).toMatch(/Email\s+owner@demo\.foyer\.test\s+Role\s+Owner\s+Workspace\s+Acme\s+Plan\s+FREEMIUM/);
    await expectNoAxeViolations(page);

    // The hosted users view, signed in by single sign-on: no password asked.
    await page.getByRole('link', { name: 'Manage users' }).click();
    await page.waitForURL(`${foyer.urls.ui}/user-management/users`);
    await page.getByRole('table').waitFor();
    await page.goto(exampleUrl);

    await page.getByRole('link', { name: 'Owner settings' }).click();
    await page.getByText('Only owners of Acme see this page.').waitFor();
    await expectNoAxeViolations(page);

    await page.getByRole('link', { name: 'Team reports' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('This page is part of the Team plan. Your workspace is on FREEMIUM.');
    await expectNoAxeViolations(page);

    // The hosted picker, asked with prompt=select_account; the SDK comes back to the page it left.
    await page.getByRole('button', { name: 'Switch workspace' }).click();
    await page.waitForURL(`${foyer.urls.ui}/auth/choose-user?**`);
    await page.getByRole('radio', { name: 'Globex' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${exampleUrl}/team`);
    await page.getByText('Globex is on the Team plan, so its reports are here.').waitFor();
    await expectNoAxeViolations(page);

    // The access token lives ACCESS_TOKEN_TTL seconds: the SDK renews it before then, unattended.
    const first = await storedAccessToken(page);
    expect(first).toBeTruthy();
    await expect.poll(() => storedAccessToken(page), { timeout: ACCESS_TOKEN_TTL * 3000, interval: 500 }).not.toBe(first);
    const renewed = (await storedAccessToken(page))!;
    const userinfo = await fetch(`${foyer.urls.auth}/userinfo`, { headers: { authorization: `Bearer ${renewed}` } });
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toMatchObject({ tenant_name: 'Globex', role: 'OWNER' });
    await page.getByText('Globex is on the Team plan, so its reports are here.').waitFor();

    // A second tab shares the session; signing out in the first signs it out too.
    const second = await context.newPage();
    await second.goto(exampleUrl);
    await second.getByRole('heading', { name: 'Hello, Olivia Owner' }).waitFor();
    expect(await details(second)).toMatch(/Workspace\s+Globex\s+Plan\s+TEAM/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${exampleUrl}/`);
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    await second.getByRole('heading', { name: 'Welcome' }).waitFor();
    expect(await storedAccessToken(second)).toBeNull();

    // The Foyer session ended as well: the next sign-in asks for the password again.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${foyer.urls.ui}/auth/login?**`);
    await page.getByLabel('Email').waitFor();
  });

  it('refuses the owner page to a member who is not an owner, at 320 px wide', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${exampleUrl}/owners`);
    await page.getByText('Sign in to open this page.').waitFor();
    await expectNoAxeViolations(page);

    // One workspace only: the hosted picker chooses it, and the example offers no switch.
    await signIn(page, 'admin@acme.demo.foyer.test', undefined, '/owners');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Only workspace owners may open this page.');
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: 'Hello, Adam Admin' }).waitFor();
    expect(await details(page)).toMatch(/Role\s+Admin\s+Workspace\s+Acme/);
    expect(await page.getByRole('button', { name: 'Switch workspace' }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });

  it('shows its own error on a callback that no sign-in of this browser started', async () => {
    const { page } = suite;
    await page.goto(`${exampleUrl}/callback?code=forged&state=unknown`);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Signing in did not complete. Try again.');
    await expectNoAxeViolations(page);
  });
});
