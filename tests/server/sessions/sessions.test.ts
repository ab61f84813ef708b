// The profile's sessions list (server/auth/sessions): every browser a person signed in with, with its
// device, and signing out of one, of all others or everywhere, which revokes the grants for real.
// Hostile: nobody reaches another person's or another app's sessions, whatever id they send.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { hashPassword } from '../../../server/auth/passwords.ts';
import { hashId, LOGIN_SESSION_COOKIE } from '../../../server/auth/login-session.ts';
import { auditEvents, loginSessions, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { authorizationRequest, callbackUri, choose, logIn, relyingParty, workspaces } from '../oidc/sign-in.ts';
import { Browser } from '../oidc/browser.ts';
import { createMember, type Member } from '../password/helpers.ts';
import { insertApp } from '../support/apps.ts';
import { bearer, postGraphQL } from '../support/graphql.ts';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** A browser that names itself with a User-Agent on every request. */
class DeviceBrowser extends Browser {
  constructor(private readonly userAgent: string) {
    super();
  }
  override request(input: string, init: RequestInit & { origin?: string } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('user-agent', this.userAgent);
    return super.request(input, { ...init, headers });
  }
}

interface SignedIn {
  browser: DeviceBrowser;
  accessToken: string;
  refreshToken: string;
}

let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer();
});
afterAll(() => foyer?.close());

async function signInWith(member: Member, userAgent: string, workspace = 'Acme', appId = foyer.demo.appId): Promise<SignedIn> {
  const browser = new DeviceBrowser(userAgent);
  const rp = await relyingParty(foyer, appId);
  const pending = await authorizationRequest(rp, callbackUri(foyer));
  const toLogin = await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
  expect(toLogin.url).toBe(`${foyer.urls.ui}/auth/login?appId=${appId}`);
  await logIn(foyer, browser, member.email, member.password!);
  const chosen = (await workspaces(foyer, browser)).find((entry) => entry.tenant.name === workspace);
  const callback = new URL(await choose(foyer, browser, chosen!.id, callbackUri(foyer)));
  const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
  return { browser, accessToken: tokens.access_token, refreshToken: tokens.refresh_token! };
}

function sessionsCall(accessToken: string | undefined, method: 'GET' | 'POST' | 'DELETE', path = '') {
  return fetch(`${foyer.urls.auth}/auth/sessions${path}`, {
    method,
    headers: { accept: 'application/json', ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
  });
}

interface Listed {
  id: string;
  browser: string | null;
  os: string | null;
  ip: string | null;
  workspace: string;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
}

async function list(accessToken: string): Promise<Listed[]> {
  const response = await sessionsCall(accessToken, 'GET');
  expect(response.status).toBe(200);
  return (await response.json()) as Listed[];
}

async function refreshes(refreshToken: string, appId = foyer.demo.appId): Promise<boolean> {
  const rp = await relyingParty(foyer, appId);
  try {
    await client.refreshTokenGrant(rp, refreshToken);
    return true;
  } catch (error) {
    expect(error).toMatchObject({ error: 'invalid_grant' });
    return false;
  }
}

async function loginSessionLives(browser: Browser): Promise<boolean> {
  const cookie = browser.cookie(foyer.urls.auth, LOGIN_SESSION_COOKIE);
  if (!cookie) return false;
  const rows = await foyer.db
    .select()
    .from(loginSessions)
    .where(eq(loginSessions.idHash, hashId(cookie)));
  return rows.length > 0;
}

describe('the sessions list', () => {
  it('lists every browser the person signed in with, across their workspaces, with its device and this one marked', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme', 'Globex'] });
    const firefox = await signInWith(member, FIREFOX_WINDOWS);
    const chrome = await signInWith(member, CHROME_MAC, 'Globex');
    const bystander = await createMember(foyer);
    await signInWith(bystander, SAFARI_IPHONE);

    const fromFirefox = await list(firefox.accessToken);
    expect(fromFirefox).toHaveLength(2);
    const [newest, older] = fromFirefox;
    expect(newest).toMatchObject({ browser: 'Chrome', os: 'macOS', workspace: 'Globex', current: false, ip: '127.0.0.1' });
    expect(older).toMatchObject({ browser: 'Firefox', os: 'Windows', workspace: 'Acme', current: true });
    expect(Date.parse(older!.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(older!.signedInAt));
    expect((await list(chrome.accessToken)).map((entry) => entry.current)).toEqual([true, false]);

    // A refresh keeps the session (and this device) and moves its last activity.
    const rp = await relyingParty(foyer);
    const refreshed = await client.refreshTokenGrant(rp, firefox.refreshToken);
    const afterRefresh = await list(refreshed.access_token);
    expect(afterRefresh).toHaveLength(2);
    expect(afterRefresh[0]).toMatchObject({ browser: 'Firefox', current: true });
  });

  it('signing out of one session revokes its refresh token and its login session; the others keep working', async () => {
    const member = await createMember(foyer);
    const firefox = await signInWith(member, FIREFOX_WINDOWS);
    const chrome = await signInWith(member, CHROME_MAC);
    const target = (await list(firefox.accessToken)).find((entry) => !entry.current)!;
    expect(await loginSessionLives(chrome.browser)).toBe(true);

    expect((await sessionsCall(firefox.accessToken, 'DELETE', `/${target.id}`)).status).toBe(204);
    expect(await refreshes(chrome.refreshToken)).toBe(false);
    // The browser cannot pick a workspace again without its credentials.
    expect(await loginSessionLives(chrome.browser)).toBe(false);
    expect(await refreshes(firefox.refreshToken)).toBe(true);
    expect((await list(firefox.accessToken)).map((entry) => entry.browser)).toEqual(['Firefox']);

    const again = await sessionsCall(firefox.accessToken, 'DELETE', `/${target.id}`);
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ statusCode: 404, error: 'SESSION_NOT_FOUND' });
  });

  it('"sign out of all other sessions" keeps only this one; "sign out everywhere" ends this one too', async () => {
    const member = await createMember(foyer);
    const firefox = await signInWith(member, FIREFOX_WINDOWS);
    const chrome = await signInWith(member, CHROME_MAC);
    const safari = await signInWith(member, SAFARI_IPHONE);

    const others = await sessionsCall(firefox.accessToken, 'POST', '/revoke-others');
    expect(others.status).toBe(200);
    expect(await others.json()).toEqual({ revoked: 2 });
    expect(await refreshes(chrome.refreshToken)).toBe(false);
    expect(await refreshes(safari.refreshToken)).toBe(false);
    const rp = await relyingParty(foyer);
    const kept = await client.refreshTokenGrant(rp, firefox.refreshToken);
    expect((await list(kept.access_token)).map((entry) => entry.current)).toEqual([true]);

    const second = await signInWith(member, CHROME_MAC);
    const everywhere = await sessionsCall(kept.access_token, 'POST', '/revoke-all');
    expect(everywhere.status).toBe(204);
    expect(await refreshes(kept.refresh_token!)).toBe(false);
    expect(await refreshes(second.refreshToken)).toBe(false);
    expect(await loginSessionLives(firefox.browser)).toBe(false);
    expect(await loginSessionLives(second.browser)).toBe(false);

    const types = (await foyer.db.select().from(auditEvents).where(eq(auditEvents.userId, member.userId))).map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['session.others_revoked', 'session.all_revoked']));
  });

  it('records the device on audit events and answers it in the profile activity', async () => {
    const member = await createMember(foyer);
    const firefox = await signInWith(member, FIREFOX_WINDOWS);
    const answer = await postGraphQL(foyer.urls.api, { query: '{ myActivity { type browser os } }' }, bearer(firefox.accessToken));
    expect(answer.body).toMatchObject({ data: { myActivity: [{ type: 'login.success', browser: 'Firefox', os: 'Windows' }] } });
  });
});

describe('hostile requests', () => {
  it("another person's session id answers 404 and leaves that session alone, whoever asks (a VIEWER included)", async () => {
    const viewer = await createMember(foyer); // createMember makes VIEWERs
    const mine = await signInWith(viewer, FIREFOX_WINDOWS);
    const victim = await createMember(foyer);
    const theirs = await signInWith(victim, CHROME_MAC);
    const [target] = await list(theirs.accessToken);

    const denied = await sessionsCall(mine.accessToken, 'DELETE', `/${target!.id}`);
    expect(denied.status).toBe(404);
    expect(await denied.json()).toMatchObject({ statusCode: 404, error: 'SESSION_NOT_FOUND' });
    expect((await list(mine.accessToken)).map((entry) => entry.id)).not.toContain(target!.id);
    expect(await (await sessionsCall(mine.accessToken, 'POST', '/revoke-others')).json()).toEqual({ revoked: 0 });
    expect(await refreshes(theirs.refreshToken)).toBe(true);
  });

  it("another app's session answers 404, even for the same e-mail", async () => {
    const otherApp = await insertApp(foyer, { settings: {} });
    const [tenant] = await foyer.db.insert(tenants).values({ id: randomUUID(), appId: otherApp, name: 'Acme' }).returning();
    const member = await createMember(foyer);
    const twinId = randomUUID();
    await foyer.db
      .insert(users)
      .values({ id: twinId, appId: otherApp, email: member.email, passwordHash: await hashPassword(member.password!), onboarded: true });
    await foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId: tenant!.id, userId: twinId, role: 'OWNER' });
    const there = await signInWith({ ...member, userId: twinId }, CHROME_MAC, 'Acme', otherApp);
    const here = await signInWith(member, FIREFOX_WINDOWS);
    const [foreign] = await list(there.accessToken);

    expect((await list(here.accessToken)).map((entry) => entry.id)).not.toContain(foreign!.id);
    expect((await sessionsCall(here.accessToken, 'DELETE', `/${foreign!.id}`)).status).toBe(404);
    expect(await (await sessionsCall(here.accessToken, 'POST', '/revoke-others')).json()).toEqual({ revoked: 0 });
    expect(await refreshes(there.refreshToken, otherApp)).toBe(true);
  });

  it('two revokes of one session at once: one ends it, the other finds nothing', async () => {
    const member = await createMember(foyer);
    const firefox = await signInWith(member, FIREFOX_WINDOWS);
    await signInWith(member, CHROME_MAC);
    const target = (await list(firefox.accessToken)).find((entry) => !entry.current)!;
    const statuses = await Promise.all(
      [1, 2, 3].map(() => sessionsCall(firefox.accessToken, 'DELETE', `/${target.id}`).then((r) => r.status)),
    );
    expect(statuses.sort()).toEqual([204, 404, 404]);
  });

  it('refuses calls without a valid token and malformed ids', async () => {
    const missing = await sessionsCall(undefined, 'GET');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ statusCode: 401, error: 'UNAUTHENTICATED' });
    expect((await sessionsCall('not-a-token', 'POST', '/revoke-all')).status).toBe(401);
    const member = await createMember(foyer);
    const firefox = await signInWith(member, FIREFOX_WINDOWS);
    const malformed = await sessionsCall(firefox.accessToken, 'DELETE', '/..%2F..%2Fx');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ statusCode: 400 });
  });
});
