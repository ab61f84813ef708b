// The legacy auth client (src/auth/legacy) against a recorded fake API host: storage keys and headers
// as docs/SPEC.md section 7 names them, the sign-in steps, what signs in and out, and the capabilities
// the mode lacks.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, type ClientConfig } from '../../../src/config.ts';
import { AuthError, createAuthClient } from '../../../src/auth/index.ts';
import { browserRuntime, type BrowserRuntime } from '../../../src/auth/runtime.ts';
import { LegacyClient } from '../../../src/auth/legacy/legacy-client.ts';
import type { AuthClient } from '../../../src/auth/types.ts';
import { capabilitiesOf, required } from '../../../src/auth/capabilities.ts';

const apiUrl = 'http://api.foyer.test';
const uiUrl = 'http://ui.foyer.test';
const appId = 'legacy-app';
const TOKEN = 'T'.repeat(43);
const MFA_TOKEN = 'M'.repeat(43);

interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

type Route = (request: Recorded) => { status?: number; body?: unknown };

const currentUser = {
  id: 'tu-1',
  role: 'ADMIN',
  email: 'ada@example.test',
  username: 'ada@example.test',
  fullName: 'Ada Lovelace',
  onboarded: true,
  tenant: { id: 'tenant-1', name: 'Acme', locale: 'en', logo: null },
  privileges: ['AUTHENTICATED', 'USER_READ'],
};

let requests: Recorded[];
let routes: Record<string, Route>;
let redirects: string[];
let client: AuthClient;

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = new URL(String(input));
  const headers = Object.fromEntries(new Headers(init?.headers).entries());
  const request: Recorded = {
    method: init?.method ?? 'GET',
    path: url.pathname,
    headers,
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
  };
  requests.push(request);
  const route = routes[`${request.method} ${request.path}`];
  if (!route)
    return Promise.resolve(new Response(JSON.stringify({ statusCode: 404, error: 'NOT_FOUND', message: 'Not found' }), { status: 404 }));
  const { status = 200, body } = route(request);
  return Promise.resolve(
    body === undefined
      ? new Response(null, { status: status === 200 ? 204 : status })
      : new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

function createClient(overrides: Partial<ClientConfig> = {}): Promise<AuthClient> {
  const runtime: BrowserRuntime = { ...browserRuntime(), fetch: fakeFetch, redirect: (url) => redirects.push(url) };
  return createAuthClient({ ...defaultConfig, appId, apiUrl, uiUrl, authLegacy: true, ...overrides }, runtime);
}

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  requests = [];
  redirects = [];
  routes = {
    'POST /auth-proxy/authenticate': () => ({ body: { token: TOKEN, mfaState: 'DISABLED', tenantUserId: 'tu-1' } }),
    'GET /auth-proxy/authenticated': () => ({ body: { authenticated: true } }),
    'GET /auth/currentUser': () => ({ body: currentUser }),
    'GET /auth-proxy/deauthenticate': () => ({}),
  };
  client = await createClient();
});
afterEach(() => localStorage.clear());

describe('mode choice', () => {
  it('authLegacy makes the legacy client, which lists none of the optional capabilities', async () => {
    expect(client).toBeInstanceOf(LegacyClient);
    expect([...capabilitiesOf(client)]).toEqual([]);
    expect([...capabilitiesOf(await createClient({ authLegacy: false }))]).toEqual(['passkeys', 'magicLink', 'sessions', 'federation']);
  });
});

describe('sign-in', () => {
  it('stores the token under NB_AUTH_TOKEN, sends it as x-auth-token, and leaves the workspace to the picker', async () => {
    const result = await client.signIn.authenticate('ada@example.test', 'secret');
    expect(result).toEqual({ session: true, mfaState: 'DISABLED' });
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/auth-proxy/authenticate',
      headers: { 'x-app-id': appId },
      body: { username: 'ada@example.test', password: 'secret' },
    });
    expect(localStorage.getItem('NB_AUTH_TOKEN')).toBe(TOKEN);
    expect(client.isAuthenticated()).toBe(false);
    expect(client.apiHeaders()).toEqual({ 'x-auth-token': TOKEN, 'x-app-id': appId });
  });

  it('answers no session when the server gives no token', async () => {
    routes['POST /auth-proxy/authenticate'] = () => ({ body: { mfaState: 'DISABLED' } });
    expect(await client.signIn.authenticate('ada@example.test', 'wrong')).toEqual({ session: false, mfaState: 'DISABLED' });
    expect(localStorage.getItem('NB_AUTH_TOKEN')).toBeNull();
  });

  it('choosing a workspace stores NB_TENANT_USER_ID and continues to /onboard with the target address', async () => {
    await client.login('/user-management/users?page=2');
    expect(redirects).toEqual([`${uiUrl}/auth/login`]);
    await client.signIn.authenticate('ada@example.test', 'secret');
    await client.signIn.switchWorkspace('tu-1');
    expect(localStorage.getItem('NB_TENANT_USER_ID')).toBe('tu-1');
    expect(redirects.at(-1)).toBe(`${uiUrl}/onboard?target=${encodeURIComponent('/user-management/users?page=2')}`);
  });

  it('init signs in when the token and workspace user are stored and the server confirms them', async () => {
    localStorage.setItem('NB_AUTH_TOKEN', TOKEN);
    localStorage.setItem('NB_TENANT_USER_ID', 'tu-1');
    await client.init();
    expect(client.isAuthenticated()).toBe(true);
    expect(client.currentUser()).toMatchObject({
      id: 'tu-1',
      role: 'ADMIN',
      fullName: 'Ada Lovelace',
      privileges: ['AUTHENTICATED', 'USER_READ'],
      tenant: { name: 'Acme' },
    });
    expect(client.accessToken()).toBeUndefined();
    const authenticated = requests.find((request) => request.path === '/auth-proxy/authenticated')!;
    expect(authenticated.headers).toMatchObject({ 'x-auth-token': TOKEN, 'x-tenant-user-id': 'tu-1', 'x-app-id': appId });
    expect(authenticated.headers.authorization).toBeUndefined();
  });

  it('init forgets a token the server no longer confirms, and keeps one still choosing its workspace', async () => {
    localStorage.setItem('NB_AUTH_TOKEN', TOKEN);
    await client.init();
    expect(localStorage.getItem('NB_AUTH_TOKEN')).toBe(TOKEN);
    expect(requests).toEqual([]);

    localStorage.setItem('NB_TENANT_USER_ID', 'tu-1');
    routes['GET /auth-proxy/authenticated'] = () => ({ body: { authenticated: false } });
    await client.init();
    expect(client.isAuthenticated()).toBe(false);
    expect(localStorage.getItem('NB_AUTH_TOKEN')).toBeNull();
    expect(localStorage.getItem('NB_TENANT_USER_ID')).toBeNull();
  });
});

describe('two-factor', () => {
  beforeEach(async () => {
    routes['POST /auth-proxy/authenticate'] = () => ({ body: { token: TOKEN, mfaState: 'REQUIRED' } });
    await client.signIn.authenticate('ada@example.test', 'secret');
  });

  it('a passed code stores NB_MFA_TOKEN, sent joined to the auth token', async () => {
    routes['POST /auth-proxy/commitMfaCode'] = () => ({ body: { mfaToken: MFA_TOKEN } });
    await client.mfa.commitCode('123456');
    expect(requests.at(-1)).toMatchObject({ headers: { 'x-auth-token': TOKEN }, body: { mfaCode: '123456' } });
    expect(localStorage.getItem('NB_MFA_TOKEN')).toBe(MFA_TOKEN);
    expect(client.apiHeaders()['x-auth-token']).toBe(`${TOKEN}_${MFA_TOKEN}`);
  });

  it('setup answers the recovery code and keeps the MFA token; recovery and the phone go to /auth-proxy', async () => {
    routes['POST /auth-proxy/startMfaUserSetup'] = () => ({});
    routes['POST /auth-proxy/finishMfaUserSetup'] = () => ({ body: { mfaToken: MFA_TOKEN, backupCode: 'ABCD-EFGH' } });
    routes['POST /auth-proxy/resetUserMfaSetup'] = () => ({});
    await client.mfa.resetUserSetup('WXYZ');
    await client.mfa.startUserSetup('+46701234567');
    expect(await client.mfa.finishUserSetup('654321')).toEqual({ backupCode: 'ABCD-EFGH' });
    expect(requests.slice(-3).map((request) => [request.path, request.body])).toEqual([
      ['/auth-proxy/resetUserMfaSetup', { backupCode: 'WXYZ' }],
      ['/auth-proxy/startMfaUserSetup', { phoneNumber: '+46701234567' }],
      ['/auth-proxy/finishMfaUserSetup', { mfaCode: '654321' }],
    ]);
    expect(localStorage.getItem('NB_MFA_TOKEN')).toBe(MFA_TOKEN);
  });

  it('a new sign-in drops the MFA token of the previous one', async () => {
    localStorage.setItem('NB_MFA_TOKEN', MFA_TOKEN);
    await client.signIn.authenticate('ada@example.test', 'secret');
    expect(localStorage.getItem('NB_MFA_TOKEN')).toBeNull();
  });
});

describe('reset password', () => {
  it('asks for the link, reads it and sets the password through /auth-proxy, signing in with the answered token', async () => {
    routes['POST /auth-proxy/password'] = () => ({ body: {} });
    routes['GET /auth-proxy/password/link-1'] = () => ({ body: { email: 'ada@example.test', purpose: 'reset', passwordChosen: false } });
    routes['PUT /auth-proxy/password'] = () => ({ body: { token: TOKEN, mfaState: 'SETUP' } });
    await client.password.sendResetLink('ada@example.test');
    expect(await client.password.token('link-1')).toMatchObject({ purpose: 'reset' });
    expect(await client.password.set('link-1', 'New-password-1!')).toEqual({ session: true, mfaState: 'SETUP' });
    expect(requests.at(-1)).toMatchObject({ method: 'PUT', body: { token: 'link-1', password: 'New-password-1!' } });
    expect(localStorage.getItem('NB_AUTH_TOKEN')).toBe(TOKEN);
  });

  it("'Back to login' after a set password goes where the second factor still owed is asked, then to the picker", async () => {
    routes['PUT /auth-proxy/password'] = () => ({ body: { token: TOKEN, mfaState: 'REQUIRED' } });
    routes['POST /auth-proxy/commitMfaCode'] = () => ({ body: { mfaToken: MFA_TOKEN } });
    await client.password.set('link-1', 'New-password-1!');
    client.signIn.continue();
    expect(redirects.at(-1)).toBe(`${uiUrl}/auth/mfa/required`);
    await client.mfa.commitCode('123456');
    client.signIn.continue();
    expect(redirects.at(-1)).toBe(`${uiUrl}/auth/choose-user`);

    routes['PUT /auth-proxy/password'] = () => ({ body: { token: TOKEN, mfaState: 'SETUP' } });
    await client.password.set('link-1', 'New-password-1!');
    client.signIn.continue();
    expect(redirects.at(-1)).toBe(`${uiUrl}/auth/mfa/setup`);
  });
});

describe('sign-out', () => {
  beforeEach(async () => {
    localStorage.setItem('NB_AUTH_TOKEN', TOKEN);
    localStorage.setItem('NB_MFA_TOKEN', MFA_TOKEN);
    localStorage.setItem('NB_TENANT_USER_ID', 'tu-1');
    await client.init();
  });

  it('logout revokes the token on the server, clears the NB_ keys and goes to the login', async () => {
    await client.logout();
    expect(requests.at(-1)).toMatchObject({ path: '/auth-proxy/deauthenticate', headers: { 'x-auth-token': `${TOKEN}_${MFA_TOKEN}` } });
    for (const key of ['NB_AUTH_TOKEN', 'NB_MFA_TOKEN', 'NB_TENANT_USER_ID']) expect(localStorage.getItem(key)).toBeNull();
    expect(client.isAuthenticated()).toBe(false);
    expect(redirects.at(-1)).toBe(`${uiUrl}/auth/login`);
  });

  it('starts no sign-in while leaving for the login after a sign-out (a guarded screen asks for one as the token goes)', async () => {
    const before = redirects.length;
    // As the signed-in screens' guard does when the token goes (src/app/sign-in-guard.ts).
    const signIns: Promise<void>[] = [];
    client.subscribe(() => signIns.push(client.login('/user-management/profile')));
    await client.logout();
    await Promise.all(signIns);
    expect(signIns.length).toBeGreaterThan(0);
    expect(redirects.slice(before)).toEqual([`${uiUrl}/auth/login`]);
    expect(sessionStorage.getItem('NB_LEGACY_RETURN_PATH')).toBeNull();
  });

  it('clear (a 401) forgets everything locally and keeps the reason', () => {
    client.clear('membershipEnded');
    expect(client.isAuthenticated()).toBe(false);
    expect(client.signedOutReason()).toBe('membershipEnded');
    expect(localStorage.getItem('NB_AUTH_TOKEN')).toBeNull();
  });
});

describe('what the legacy mode lacks', () => {
  it("has no passkeys, magic links or sessions; asked for anyway, they fail with docs/SPEC.md's messages, calling nothing", () => {
    expect([client.passkeys, client.magicLink, client.sessions]).toEqual([undefined, undefined, undefined]);
    expect(() => required(client.passkeys, 'passkeys')).toThrow('Passkeys are only available via Auth API');
    expect(() => required(client.magicLink, 'magicLink')).toThrow('Magic link are only available via Auth API');
    expect(() => required(client.sessions, 'sessions')).toThrow(AuthError);
    expect(requests).toEqual([]);
  });

  it('offers the password only', async () => {
    expect(await client.signIn.credentialsConfig('ada@example.test')).toEqual({
      hasPassword: true,
      hasPasskeys: false,
      federationConnections: [],
    });
  });
});
