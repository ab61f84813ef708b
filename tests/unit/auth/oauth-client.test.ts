// @vitest-environment jsdom
// The OAuth auth client against the in-process auth service: login URL and PKCE, callback checks,
// token storage, start-up, current user, logout.

import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthError, AuthErrorKeys } from '../../../src/auth/errors.ts';
import { StorageKeys } from '../../../src/auth/storage-keys.ts';
import { createHarness, uiUrl, type Harness } from './support/harness.ts';
import { createSigningKey } from './support/keys.ts';
import { TestAuthService, defaultTestUser } from './support/test-auth-service.ts';

let service: TestAuthService;
let harness: Harness;

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  service = await TestAuthService.start();
  harness = createHarness(service);
});

afterEach(() => {
  harness.client.clear();
});

function storedTokens() {
  return {
    access: localStorage.getItem(StorageKeys.oauthAccessToken),
    refresh: localStorage.getItem(StorageKeys.oauthRefreshToken),
    id: localStorage.getItem(StorageKeys.idToken),
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

describe('login', () => {
  it('sends the browser to the shorthand login URL with an S256 challenge and a fresh state', async () => {
    await harness.client.login('/users');
    await harness.client.login('/users');
    const [first, second] = harness.redirects.map((url) => new URL(url));
    expect(`${first!.origin}${first!.pathname}`).toBe(`${service.authUrl}/url/login/demo-app`);
    expect(first!.searchParams.get('redirectUri')).toBe(`${uiUrl}/auth/oauth-callback`);
    expect(first!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(first!.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first!.searchParams.get('state')).not.toBe(second!.searchParams.get('state'));

    const pending = JSON.parse(sessionStorage.getItem(`${StorageKeys.oauthPendingPrefix}${first!.searchParams.get('state')}`)!) as {
      codeVerifier: string;
      returnPath: string;
    };
    expect(pending.returnPath).toBe('/users');
    const expectedChallenge = createHash('sha256').update(pending.codeVerifier).digest('base64url');
    expect(first!.searchParams.get('code_challenge')).toBe(expectedChallenge);
  });

  it('URL-encodes the app id and redirect URI', async () => {
    const odd = await TestAuthService.start('app with/slash');
    const oddHarness = createHarness(odd, { oauthRedirectPath: '/auth/oauth-callback?x=1&y=2' });
    await oddHarness.client.login();
    const url = oddHarness.redirects[0]!;
    expect(url.startsWith(`${odd.authUrl}/url/login/app%20with%2Fslash?`)).toBe(true);
    expect(new URL(url).searchParams.get('redirectUri')).toBe(`${uiUrl}/auth/oauth-callback?x=1&y=2`);
  });
});

describe('callback', () => {
  it('exchanges the code with the PKCE verifier, stores the tokens and answers the return path', async () => {
    const notified = vi.fn();
    harness.client.subscribe(notified);
    await expect(harness.signIn('/users?page=2#top')).resolves.toBe('/users?page=2#top');

    const [exchange] = service.callsTo('/token');
    const form = new URLSearchParams(exchange!.body);
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('client_id')).toBe('demo-app');
    expect(form.get('redirect_uri')).toBe(`${uiUrl}/auth/oauth-callback`);
    expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(exchange!.headers['content-type']).toBe('application/x-www-form-urlencoded');

    const tokens = storedTokens();
    expect(tokens.access).toMatch(/^ey/);
    expect(tokens.id).toMatch(/^ey/);
    expect(service.isRefreshTokenLive(tokens.refresh!)).toBe(true);
    expect(harness.client.isAuthenticated()).toBe(true);
    expect(harness.client.accessToken()).toBe(tokens.access);
    expect(notified).toHaveBeenCalled();
    expect(Object.keys(sessionStorage).filter((key) => key.startsWith(StorageKeys.oauthPendingPrefix))).toEqual([]);
  });

  it('answers the handover route when no return path was given', async () => {
    harness = createHarness(service, { handoverRoute: '/welcome' });
    await expect(harness.signIn()).resolves.toBe('/welcome');
  });

  it.each(['//evil.test/x', 'http://evil.test/x', 'https:evil.test', '/\\evil.test', '\\\\evil.test', '/\t/evil.test', 'users'])(
    'never returns to %j: the handover route is used instead',
    async (returnPath) => {
      await expect(harness.signIn(returnPath)).resolves.toBe('/');
    },
  );

  it('rejects a state this browser never issued, without calling the token endpoint', async () => {
    await harness.client.login('/users');
    const { code } = service.issueCode(harness.redirects[0]!);
    const error = await rejectionOf(harness.client.handleCallback(new URLSearchParams({ code, state: 'forged-state' })));
    expect(error.key).toBe(AuthErrorKeys.loginFailed);
    expect(service.callsTo('/token')).toEqual([]);
    expect(harness.client.isAuthenticated()).toBe(false);
  });

  it('accepts a state only once', async () => {
    await harness.client.login();
    const { code, state } = service.issueCode(harness.redirects[0]!);
    await harness.client.handleCallback(new URLSearchParams({ code, state }));
    const error = await rejectionOf(harness.client.handleCallback(new URLSearchParams({ code, state })));
    expect(error.key).toBe(AuthErrorKeys.loginFailed);
  });

  it('turns ?error into the login error and forgets the state', async () => {
    await harness.client.login();
    const { state } = service.issueCode(harness.redirects[0]!);
    const error = await rejectionOf(harness.client.handleCallback(new URLSearchParams({ error: 'access_denied', state })));
    expect(error.key).toBe(AuthErrorKeys.loginFailed);
    expect(error.message).toBe('There was an error when logging in. Try again, otherwise contact support.');
    expect(sessionStorage.length).toBe(0);
  });

  it('needs a code', async () => {
    await harness.client.login();
    const { state } = service.issueCode(harness.redirects[0]!);
    const error = await rejectionOf(harness.client.handleCallback(new URLSearchParams({ state })));
    expect(error.key).toBe(AuthErrorKeys.missingCode);
    expect(error.message).toBe("Can't init auth without a code");
  });

  it("fails with 'Wrong credentials!' when the token endpoint refuses the verifier", async () => {
    await harness.client.login();
    const { code, state } = service.issueCode(harness.redirects[0]!);
    const key = `${StorageKeys.oauthPendingPrefix}${state}`;
    sessionStorage.setItem(key, JSON.stringify({ codeVerifier: 'a'.repeat(43) }));
    const error = await rejectionOf(harness.client.handleCallback(new URLSearchParams({ code, state })));
    expect(error.key).toBe(AuthErrorKeys.wrongCredentials);
    expect(error.message).toBe('Wrong credentials!');
    expect(storedTokens()).toEqual({ access: null, refresh: null, id: null });
  });

  it("fails with 'Wrong credentials!' when the answer has neither access nor refresh token", async () => {
    service.omitFromNextTokenAnswer = ['access_token', 'refresh_token'];
    const error = await rejectionOf(harness.signIn());
    expect(error.key).toBe(AuthErrorKeys.wrongCredentials);
  });

  it("fails with 'Authentication failed!' when the tokens carry another issuer", async () => {
    service.issuer = 'http://evil.test';
    const error = await rejectionOf(harness.signIn());
    expect(error.key).toBe(AuthErrorKeys.authenticationFailed);
    expect(error.message).toBe('Authentication failed!');
    expect(harness.client.isAuthenticated()).toBe(false);
    expect(storedTokens()).toEqual({ access: null, refresh: null, id: null });
  });

  it("fails with 'Authentication failed!' when the service signs with a 1024-bit key", async () => {
    const weak = await TestAuthService.start('demo-app', await createSigningKey('weak', 1024));
    const error = await rejectionOf(createHarness(weak).signIn());
    expect(error.key).toBe(AuthErrorKeys.authenticationFailed);
  });

  it('completes a session from a refresh token alone by refreshing', async () => {
    service.omitFromNextTokenAnswer = ['access_token', 'id_token'];
    await harness.client.login();
    const { code, state } = service.issueCode(harness.redirects[0]!);
    await expect(harness.client.handleCallback(new URLSearchParams({ code, state }))).resolves.toBe('/');
    expect(harness.client.isAuthenticated()).toBe(true);
    expect(service.callsTo('/token').map((call) => new URLSearchParams(call.body).get('grant_type'))).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
  });
});

describe('current user', () => {
  it('is the fallback user while nobody is signed in', () => {
    expect(harness.client.currentUser()).toEqual({
      id: '',
      email: '',
      username: '',
      fullName: 'Unknown',
      role: '',
      onboarded: true,
      locale: 'en',
      tenant: { id: 'Dummy id' },
    });
  });

  it('comes from the ID-token claims, with the role, plan and privileges from the access token', async () => {
    await harness.signIn();
    expect(harness.client.currentUser()).toEqual({
      id: defaultTestUser.sub,
      email: 'owner@demo.foyer.test',
      username: 'owner@demo.foyer.test',
      fullName: 'Olivia Owner',
      role: 'OWNER',
      onboarded: true,
      locale: 'en',
      plan: 'TEAM',
      privileges: ['AUTHENTICATED', 'USER_READ', 'USER_WRITE', 'TENANT_READ', 'TENANT_WRITE'],
      tenant: { id: 'tenant-globex', name: 'Globex', locale: 'sv', logo: undefined, onboarded: undefined },
    });
  });

  it('names the workspace user to preselect: the signed-in one, else the one just chosen', async () => {
    expect(harness.client.currentTenantUserId()).toBeUndefined();
    await harness.signIn();
    expect(harness.client.currentTenantUserId()).toBe(defaultTestUser.sub);
    expect(localStorage.getItem(StorageKeys.tenantUserId)).toBe(defaultTestUser.sub);
    await harness.client.signIn.switchWorkspace('tenant-user-acme');
    expect(harness.client.currentTenantUserId()).toBe('tenant-user-acme');
  });

  it('switching workspace revokes the held refresh token and clears the tokens before leaving', async () => {
    await harness.signIn();
    const refreshToken = storedTokens().refresh!;
    await harness.client.signIn.switchWorkspace('tenant-user-acme');
    expect(service.isRefreshTokenLive(refreshToken)).toBe(false);
    expect(storedTokens()).toEqual({ access: null, refresh: null, id: null });
    expect(harness.client.isAuthenticated()).toBe(false);
    expect(harness.redirects.at(-1)).toBe(`${service.authUrl}/auth/chooseTenantUser/tenant-user-acme`);
  });

  it('starts no sign-in while a workspace switch leaves the page (a guarded screen asks for one as the tokens go)', async () => {
    await harness.signIn();
    const before = harness.redirects.length;
    // As the signed-in screens' guard does when the tokens go (src/app/sign-in-guard.ts).
    const signIns: Promise<void>[] = [];
    harness.client.subscribe(() => signIns.push(harness.client.login('/user-management/profile')));
    await harness.client.signIn.switchWorkspace('tenant-user-acme');
    await Promise.all(signIns);
    expect(signIns.length).toBeGreaterThan(0);
    expect(harness.redirects.slice(before)).toEqual([`${service.authUrl}/auth/chooseTenantUser/tenant-user-acme`]);
  });

  it('refresh() renews the tokens and re-reads the user, telling subscribers', async () => {
    const user = { ...defaultTestUser, onboarded: false, tenantName: '' };
    await harness.signIn('/', user);
    expect(harness.client.currentUser()).toMatchObject({ onboarded: false, tenant: { name: '' } });
    const oldRefreshToken = storedTokens().refresh!;
    let notified = 0;
    const unsubscribe = harness.client.subscribe(() => (notified += 1));
    // What onboarding changes on the server shows in the next tokens.
    user.onboarded = true;
    user.tenantName = 'Initech';
    await harness.client.refresh();
    unsubscribe();
    expect(harness.client.currentUser()).toMatchObject({ onboarded: true, tenant: { name: 'Initech' } });
    expect(storedTokens().refresh).not.toBe(oldRefreshToken);
    expect(service.isRefreshTokenLive(oldRefreshToken)).toBe(false);
    expect(notified).toBeGreaterThan(0);
    expect(harness.liveTimers()).toBe(1);
  });

  it('refresh() fails with the refresh error when the server refuses', async () => {
    await harness.signIn();
    service.revokeAllRefreshTokens();
    expect((await rejectionOf(harness.client.refresh())).key).toBe(AuthErrorKeys.tokenRefreshFailed);
  });

  it('sends only the bearer token and the app id to the API host', async () => {
    expect(harness.client.apiHeaders()).toEqual({ 'x-app-id': 'demo-app' });
    await harness.signIn();
    expect(harness.client.apiHeaders()).toEqual({
      authorization: `Bearer ${storedTokens().access}`,
      'x-app-id': 'demo-app',
    });
  });
});

describe('start-up check', () => {
  it('restores verified stored tokens without calling the token endpoint', async () => {
    await harness.signIn();
    const restored = createHarness(service);
    await restored.client.init();
    expect(restored.client.isAuthenticated()).toBe(true);
    expect(restored.client.currentUser().tenant.name).toBe('Globex');
    expect(service.callsTo('/token')).toHaveLength(1);
    restored.client.clear();
  });

  it('refreshes when the stored access token no longer verifies', async () => {
    await harness.signIn();
    const oldRefresh = storedTokens().refresh!;
    const [header, payload] = storedTokens().access!.split('.');
    localStorage.setItem(StorageKeys.oauthAccessToken, `${header}.${payload}.forged-signature`);

    const restored = createHarness(service);
    await restored.client.init();
    expect(restored.client.isAuthenticated()).toBe(true);
    expect(storedTokens().refresh).not.toBe(oldRefresh);
    expect(service.isRefreshTokenLive(oldRefresh)).toBe(false);
    const refresh = new URLSearchParams(service.callsTo('/token').at(-1)!.body);
    expect(Object.fromEntries(refresh)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: oldRefresh,
      client_id: 'demo-app',
    });
    restored.client.clear();
  });

  it('refreshes when only the refresh token is stored', async () => {
    await harness.signIn();
    localStorage.removeItem(StorageKeys.oauthAccessToken);
    localStorage.removeItem(StorageKeys.idToken);
    const restored = createHarness(service);
    await restored.client.init();
    expect(restored.client.isAuthenticated()).toBe(true);
    expect(storedTokens().id).toMatch(/^ey/);
    restored.client.clear();
  });

  it('ends logged out, without throwing, when the refresh fails', async () => {
    await harness.signIn();
    localStorage.removeItem(StorageKeys.oauthAccessToken);
    service.revokeAllRefreshTokens();
    const restored = createHarness(service);
    await expect(restored.client.init()).resolves.toBeUndefined();
    expect(restored.client.isAuthenticated()).toBe(false);
    expect(storedTokens()).toEqual({ access: null, refresh: null, id: null });
  });

  it('ends logged out when unverifiable tokens come without a refresh token', async () => {
    await harness.signIn();
    localStorage.removeItem(StorageKeys.oauthRefreshToken);
    localStorage.setItem(StorageKeys.idToken, 'not-a-jwt');
    const restored = createHarness(service);
    await restored.client.init();
    expect(restored.client.isAuthenticated()).toBe(false);
    expect(service.callsTo('/token')).toHaveLength(1);
  });

  it('is logged out without any call when nothing is stored', async () => {
    await harness.client.init();
    expect(harness.client.isAuthenticated()).toBe(false);
    expect(service.calls).toEqual([]);
  });
});

describe('logout and clear', () => {
  it('clears the session, revokes the refresh token, then leaves for the logout URL proving whom it signs out', async () => {
    await harness.signIn();
    const refreshToken = storedTokens().refresh!;
    const idToken = storedTokens().id!;
    const notified = vi.fn();
    harness.client.subscribe(notified);

    await harness.client.logout();

    expect(storedTokens()).toEqual({ access: null, refresh: null, id: null });
    expect(localStorage.getItem(StorageKeys.tenantUserId)).toBeNull();
    expect(harness.client.isAuthenticated()).toBe(false);
    expect(notified).toHaveBeenCalled();
    const [revocation] = service.callsTo('/token/revocation');
    expect(Object.fromEntries(new URLSearchParams(revocation!.body))).toEqual({
      token: refreshToken,
      token_type_hint: 'refresh_token',
      client_id: 'demo-app',
    });
    expect(service.isRefreshTokenLive(refreshToken)).toBe(false);
    expect(harness.redirects.at(-1)).toBe(
      `${service.authUrl}/url/logout/demo-app?${new URLSearchParams({ idTokenHint: idToken }).toString()}`,
    );
  });

  it('starts no sign-in while leaving for the logout URL', async () => {
    await harness.signIn();
    const before = harness.redirects.length;
    const signIns: Promise<void>[] = [];
    harness.client.subscribe(() => signIns.push(harness.client.login('/user-management/profile')));
    await harness.client.logout();
    await Promise.all(signIns);
    expect(signIns.length).toBeGreaterThan(0);
    expect(harness.redirects.slice(before)).toEqual([expect.stringMatching(`^${service.authUrl}/url/logout/demo-app\\?`)]);
  });

  it('still leaves for the logout URL when the server calls fail', async () => {
    await harness.signIn();
    const failing = createHarness(service, {}, { fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    await failing.client.logout();
    expect(failing.redirects.at(-1)).toMatch(`${service.authUrl}/url/logout/demo-app?idTokenHint=`);
    expect(storedTokens()).toEqual({ access: null, refresh: null, id: null });
  });

  it('clear() forgets the session locally and makes no call', async () => {
    await harness.signIn();
    const callsBefore = service.calls.length;
    const notified = vi.fn();
    harness.client.subscribe(notified);
    harness.client.clear();
    expect(harness.client.isAuthenticated()).toBe(false);
    expect(storedTokens()).toEqual({ access: null, refresh: null, id: null });
    expect(service.calls.length).toBe(callsBefore);
    expect(notified).toHaveBeenCalledTimes(1);
  });
});

describe('other tabs', () => {
  /** What the browser delivers to this tab when another tab changes the shared localStorage. */
  function storageChangedElsewhere(key: string | null) {
    window.dispatchEvent(new StorageEvent('storage', { key, storageArea: localStorage }));
  }

  it('a logout in another tab ends the session here', async () => {
    await harness.signIn();
    const thisTab = createHarness(service);
    await thisTab.client.init();
    const notified = vi.fn();
    thisTab.client.subscribe(notified);

    harness.client.clear();
    storageChangedElsewhere(StorageKeys.oauthRefreshToken);

    expect(thisTab.client.isAuthenticated()).toBe(false);
    expect(thisTab.liveTimers()).toBe(0);
    expect(notified).toHaveBeenCalled();
  });

  it('a sign-in in another tab is adopted here, without writing over its tokens', async () => {
    const thisTab = createHarness(service);
    await thisTab.client.init();
    const adopted = new Promise<void>((resolve) => thisTab.client.subscribe(resolve));

    await harness.signIn();
    storageChangedElsewhere(StorageKeys.oauthRefreshToken);
    await adopted;

    expect(thisTab.client.isAuthenticated()).toBe(true);
    expect(thisTab.client.accessToken()).toBe(localStorage.getItem(StorageKeys.oauthAccessToken));
    thisTab.client.clear();
  });

  it('ignores changes to keys that are not the session', async () => {
    await harness.signIn();
    const thisTab = createHarness(service);
    await thisTab.client.init();
    localStorage.removeItem(StorageKeys.oauthRefreshToken);
    storageChangedElsewhere('NB_TABLE_users');
    expect(thisTab.client.isAuthenticated()).toBe(true);
    thisTab.client.clear();
  });
});
