// The whole sign-in with openid-client as a real relying party: authorize → hosted login →
// credentials → workspace → code → tokens verified against the JWKS → refresh → logout.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as client from 'openid-client';
import { and, eq, isNotNull } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, auditEvents, oidcPayloads, tenantUsers } from '../../../server/db/schema.ts';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../../server/auth/oidc/adapter.ts';
import { Browser } from './browser.ts';
import { authorizationRequest, callbackUri, confirmSignOut, relyingParty, signIn, verifier, workspaces } from './sign-in.ts';

let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer();
});

afterAll(async () => {
  await foyer?.close();
});

describe('authorization code flow through /token', () => {
  it('signs the owner in to Globex, refreshes with rotation and logs out', async () => {
    const owner = foyer.demo.users[0]!;
    const rp = await relyingParty(foyer);
    expect(rp.serverMetadata().issuer).toBe(foyer.urls.auth);
    expect(rp.serverMetadata().jwks_uri).toBe(`${foyer.urls.auth}/.well-known/jwks.json`);
    expect(rp.serverMetadata().code_challenge_methods_supported).toEqual(['S256']);

    const pending = await authorizationRequest(rp, callbackUri(foyer));
    const { browser, callback, tenantUserId } = await signIn(foyer, {
      authorizeUrl: pending.url,
      redirectUri: callbackUri(foyer),
      email: owner.email,
      password: owner.password,
      workspace: 'Globex',
    });
    expect(callback.searchParams.get('state')).toBe(pending.state);
    expect(callback.searchParams.get('iss')).toBe(foyer.urls.auth);

    const tokens = await client.authorizationCodeGrant(rp, callback, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBeGreaterThan(3500);
    // The response names the granted OpenID scopes; the access token carries the role's privileges.
    expect(tokens.scope).toBe('openid profile email');
    expect(tokens.refresh_token).toMatch(/^[\w-]{20,}$/);

    const verify = verifier(foyer);
    const access = await verify(tokens.access_token);
    const [membership] = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, tenantUserId));
    expect(access).toMatchObject({
      iss: foyer.urls.auth,
      aud: [foyer.demo.appId, `urn:foyer:app:${foyer.demo.appId}`],
      client_id: foyer.demo.appId,
      sub: tenantUserId,
      aid: foyer.demo.appId,
      tid: membership!.tenantId,
      role: 'OWNER',
      scope: 'AUTHENTICATED USER_READ USER_WRITE TENANT_READ TENANT_WRITE',
      plan: 'FREEMIUM',
      email: owner.email,
      name: 'Olivia Owner',
      onboarded: true,
    });
    expect(access.exp! - access.iat!).toBe(3600);

    const id = await verify(tokens.id_token!);
    expect(id).toMatchObject({
      iss: foyer.urls.auth,
      aud: foyer.demo.appId,
      sub: tenantUserId,
      email: owner.email,
      email_verified: false,
      name: 'Olivia Owner',
      given_name: 'Olivia',
      family_name: 'Owner',
      preferred_username: owner.email,
      locale: 'en',
      onboarded: true,
      tenant_id: membership!.tenantId,
      tenant_name: 'Globex',
      tenant_locale: 'en',
      tenant_onboarded: true,
      multi_tenant: true,
      role: 'OWNER',
    });
    expect(tokens.claims()?.sub).toBe(tenantUserId);

    // Refresh rotates: a new refresh token, the same membership, a fresh access token.
    const renewed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    const renewedAccess = await verify(renewed.access_token);
    expect(renewedAccess).toMatchObject({ sub: tenantUserId, role: 'OWNER', aud: [foyer.demo.appId, `urn:foyer:app:${foyer.demo.appId}`] });
    // Revocation (what the runtime does at logout) kills the current refresh token.
    const third = await client.refreshTokenGrant(rp, renewed.refresh_token!);
    const revoked = await fetch(`${foyer.urls.auth}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: foyer.urls.ui },
      body: new URLSearchParams({ token: third.refresh_token!, token_type_hint: 'refresh_token', client_id: foyer.demo.appId }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get('content-type')).toMatch(/^application\/json/);
    expect(revoked.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    await expect(client.refreshTokenGrant(rp, third.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    // The replaced token is dead (and presenting it revokes the family).
    await expect(client.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    const issued = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'token.issued'), eq(auditEvents.tenantUserId, tenantUserId)));
    expect(issued.length).toBeGreaterThanOrEqual(2);

    // The logout URL alone only asks (any site can send a browser there); confirmed, it ends the
    // browser's sessions and revokes the app's grant.
    const asked = await browser.navigate(`${foyer.urls.auth}/url/logout/${foyer.demo.appId}`, (url) => url.origin === foyer.urls.ui);
    expect(new URL(asked.url).searchParams.has('confirmed')).toBe(false);
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(200);
    expect(await confirmSignOut(foyer, browser, asked.url)).toBe(`${foyer.urls.ui}/auth/login`);
    const afterLogout = await browser.request(`${foyer.urls.auth}/auth/tenantUsers`);
    expect(afterLogout.status).toBe(401);
  });

  it('revokes the refresh tokens of the app at logout and asks for credentials again', async () => {
    const admin = foyer.demo.users[1]!;
    const rp = await relyingParty(foyer);
    const pending = await authorizationRequest(rp, callbackUri(foyer));
    const { browser, callback } = await signIn(foyer, {
      authorizeUrl: pending.url,
      redirectUri: callbackUri(foyer),
      email: admin.email,
      password: admin.password,
      workspace: 'Acme',
    });
    const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });

    // Single sign-on: a second authorization in the same browser needs no login screen.
    const again = await authorizationRequest(rp, callbackUri(foyer));
    const silent = await browser.navigate(again.url, (url) => url.origin === foyer.urls.ui);
    expect(silent.url.startsWith(`${callbackUri(foyer)}?code=`)).toBe(true);

    // With the person's ID token the screen confirms at once.
    const query = new URLSearchParams({ redirectUri: `${foyer.urls.ui}/auth/login`, state: 'bye', idTokenHint: tokens.id_token! });
    const screen = await browser.navigate(
      `${foyer.urls.auth}/url/logout/${foyer.demo.appId}?${query.toString()}`,
      (url) => url.origin === foyer.urls.ui,
    );
    expect(new URL(screen.url).searchParams.get('confirmed')).toBe('1');
    expect(await confirmSignOut(foyer, browser, screen.url)).toBe(`${foyer.urls.ui}/auth/login?state=bye`);
    await expect(client.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const logouts = await foyer.db.select().from(auditEvents).where(eq(auditEvents.type, 'logout'));
    expect(logouts.length).toBeGreaterThan(0);

    const afterLogout = await authorizationRequest(rp, callbackUri(foyer));
    const toLogin = await browser.navigate(afterLogout.url, (url) => url.origin === foyer.urls.ui);
    expect(toLogin.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
  });

  it('issues the current role and refuses to refresh a disabled membership', async () => {
    const owner = foyer.demo.users[0]!;
    const rp = await relyingParty(foyer);
    const pending = await authorizationRequest(rp, callbackUri(foyer));
    const { browser, callback, tenantUserId } = await signIn(foyer, {
      authorizeUrl: pending.url,
      redirectUri: callbackUri(foyer),
      email: owner.email,
      password: owner.password,
      workspace: 'Acme',
    });
    const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
    const verify = verifier(foyer);

    await foyer.db.update(tenantUsers).set({ role: 'VIEWER' }).where(eq(tenantUsers.id, tenantUserId));
    const demoted = await client.refreshTokenGrant(rp, tokens.refresh_token!);
    expect(await verify(demoted.access_token)).toMatchObject({ role: 'VIEWER', scope: 'AUTHENTICATED USER_READ TENANT_READ' });
    expect(demoted.scope).toBe('openid profile email');

    await foyer.db.update(tenantUsers).set({ role: 'OWNER', enabled: false }).where(eq(tenantUsers.id, tenantUserId));
    try {
      await expect(client.refreshTokenGrant(rp, demoted.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
      // The browser's single sign-on names the disabled membership, so it is not used; the login
      // session is still signed in, so the browser goes to the workspace picker, which leaves it out.
      const again = await authorizationRequest(rp, callbackUri(foyer));
      const landing = await browser.navigate(again.url, (url) => url.origin === foyer.urls.ui);
      expect(landing.url).toBe(`${foyer.urls.ui}/auth/choose-user?appId=${foyer.demo.appId}`);
      expect((await workspaces(foyer, browser)).map((workspace) => workspace.tenant.name)).toEqual(['Globex']);
    } finally {
      await foyer.db.update(tenantUsers).set({ enabled: true }).where(eq(tenantUsers.id, tenantUserId));
    }
  });
});

describe('the shorthand endpoints', () => {
  it('signs in through /url/login and exchanges and refreshes through /token/code and /token/refresh', async () => {
    const viewer = foyer.demo.users[2]!;
    const appId = foyer.demo.appId;
    await foyer.db.update(apps).set({ accessTokenTtl: 600 }).where(eq(apps.id, appId));
    onTestFinished(() =>
      foyer.db
        .update(apps)
        .set({ accessTokenTtl: 3600 })
        .where(eq(apps.id, appId))
        .then(() => undefined),
    );
    const codeVerifier = client.randomPKCECodeVerifier();
    const query = new URLSearchParams({
      state: 'return-to-users',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    // No redirectUri: the app's default callback.
    const { callback, tenantUserId } = await signIn(foyer, {
      authorizeUrl: `${foyer.urls.auth}/url/login/${appId}?${query.toString()}`,
      redirectUri: callbackUri(foyer),
      email: viewer.email,
      password: viewer.password,
      workspace: 'Globex',
    });
    expect(callback.searchParams.get('state')).toBe('return-to-users');
    const code = callback.searchParams.get('code')!;

    const exchanged = await fetch(`${foyer.urls.auth}/token/code/${appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://app.example' },
      body: JSON.stringify({ code, codeVerifier }),
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('access-control-allow-origin')).toBe('*');
    expect(exchanged.headers.get('cache-control')).toBe('no-store');
    const tokens = (await exchanged.json()) as Record<string, string> & { user_profile: Record<string, unknown> };
    const verify = verifier(foyer);
    const access = await verify(tokens.access_token);
    expect(access).toMatchObject({ sub: tenantUserId, role: 'VIEWER', scope: 'AUTHENTICATED USER_READ TENANT_READ' });
    // The app's own lifetime, not the default.
    expect(access.exp! - access.iat!).toBe(600);
    expect(tokens.expires_in).toBe(600);
    expect(tokens.user_profile).toMatchObject({ sub: tenantUserId, email: viewer.email, tenant_name: 'Globex', multi_tenant: false });
    expect(tokens.token_type).toBe('Bearer');

    const refreshed = await fetch(`${foyer.urls.auth}/token/refresh/${appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: tokens.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
    const renewed = (await refreshed.json()) as Record<string, string>;
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    expect(await verify(renewed.id_token!)).toMatchObject({ sub: tenantUserId });

    // Replayed after the grace window for concurrent tabs: refused.
    await foyer.db
      .update(oidcPayloads)
      .set({ consumedAt: new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000) })
      .where(and(eq(oidcPayloads.type, 'RefreshToken'), isNotNull(oidcPayloads.consumedAt)));
    const replayed = await fetch(`${foyer.urls.auth}/token/refresh/${appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: tokens.refresh_token }),
    });
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toEqual({ statusCode: 400, message: 'grant request is invalid', error: 'INVALID_GRANT' });

    const preflight = await fetch(`${foyer.urls.auth}/token/code/${appId}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('accepts the original JSON body on POST /token and lands /url/signup on the signup screen', async () => {
    const admin = foyer.demo.users[1]!;
    const appId = foyer.demo.appId;
    const codeVerifier = client.randomPKCECodeVerifier();
    const challenge = await client.calculatePKCECodeChallenge(codeVerifier);
    const browserSignup = await new Browser().navigate(
      `${foyer.urls.auth}/url/signup/${appId}?code_challenge=${challenge}&code_challenge_method=S256`,
      (url) => url.origin === foyer.urls.ui,
    );
    expect(browserSignup.url).toBe(`${foyer.urls.ui}/auth/signup?appId=${foyer.demo.appId}`);

    const { callback } = await signIn(foyer, {
      authorizeUrl: `${foyer.urls.auth}/url/login/${appId}?code_challenge=${challenge}&code_challenge_method=S256`,
      redirectUri: callbackUri(foyer),
      email: admin.email,
      password: admin.password,
      workspace: 'Acme',
    });
    const answer = await fetch(`${foyer.urls.auth}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        client_id: appId,
        code: callback.searchParams.get('code'),
        redirect_uri: callbackUri(foyer),
        code_verifier: codeVerifier,
      }),
    });
    expect(answer.status).toBe(200);
    const tokens = (await answer.json()) as Record<string, string>;
    expect(await verifier(foyer)(tokens.access_token!)).toMatchObject({ role: 'ADMIN', scope: SCOPE_ADMIN });
  });
});

const SCOPE_ADMIN = 'AUTHENTICATED USER_READ USER_WRITE TENANT_READ TENANT_WRITE';
