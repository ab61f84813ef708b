// The session endpoints the hosted login screens call: credentials, workspaces, the handover, the
// cookie and CORS rules, and every kind of bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { Browser } from '../oidc/browser.ts';
import { authorizationRequest, callbackUri, logIn, postJson, relyingParty, workspaces } from '../oidc/sign-in.ts';

let foyer: TestFoyer;
let auth: string;

beforeAll(async () => {
  foyer = await startFoyer();
  auth = foyer.urls.auth;
});

afterAll(async () => {
  await foyer?.close();
});

/** A browser that started signing in to the demo app and now shows the hosted login screen. */
async function atLoginScreen(): Promise<Browser> {
  const browser = new Browser();
  const pending = await authorizationRequest(await relyingParty(foyer), callbackUri(foyer));
  const landing = await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
  expect(landing.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
  return browser;
}

async function membershipId(email: string, workspace: string): Promise<string> {
  const [row] = await foyer.db
    .select({ id: tenantUsers.id })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .where(and(eq(users.email, email), eq(tenants.name, workspace)));
  return row!.id;
}

const WRONG_CREDENTIALS = { statusCode: 401, message: 'Wrong credentials', error: 'WRONG_CREDENTIALS' };

describe('credentials', () => {
  it('answers credentialsConfig alike for known, unknown and invited (no password yet) e-mails', async () => {
    const browser = await atLoginScreen();
    const invited = `invited-${Date.now()}@demo.foyer.test`;
    await foyer.db.insert(users).values({ id: crypto.randomUUID(), appId: foyer.demo.appId, email: invited });
    const expected = { hasPassword: true, hasPasskeys: false, federationConnections: [] };
    for (const username of [foyer.demo.users[0]!.email, 'nobody@demo.foyer.test', invited]) {
      expect(await (await postJson(browser, `${auth}/auth/credentialsConfig`, { username })).json()).toEqual(expected);
    }
  });

  it('needs to know the app: a pending authorization or x-app-id', async () => {
    const bare = await fetch(`${auth}/auth/credentialsConfig`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'a@b.test' }),
    });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ statusCode: 400, error: 'APP_REQUIRED' });
    const unknownApp = await fetch(`${auth}/auth/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': 'no-such-app' },
      body: JSON.stringify({ username: 'a@b.test', password: 'x' }),
    });
    expect(unknownApp.status).toBe(404);
    expect(await unknownApp.json()).toEqual({ statusCode: 404, message: 'Unknown app', error: 'UNKNOWN_APP' });
    const named = await fetch(`${auth}/auth/credentialsConfig`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
      body: JSON.stringify({ username: 'a@b.test' }),
    });
    expect(named.status).toBe(200);
  });

  it('answers wrong passwords and unknown users with the same 401, and audits them', async () => {
    const browser = await atLoginScreen();
    const owner = foyer.demo.users[0]!;
    const wrong = await postJson(browser, `${auth}/auth/authenticate`, { username: owner.email, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(WRONG_CREDENTIALS);
    const unknown = await postJson(browser, `${auth}/auth/authenticate`, { username: 'ghost@demo.foyer.test', password: 'whatever' });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual(WRONG_CREDENTIALS);
    const failures = await foyer.db.select().from(auditEvents).where(eq(auditEvents.type, 'login.failure'));
    expect(failures.map((event) => event.detail.username)).toEqual(expect.arrayContaining([owner.email, 'ghost@demo.foyer.test']));
    const tenantList = await browser.request(`${auth}/auth/tenantUsers`);
    expect(tenantList.status).toBe(401);
  });

  it('stops guessing after ten failures for one username and address', async () => {
    const browser = await atLoginScreen();
    const viewer = foyer.demo.users[2]!;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await postJson(browser, `${auth}/auth/authenticate`, { username: viewer.email, password: `guess-${attempt}` });
      expect(response.status).toBe(401);
    }
    // Even the right password is refused now, without revealing that it was right.
    const blocked = await postJson(browser, `${auth}/auth/authenticate`, {
      username: viewer.email.toUpperCase(),
      password: viewer.password,
    });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toMatchObject({ statusCode: 429, error: 'TOO_MANY_REQUESTS' });
    expect(blocked.headers.get('retry-after')).toBe('60');
    // Another username from the same address is not affected.
    const admin = foyer.demo.users[1]!;
    expect((await logIn(foyer, browser, admin.email, admin.password)).session).toBe(true);
  });

  it('refuses bad input with 400, 413 and 415', async () => {
    const url = `${auth}/auth/authenticate`;
    const send = (body: string, type = 'application/json') =>
      fetch(url, { method: 'POST', headers: { 'content-type': type, 'x-app-id': foyer.demo.appId }, body });
    const missing = await send(JSON.stringify({ username: 'a@b.test' }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ statusCode: 400, message: "body must have required property 'password'", error: 'BAD_REQUEST' });
    const wrongType = await send(JSON.stringify({ username: { nested: true }, password: 'x' }));
    expect(wrongType.status).toBe(400);
    const empty = await send(JSON.stringify({ username: '', password: 'x' }));
    expect(empty.status).toBe(400);
    const broken = await send('{"username":');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
    const form = await send('username=a&password=b', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ statusCode: 415, error: 'UNSUPPORTED_MEDIA_TYPE' });
    const huge = await send(JSON.stringify({ username: 'a@b.test', password: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ statusCode: 413, error: 'PAYLOAD_TOO_LARGE' });
    const long = await send(JSON.stringify({ username: 'a@b.test', password: 'x'.repeat(5000) }));
    expect(long.status).toBe(400);
  });
});

describe('the login session', () => {
  it('is an httpOnly, SameSite=Lax cookie for the whole auth origin, renewed at sign-in', async () => {
    const browser = await atLoginScreen();
    const before = browser.cookie(auth, 'foyer_login');
    expect(before).toBeDefined();
    const owner = foyer.demo.users[0]!;
    const response = await postJson(browser, `${auth}/auth/authenticate`, { username: owner.email, password: owner.password });
    const setCookie = response.headers.getSetCookie().find((line) => line.startsWith('foyer_login='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/i);
    expect(browser.cookie(auth, 'foyer_login')).not.toBe(before);
    expect(await response.json()).toEqual({ session: true, expiresIn: 86400, mfaState: 'DISABLED' });

    // A GET, which any site can make a browser send with its cookie, signs nobody out.
    const viaGet = await browser.request(`${auth}/auth/logout`);
    expect(viaGet.status).toBe(404);
    expect((await browser.request(`${auth}/auth/tenantUsers`)).status).toBe(200);
    const logout = await browser.request(`${auth}/auth/logout`, { method: 'POST' });
    expect(logout.status).toBe(204);
    expect((await browser.request(`${auth}/auth/tenantUsers`)).status).toBe(401);
  });

  it('lists enabled workspaces by name and names the only one at sign-in', async () => {
    const browser = await atLoginScreen();
    const owner = foyer.demo.users[0]!;
    await logIn(foyer, browser, owner.email, owner.password);
    const list = await workspaces(foyer, browser);
    expect(list.map((entry) => entry.tenant.name)).toEqual(['Acme', 'Globex']);
    expect(list[0]).toMatchObject({ role: 'OWNER', email: owner.email, username: owner.email, fullName: 'Olivia Owner', onboarded: true });

    const acme = await membershipId(owner.email, 'Acme');
    await foyer.db.update(tenantUsers).set({ enabled: false }).where(eq(tenantUsers.id, acme));
    try {
      expect((await workspaces(foyer, browser)).map((entry) => entry.tenant.name)).toEqual(['Globex']);
      const again = await atLoginScreen();
      const answer = await logIn(foyer, again, owner.email, owner.password);
      expect(answer.tenantUserId).toBe(await membershipId(owner.email, 'Globex'));
    } finally {
      await foyer.db.update(tenantUsers).set({ enabled: true }).where(eq(tenantUsers.id, acme));
    }
  });
});

describe('choosing a workspace', () => {
  it('refuses memberships that are not the signed-in user’s own and enabled', async () => {
    const browser = await atLoginScreen();
    const admin = foyer.demo.users[1]!;
    await logIn(foyer, browser, admin.email, admin.password);
    const ownersGlobex = await membershipId(foyer.demo.users[0]!.email, 'Globex');
    const own = await membershipId(admin.email, 'Acme');

    const answers: unknown[] = [];
    for (const id of [ownersGlobex, 'no-such-membership']) {
      const response = await browser.request(`${auth}/auth/chooseTenantUser/${id}`);
      expect(response.status).toBe(403);
      expect(response.headers.get('location')).toBeNull();
      answers.push(await response.json());
    }
    await foyer.db.update(tenantUsers).set({ enabled: false }).where(eq(tenantUsers.id, own));
    try {
      const disabled = await browser.request(`${auth}/auth/chooseTenantUser/${own}`);
      expect(disabled.status).toBe(403);
      answers.push(await disabled.json());
    } finally {
      await foyer.db.update(tenantUsers).set({ enabled: true }).where(eq(tenantUsers.id, own));
    }
    // One answer for all three: nothing tells them apart.
    for (const answer of answers) {
      expect(answer).toEqual({ statusCode: 403, message: 'This workspace is not available', error: 'FORBIDDEN' });
    }

    // The pending authorization is still there for the rightful choice.
    const landing = await browser.navigate(`${auth}/auth/chooseTenantUser/${own}`, (url) => url.origin === foyer.urls.ui);
    expect(landing.url.startsWith(`${callbackUri(foyer)}?code=`)).toBe(true);
  });

  it('needs a signed-in session, and sends a session without a pending authorization to the app’s start', async () => {
    const anonymous = await fetch(`${auth}/auth/chooseTenantUser/anything`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ statusCode: 401, error: 'UNAUTHENTICATED' });

    const browser = new Browser();
    const admin = foyer.demo.users[1]!;
    const answer = await browser.request(`${auth}/auth/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
      body: JSON.stringify({ username: admin.email, password: admin.password }),
    });
    expect(answer.status).toBe(200);
    const { tenantUserId } = (await answer.json()) as { tenantUserId: string };
    const response = await browser.request(`${auth}/auth/chooseTenantUser/${tenantUserId}`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${foyer.urls.ui}/?appId=${foyer.demo.appId}`);
  });

  it('keeps a sign-in that still needs two-factor setup away from the workspaces', async () => {
    await foyer.db.update(tenants).set({ mfa: true }).where(eq(tenants.name, 'Acme'));
    try {
      const browser = await atLoginScreen();
      const admin = foyer.demo.users[1]!;
      const answer = await logIn(foyer, browser, admin.email, admin.password);
      expect(answer.mfaState).toBe('SETUP');
      expect((await browser.request(`${auth}/auth/tenantUsers`)).status).toBe(401);
      const chosen = await browser.request(`${auth}/auth/chooseTenantUser/${answer.tenantUserId}`);
      expect(chosen.status).toBe(401);
    } finally {
      await foyer.db.update(tenants).set({ mfa: false }).where(eq(tenants.name, 'Acme'));
    }
  });
});

describe('CORS', () => {
  it('lets only the hosted UI call the session endpoints with credentials', async () => {
    const preflight = (origin: string) =>
      fetch(`${auth}/auth/authenticate`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const fromUi = await preflight(foyer.urls.ui);
    expect(fromUi.status).toBe(204);
    expect(fromUi.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    expect(fromUi.headers.get('access-control-allow-credentials')).toBe('true');
    const fromElsewhere = await preflight('https://evil.example');
    expect(fromElsewhere.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    expect(fromElsewhere.headers.get('access-control-allow-origin')).not.toBe('*');
  });

  it('leaves oidc-provider’s own CORS on /token and the key set', async () => {
    const jwks = await fetch(`${auth}/.well-known/jwks.json`, { headers: { origin: foyer.urls.ui } });
    expect(jwks.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    const keys = (await jwks.json()) as { keys: { kty: string; alg: string; n: string; d?: string }[] };
    expect(keys.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256' });
    expect(Buffer.from(keys.keys[0]!.n, 'base64url').length * 8).toBe(2048);
    expect(keys.keys[0]!.d).toBeUndefined();

    const preflight = await fetch(`${auth}/token`, {
      method: 'OPTIONS',
      headers: { origin: foyer.urls.ui, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    const token = await fetch(`${auth}/token`, {
      method: 'POST',
      headers: { origin: foyer.urls.ui, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: 'nope' }).toString(),
    });
    expect(token.status).toBe(400);
    expect(token.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    expect(await token.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
