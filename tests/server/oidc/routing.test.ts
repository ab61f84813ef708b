// Sign-in routing on the auth service: a workspace chosen where no authorization request is waiting
// (a login opened directly, a switch while signed in) is kept for the app's next request, which then
// finishes without asking again; hostile and stale choices are refused; failed page loads land on the
// hosted error page instead of raw JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { request as httpRequest } from 'node:http';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { loginSessions } from '../../../server/db/schema.ts';
import { CONSOLE_APP_ID } from '../../../server/apps/console.ts';
import { Browser } from './browser.ts';
import { authorizationRequest, callbackUri, choose, relyingParty, signIn, verifier, workspaces } from './sign-in.ts';

let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer();
});

afterAll(async () => {
  await foyer?.close();
});

const owner = () => foyer.demo.users[0]!;
const admin = () => foyer.demo.users[1]!;
/**
 * What a browser sends when a person opens an address. Sent with node:http: fetch marks every request
 * as its own (sec-fetch-mode: cors), as a page's script would.
 */
function pageLoad(url: string): Promise<{ status: number; location?: string; type?: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { headers: { accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate' } },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode!, location: response.headers.location, type: response.headers['content-type'] });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** The login screens opened without an authorization request: they name the app in x-app-id. */
async function directLogIn(browser: Browser, email: string, password: string, appId = foyer.demo.appId) {
  const response = await browser.request(`${foyer.urls.auth}/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': appId },
    body: JSON.stringify({ username: email, password }),
    origin: foyer.urls.ui,
  });
  expect(response.status).toBe(200);
}

async function workspaceId(browser: Browser, name: string): Promise<string> {
  const found = (await workspaces(foyer, browser)).find((workspace) => workspace.tenant.name === name);
  return found!.id;
}

/** Chooses a workspace with no authorization request waiting; answers where the browser is sent. */
async function chooseDirectly(browser: Browser, tenantUserId: string): Promise<Response> {
  return browser.request(`${foyer.urls.auth}/auth/chooseTenantUser/${tenantUserId}`);
}

/** The app's next authorization request, followed until it reaches the callback or a hosted screen. */
async function authorize(browser: Browser, extra: Record<string, string> = {}, appId = foyer.demo.appId) {
  const rp = await relyingParty(foyer, appId);
  const redirectUri = appId === CONSOLE_APP_ID ? `${foyer.urls.ui}/configurator/callback` : callbackUri(foyer);
  const pending = await authorizationRequest(rp, redirectUri, extra);
  const landing = await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
  return { rp, pending, url: new URL(landing.url) };
}

async function tokensAt(rp: client.Configuration, url: URL, pending: { verifier: string; state: string }) {
  return client.authorizationCodeGrant(rp, url, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
}

describe('a workspace chosen with no authorization request waiting', () => {
  it("is sent to the app's sign-in start, whose next authorization request finishes with it", async () => {
    const browser = new Browser();
    await directLogIn(browser, owner().email, owner().password);
    const globex = await workspaceId(browser, 'Globex');

    const chosen = await chooseDirectly(browser, globex);
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get('location')).toBe(`${foyer.urls.ui}/?appId=${foyer.demo.appId}`);

    const { rp, pending, url } = await authorize(browser);
    expect(url.pathname).toBe('/auth/oauth-callback');
    const tokens = await tokensAt(rp, url, pending);
    expect((await verifier(foyer)(tokens.access_token)).sub).toBe(globex);
  });

  it('is not used when the app demands the credentials again (prompt=login)', async () => {
    const browser = new Browser();
    await directLogIn(browser, owner().email, owner().password);
    await chooseDirectly(browser, await workspaceId(browser, 'Globex'));
    const { url } = await authorize(browser, { prompt: 'login' });
    expect(`${url.pathname}${url.search}`).toBe(`/auth/login?appId=${foyer.demo.appId}`);
  });

  it('is not used after ten minutes: the picker asks again', async () => {
    const browser = new Browser();
    await directLogIn(browser, owner().email, owner().password);
    await chooseDirectly(browser, await workspaceId(browser, 'Globex'));
    await foyer.db.update(loginSessions).set({ chosenAt: new Date(Date.now() - 11 * 60 * 1000) });
    const { url } = await authorize(browser);
    expect(`${url.pathname}${url.search}`).toBe(`/auth/choose-user?appId=${foyer.demo.appId}`);
  });

  it("does not carry over to another app's authorization request", async () => {
    const browser = new Browser();
    await directLogIn(browser, owner().email, owner().password);
    await chooseDirectly(browser, await workspaceId(browser, 'Globex'));
    const { url } = await authorize(browser, {}, CONSOLE_APP_ID);
    expect(`${url.pathname}${url.search}`).toBe(`/auth/login?appId=${CONSOLE_APP_ID}`);
  });

  it("of the console app goes to the configurator's sign-in start", async () => {
    const browser = new Browser();
    await directLogIn(browser, owner().email, owner().password, CONSOLE_APP_ID);
    const [workspace] = await workspaces(foyer, browser);
    const chosen = await chooseDirectly(browser, workspace!.id);
    expect(chosen.headers.get('location')).toBe(`${foyer.urls.ui}/configurator/sign-in`);
    const { url } = await authorize(browser, {}, CONSOLE_APP_ID);
    expect(url.pathname).toBe('/configurator/callback');
    expect(url.searchParams.get('code')).toBeTruthy();
  });

  it("is refused for someone else's workspace, and without a sign-in", async () => {
    const browser = new Browser();
    await directLogIn(browser, owner().email, owner().password);
    const other = new Browser();
    await directLogIn(other, admin().email, admin().password);
    const adminsAcme = await workspaceId(other, 'Acme');

    const hostile = await chooseDirectly(browser, adminsAcme);
    expect(hostile.status).toBe(403);
    expect(await hostile.json()).toMatchObject({ statusCode: 403, error: 'FORBIDDEN' });
    const signedOut = await new Browser().request(`${foyer.urls.auth}/auth/chooseTenantUser/${adminsAcme}`);
    expect(signedOut.status).toBe(401);
    // Nothing was kept: the next authorization request still asks.
    const { url } = await authorize(browser);
    expect(url.pathname).toBe('/auth/choose-user');
  });
});

describe('switching workspace while signed in', () => {
  it("ends the single sign-on session, revokes the old workspace's tokens and signs in to the new one", async () => {
    const first = await authorizationRequest(await relyingParty(foyer), callbackUri(foyer));
    const { browser, callback } = await signIn(foyer, {
      authorizeUrl: first.url,
      redirectUri: callbackUri(foyer),
      email: owner().email,
      password: owner().password,
      workspace: 'Globex',
    });
    const globexTokens = await tokensAt(await relyingParty(foyer), callback, first);

    const acme = await workspaceId(browser, 'Acme');
    const chosen = await chooseDirectly(browser, acme);
    expect(chosen.status).toBe(303);

    const rp = await relyingParty(foyer);
    await expect(client.refreshTokenGrant(rp, globexTokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const { pending, url } = await authorize(browser);
    const acmeTokens = await tokensAt(rp, url, pending);
    expect((await verifier(foyer)(acmeTokens.access_token)).sub).toBe(acme);
  });
});

describe('an app asking which workspace to continue in (prompt=select_account)', () => {
  it('shows the signed-in person the picker, and the code it issues is for the workspace picked', async () => {
    const first = await authorizationRequest(await relyingParty(foyer), callbackUri(foyer));
    const { browser, callback: globexCallback } = await signIn(foyer, {
      authorizeUrl: first.url,
      redirectUri: callbackUri(foyer),
      email: owner().email,
      password: owner().password,
      workspace: 'Globex',
    });
    const globexTokens = await tokensAt(await relyingParty(foyer), globexCallback, first);
    // Without the prompt, single sign-on answers for Globex again at once.
    const again = await authorize(browser);
    expect(again.url.pathname).toBe('/auth/oauth-callback');

    const { rp, pending, url } = await authorize(browser, { prompt: 'select_account' });
    expect(`${url.pathname}${url.search}`).toBe(`/auth/choose-user?appId=${foyer.demo.appId}&autoSelect=false`);
    const acme = await workspaceId(browser, 'Acme');
    const callback = await choose(foyer, browser, acme, callbackUri(foyer));
    const tokens = await tokensAt(rp, new URL(callback), pending);
    expect((await verifier(foyer)(tokens.access_token)).sub).toBe(acme);
    expect(tokens.claims()?.tenant_name).toBe('Acme');
    // The workspace left keeps no working refresh token.
    await expect(client.refreshTokenGrant(rp, globexTokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('picking the workspace signed in to already issues its code', async () => {
    const first = await authorizationRequest(await relyingParty(foyer), callbackUri(foyer));
    const { browser, tenantUserId } = await signIn(foyer, {
      authorizeUrl: first.url,
      redirectUri: callbackUri(foyer),
      email: owner().email,
      password: owner().password,
      workspace: 'Acme',
    });
    const { rp, pending, url } = await authorize(browser, { prompt: 'select_account' });
    expect(url.pathname).toBe('/auth/choose-user');
    const callback = await choose(foyer, browser, tenantUserId, callbackUri(foyer));
    const tokens = await tokensAt(rp, new URL(callback), pending);
    expect((await verifier(foyer)(tokens.access_token)).sub).toBe(tenantUserId);
  });

  it("refuses another person's workspace on the picker", async () => {
    const first = await authorizationRequest(await relyingParty(foyer), callbackUri(foyer));
    const { browser } = await signIn(foyer, {
      authorizeUrl: first.url,
      redirectUri: callbackUri(foyer),
      email: owner().email,
      password: owner().password,
      workspace: 'Acme',
    });
    const other = new Browser();
    await directLogIn(other, admin().email, admin().password);
    const adminsAcme = await workspaceId(other, 'Acme');
    await authorize(browser, { prompt: 'select_account' });
    const hostile = await browser.request(`${foyer.urls.auth}/auth/chooseTenantUser/${adminsAcme}`);
    expect(hostile.status).toBe(403);
  });

  it('asks a browser signed in to nobody for the credentials first', async () => {
    const { url } = await authorize(new Browser(), { prompt: 'select_account' });
    expect(`${url.pathname}${url.search}`).toBe(`/auth/login?appId=${foyer.demo.appId}`);
  });
});

describe('continue and restart', () => {
  it('continue goes back into the pending authorization request, else to the sign-in start', async () => {
    const browser = new Browser();
    const { url } = await authorize(browser);
    expect(url.pathname).toBe('/auth/login');
    const back = await browser.request(`${foyer.urls.auth}/auth/continue`);
    expect(back.headers.get('location')).toMatch(/^\/interaction\/[\w-]+$/);

    const fresh = await new Browser().request(`${foyer.urls.auth}/auth/continue?appId=${CONSOLE_APP_ID}`);
    expect(fresh.headers.get('location')).toBe(`${foyer.urls.ui}/configurator/sign-in`);
    const unnamed = await new Browser().request(`${foyer.urls.auth}/auth/continue`);
    expect(unnamed.status).toBe(400);
    expect(await unnamed.json()).toMatchObject({ error: 'APP_REQUIRED' });
  });

  it('restart forgets who signed in and keeps the authorization request', async () => {
    const browser = new Browser();
    const { pending } = await authorize(browser);
    await directLogIn(browser, owner().email, owner().password);
    const restarted = await browser.request(`${foyer.urls.auth}/auth/restart`, { method: 'POST', origin: foyer.urls.ui });
    expect(restarted.status).toBe(204);
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui })).status).toBe(401);

    await directLogIn(browser, admin().email, admin().password);
    const landing = await browser.navigate(
      `${foyer.urls.auth}/auth/chooseTenantUser/${await workspaceId(browser, 'Acme')}`,
      (url) => url.origin === foyer.urls.ui,
    );
    const callback = new URL(landing.url);
    expect(callback.pathname).toBe('/auth/oauth-callback');
    expect(callback.searchParams.get('state')).toBe(pending.state);
  });
});

describe('failed page loads', () => {
  it('land on the hosted error page on the auth service; scripts still get JSON', async () => {
    const unknown = await pageLoad(`${foyer.urls.auth}/no/such/page`);
    expect(unknown.status).toBe(303);
    expect(unknown.location).toBe(`${foyer.urls.ui}/auth/error?error=NOT_FOUND`);
    const byScript = await fetch(`${foyer.urls.auth}/no/such/page`);
    expect(byScript.status).toBe(404);
    expect(await byScript.json()).toEqual({ statusCode: 404, message: 'Not found', error: 'NOT_FOUND' });

    const badRedirect = `${foyer.urls.auth}/url/login/${foyer.demo.appId}?redirectUri=${encodeURIComponent('https://attacker.example/cb')}`;
    const refused = await pageLoad(badRedirect);
    expect(refused.location).toBe(`${foyer.urls.ui}/auth/error?error=INVALID_REDIRECT_URI`);

    const provider = await pageLoad(`${foyer.urls.auth}/authorize?client_id=no-such-app&response_type=code`);
    expect(provider.status).toBe(302);
    const providerByScript = await fetch(`${foyer.urls.auth}/authorize?client_id=no-such-app&response_type=code`, { redirect: 'manual' });
    expect(providerByScript.status).toBe(400);
    expect(await providerByScript.json()).toMatchObject({ statusCode: 400, error: 'invalid_client' });
    expect(provider.location).toMatch(new RegExp(`^${foyer.urls.ui}/auth/error\\?error=invalid_`));

    // Under the provider's own paths too.
    const unknownProviderPath = await pageLoad(`${foyer.urls.auth}/.well-known/nope`);
    expect(unknownProviderPath.location).toBe(`${foyer.urls.ui}/auth/error?error=NOT_FOUND`);

    const malformed = await pageLoad(`${foyer.urls.auth}/%`);
    expect(malformed.location).toBe(`${foyer.urls.ui}/auth/error?error=BAD_REQUEST`);
    const malformedByScript = await fetch(`${foyer.urls.auth}/%`);
    expect(malformedByScript.status).toBe(400);
    expect(await malformedByScript.json()).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
  });

  it('on the hosted UI, any address a person opens is a screen; a missing file a script asks for stays a 404', async () => {
    for (const path of ['/auth/help.html', '/auth/set-password/abc.def']) {
      const page = await pageLoad(`${foyer.urls.ui}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.type, path).toContain('text/html');
    }
    const missing = await fetch(`${foyer.urls.ui}/assets/missing.js`);
    expect(missing.status).toBe(404);
    const malformed = await pageLoad(`${foyer.urls.ui}/auth/%E0%A4%A`);
    expect(malformed.location).toBe(`${foyer.urls.ui}/auth/error?error=BAD_REQUEST`);
  });
});
