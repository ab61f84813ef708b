// A single-page app built on oidc-client-ts (its browser bundle, set up as its README says) signs in
// with Foyer in Chromium: code flow with PKCE through the hosted screens, silent renew by refresh
// token (which sends the returned scope back), revocation, and the standard sign-out, after which the
// next sign-in asks for the password again. The hosted sign-out screen passes axe at 320 px.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apps } from '../server/db/schema.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

const owner = () => suite.foyer.demo.users[0]!;
let spa: Server;
let spaUrl = '';

const suite = browserSuite(async (foyer) => {
  // The package's own browser build (its exports name only the module builds).
  const bundle = await readFile(
    fileURLToPath(new URL('../node_modules/oidc-client-ts/dist/browser/oidc-client-ts.min.js', import.meta.url)),
    'utf8',
  );
  spa = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://spa').pathname;
    if (path === '/oidc-client-ts.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    if (path === '/app.js')
      return response.writeHead(200, { 'content-type': 'text/javascript' }).end(appScript(foyer.urls.auth, foyer.demo.appId));
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<!doctype html><html lang="en"><head><title>SPA</title><script src="/oidc-client-ts.js"></script><script src="/app.js"></script></head>' +
          '<body><main><h1>SPA</h1><p id="out">idle</p></main></body></html>',
      );
  });
  await new Promise<void>((resolve) => spa.listen(0, '127.0.0.1', resolve));
  spaUrl = `http://127.0.0.1:${(spa.address() as AddressInfo).port}`;
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({
      redirectUris: [...app!.redirectUris, `${spaUrl}/callback`],
      postLogoutRedirectUris: [...app!.postLogoutRedirectUris, `${spaUrl}/signed-out`],
    })
    .where(eq(apps.id, foyer.demo.appId));
});

afterAll(() => new Promise<void>((resolve) => (spa ? spa.close(() => resolve()) : resolve())));

/** The app's own code: a UserManager from the library's README, and the callback handling. */
function appScript(authority: string, clientId: string): string {
  return `
    const origin = location.origin;
    window.manager = new oidc.UserManager({
      authority: ${JSON.stringify(authority)},
      client_id: ${JSON.stringify(clientId)},
      redirect_uri: origin + '/callback',
      post_logout_redirect_uri: origin + '/signed-out',
      response_type: 'code',
      scope: 'openid profile email',
      userStore: new oidc.WebStorageStateStore({ store: window.localStorage }),
    });
    addEventListener('DOMContentLoaded', () => {
      const out = document.getElementById('out');
      if (location.pathname === '/callback') {
        manager.signinRedirectCallback().then(
          (user) => { out.textContent = 'signed in as ' + user.profile.email + ' in ' + user.profile.tenant_name; },
          (error) => { out.textContent = 'error ' + error.message; },
        );
      }
    });
  `;
}

/** Starts one of the library's redirects; the page leaves, so nothing is awaited in it. */
async function startRedirect(method: 'signinRedirect' | 'signoutRedirect') {
  await suite.page.evaluate((name) => {
    void (window as unknown as { manager: Record<string, () => Promise<void>> }).manager[name]!();
  }, method);
}

async function signInOnHostedScreens() {
  const { page, foyer } = suite;
  await page.waitForURL(`${foyer.urls.ui}/auth/login`);
  await page.getByLabel('Email').fill(owner().email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill(owner().password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('radio', { name: 'Acme' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${spaUrl}/callback?**`);
  await expect.poll(() => page.locator('#out').textContent()).toBe(`signed in as ${owner().email} in Acme`);
}

/** Whether a refresh token still refreshes, asked the way any client would. */
async function refreshes(refreshToken: string): Promise<boolean> {
  const answer = await fetch(`${suite.foyer.urls.auth}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: suite.foyer.demo.appId, refresh_token: refreshToken }).toString(),
  });
  return answer.status === 200;
}

describe('a single-page app on oidc-client-ts', () => {
  it('signs in, renews silently with its refresh token, signs out, and must sign in with the password again', async () => {
    const { page, foyer } = suite;
    await page.goto(spaUrl);
    await startRedirect('signinRedirect');
    await signInOnHostedScreens();

    const renewal = await page.evaluate(async () => {
      const { manager } = window as unknown as {
        manager: {
          getUser(): Promise<{ refresh_token: string; scope: string }>;
          signinSilent(): Promise<{ refresh_token: string; scope: string }>;
        };
      };
      const before = await manager.getUser();
      const after = await manager.signinSilent();
      return { before: before.refresh_token, after: after.refresh_token, scope: after.scope };
    });
    expect(renewal.after).not.toBe(renewal.before);
    expect(renewal.scope).toBe('openid profile email');

    await startRedirect('signoutRedirect');
    await page.waitForURL(`${spaUrl}/signed-out`);
    expect(await refreshes(renewal.after)).toBe(false);

    await page.goto(spaUrl);
    await startRedirect('signinRedirect');
    await page.waitForURL(`${foyer.urls.ui}/auth/login`);
    await page.getByLabel('Email').waitFor();
    await signInOnHostedScreens();
  });

  it('revokes its refresh token', async () => {
    const { page } = suite;
    await page.goto(spaUrl);
    await startRedirect('signinRedirect');
    await signInOnHostedScreens();
    const refreshToken = await page.evaluate(async () => {
      const { manager } = window as unknown as {
        manager: { getUser(): Promise<{ refresh_token: string }>; revokeTokens(types: string[]): Promise<void> };
      };
      const { refresh_token } = await manager.getUser();
      await manager.revokeTokens(['refresh_token']);
      return refresh_token;
    });
    expect(await refreshes(refreshToken)).toBe(false);
  });
});

describe('the hosted sign-out screen', () => {
  it('asks when the app did not prove whom it signs out, passes axe at 320 px, and signs out from the keyboard', async () => {
    const { page, foyer } = suite;
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(spaUrl);
    await startRedirect('signinRedirect');
    await signInOnHostedScreens();

    await page.goto(`${foyer.urls.auth}/session/end?client_id=${foyer.demo.appId}`);
    await page.waitForURL(`${foyer.urls.ui}/auth/sign-out?**`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign out');
    await page.getByText('Do you want to sign out of Demo app on this device?').waitFor();
    expect(await page.title()).toBe('Sign out · Demo app');
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Sign out');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${foyer.urls.ui}/auth/login`);
    await page.getByLabel('Email').waitFor();
  });
});
