// Foyer as a standard OpenID Provider, driven by client libraries nobody here wrote, each set up the
// way its own documentation says: openid-client as a public and as a confidential client (secret or
// signed JWT), passport-openidconnect (client_secret_post, no PKCE), and jose as a resource server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { eq } from 'drizzle-orm';
import express from 'express';
import passport from 'passport';
import {
  Strategy as OpenIDConnectStrategy,
  type Profile,
  type SessionStore,
  type SessionStoreContext,
  type VerifyCallback,
} from 'passport-openidconnect';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps } from '../../../server/db/schema.ts';
import { rotateClientSecret } from '../../../server/apps/client-secret.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import { Browser } from './browser.ts';
import { authorizationRequest, callbackUri, choose, confirmSignOut, logIn, SCOPE, signIn, workspaces } from './sign-in.ts';

let foyer: TestFoyer;
const owner = () => foyer.demo.users[0]!;
const insecure = { execute: [client.allowInsecureRequests] };

beforeAll(async () => {
  foyer = await startFoyer();
});
afterAll(() => foyer?.close());

/** Makes the demo app public or confidential; answers a fresh client secret for secret-based methods. */
async function configureApp(settings: Partial<AppSettings>): Promise<string> {
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({ settings: { ...app!.settings, ...settings }, postLogoutRedirectUris: [`${foyer.urls.ui}/auth/login`, signedOutUri()] })
    .where(eq(apps.id, foyer.demo.appId));
  return rotateClientSecret(foyer.db, foyer.config.secret, foyer.demo.appId);
}

const signedOutUri = () => `${foyer.urls.ui}/signed-out`;

/** openid-client reports a refused client as an OAuth error body, or as a Basic challenge. */
async function refusedAsInvalidClient(attempt: Promise<unknown>) {
  const error = (await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { error?: string; cause?: { parameters?: { error?: string } }[] } | undefined;
  expect(error?.error ?? error?.cause?.[0]?.parameters?.error).toBe('invalid_client');
}

async function tokensFor(rp: client.Configuration, browser?: Browser) {
  const pending = await authorizationRequest(rp, callbackUri(foyer));
  const signedIn = await signIn(foyer, {
    authorizeUrl: pending.url,
    redirectUri: callbackUri(foyer),
    email: owner().email,
    password: owner().password,
    workspace: 'Acme',
    browser,
  });
  const tokens = await client.authorizationCodeGrant(rp, signedIn.callback, {
    pkceCodeVerifier: pending.verifier,
    expectedState: pending.state,
  });
  return { ...signedIn, tokens };
}

describe('discovery', () => {
  it('advertises exactly the endpoints and client authentication methods Foyer supports', async () => {
    const metadata = (await (await fetch(`${foyer.urls.auth}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: foyer.urls.auth,
      userinfo_endpoint: `${foyer.urls.auth}/userinfo`,
      introspection_endpoint: `${foyer.urls.auth}/token/introspection`,
      revocation_endpoint: `${foyer.urls.auth}/token/revocation`,
      end_session_endpoint: `${foyer.urls.auth}/session/end`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(new Set(metadata.token_endpoint_auth_methods_supported as string[])).toEqual(
      new Set(['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt']),
    );
  });
});

describe('a public client (openid-client)', () => {
  it('refreshes sending back the scope the token response named, and reads userinfo', async () => {
    await configureApp({ clientType: 'public' });
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, undefined, client.None(), insecure);
    const { tokens, tenantUserId } = await tokensFor(rp);
    expect(tokens.scope).toBe(SCOPE);

    // What oidc-client-ts does at every silent renew: the returned scope goes back with the refresh.
    const renewed = await client.refreshTokenGrant(rp, tokens.refresh_token!, { scope: tokens.scope! });
    expect(renewed.scope).toBe(SCOPE);

    const profile = await client.fetchUserInfo(rp, renewed.access_token, tenantUserId);
    expect(profile).toMatchObject({
      sub: tenantUserId,
      email: owner().email,
      name: 'Olivia Owner',
      preferred_username: owner().email,
      onboarded: true,
      role: 'OWNER',
      tenant_name: 'Acme',
    });
  });

  it('answers userinfo only for the scopes granted, and not at all without a live grant', async () => {
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, undefined, client.None(), insecure);
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(rp, {
      redirect_uri: callbackUri(foyer),
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'narrow',
    });
    const { callback, tenantUserId } = await signIn(foyer, {
      authorizeUrl: url.toString(),
      redirectUri: callbackUri(foyer),
      email: owner().email,
      password: owner().password,
      workspace: 'Acme',
    });
    const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: 'narrow' });
    expect(tokens.scope).toBe('openid');
    const narrow = await client.fetchUserInfo(rp, tokens.access_token, tenantUserId);
    expect(narrow).toMatchObject({ sub: tenantUserId, role: 'OWNER', tenant_name: 'Acme' });
    expect(narrow).not.toHaveProperty('email');
    expect(narrow).not.toHaveProperty('name');

    await client.tokenRevocation(rp, tokens.refresh_token!);
    await expect(client.fetchUserInfo(rp, tokens.access_token, tenantUserId)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses userinfo without a token, with an ID token, or with a forged one', async () => {
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, undefined, client.None(), insecure);
    const { tokens } = await tokensFor(rp);
    for (const authorization of [undefined, `Bearer ${tokens.id_token}`, `Bearer ${tokens.access_token.slice(0, -4)}AAAA`, 'Basic abc']) {
      const answer = await fetch(`${foyer.urls.auth}/userinfo`, { headers: authorization ? { authorization } : {} });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      expect(await answer.json()).toMatchObject({ statusCode: 401, error: 'invalid_token' });
    }
  });

  it('may not introspect: introspection is for confidential apps', async () => {
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, undefined, client.None(), insecure);
    const { tokens } = await tokensFor(rp);
    const answer = await client.tokenIntrospection(rp, tokens.refresh_token!);
    expect(answer.active).toBe(false);
  });
});

describe('a confidential client (openid-client, client_secret_basic)', () => {
  it('authenticates with its secret, introspects its refresh token and is refused without it', async () => {
    const secret = await configureApp({ clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_basic' });
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, secret, client.ClientSecretBasic(secret), insecure);
    const { tokens, tenantUserId } = await tokensFor(rp);

    const introspected = await client.tokenIntrospection(rp, tokens.refresh_token!);
    expect(introspected).toMatchObject({ active: true, client_id: foyer.demo.appId, sub: tenantUserId, scope: SCOPE });
    expect(await client.fetchUserInfo(rp, tokens.access_token, tenantUserId)).toMatchObject({ email: owner().email });

    const noSecret = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, undefined, client.None(), insecure);
    await refusedAsInvalidClient(client.refreshTokenGrant(noSecret, tokens.refresh_token!));
    const wrong = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, 'x', client.ClientSecretBasic('fys_wrong'), insecure);
    await refusedAsInvalidClient(client.refreshTokenGrant(wrong, tokens.refresh_token!));
    // oidc-provider takes the secret in the body as well as in the header (both are secret-based).
    const posted = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, secret, client.ClientSecretPost(secret), insecure);
    const renewed = await client.refreshTokenGrant(posted, tokens.refresh_token!);
    expect((await client.refreshTokenGrant(rp, renewed.refresh_token!)).scope).toBe(SCOPE);
  });

  it('still needs PKCE unless the owner switched it off', async () => {
    const secret = await configureApp({ clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_basic', requirePkce: true });
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, secret, client.ClientSecretBasic(secret), insecure);
    const withoutPkce = client.buildAuthorizationUrl(rp, { redirect_uri: callbackUri(foyer), scope: SCOPE, state: 's' });
    const refused = await new Browser().navigate(withoutPkce.toString(), () => false);
    expect(refused.url).toContain('error=invalid_request');

    await configureApp({ requirePkce: false });
    const allowed = await new Browser().navigate(withoutPkce.toString(), (url) => url.origin === foyer.urls.ui);
    expect(allowed.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
  });

  it('a rotated secret stops the old one at once', async () => {
    const first = await configureApp({ clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_basic', requirePkce: true });
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, first, client.ClientSecretBasic(first), insecure);
    const { tokens } = await tokensFor(rp);
    const second = await rotateClientSecret(foyer.db, foyer.config.secret, foyer.demo.appId);
    await refusedAsInvalidClient(client.refreshTokenGrant(rp, tokens.refresh_token!));
    const rotated = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, second, client.ClientSecretBasic(second), insecure);
    expect((await client.refreshTokenGrant(rotated, tokens.refresh_token!)).access_token).toBeTruthy();
  });

  it('RP-initiated logout ends the sign-in: the refresh token is revoked and the password is asked again', async () => {
    const secret = await configureApp({ clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_basic', requirePkce: true });
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, secret, client.ClientSecretBasic(secret), insecure);
    const browser = new Browser();
    const { tokens } = await tokensFor(rp, browser);

    const endSession = client.buildEndSessionUrl(rp, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: signedOutUri(),
      state: 'bye',
    });
    // The app proved whom it signs out: the hosted screen confirms without asking.
    const toScreen = await browser.navigate(endSession.toString(), (url) => url.origin === foyer.urls.ui);
    const screen = new URL(toScreen.url);
    expect(screen.pathname).toBe('/auth/sign-out');
    expect(screen.searchParams.get('confirmed')).toBe('1');
    expect(screen.searchParams.get('appId')).toBe(foyer.demo.appId);
    expect(await confirmSignOut(foyer, browser, toScreen.url)).toBe(`${signedOutUri()}?state=bye`);

    await expect(client.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await client.tokenIntrospection(rp, tokens.refresh_token!)).active).toBe(false);
    // Foyer's login session is gone too: no workspace list, and a new sign-in stops at the login.
    const listed = await browser.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui });
    expect(listed.status).toBe(401);
    const again = await authorizationRequest(rp, callbackUri(foyer));
    const landing = await browser.navigate(again.url, (url) => url.origin === foyer.urls.ui);
    expect(landing.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
  });

  it('a logout request without proof of the person asks on the hosted screen, and a forged confirmation does nothing', async () => {
    const secret = await configureApp({ clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_basic', requirePkce: true });
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, secret, client.ClientSecretBasic(secret), insecure);
    const browser = new Browser();
    const { tokens } = await tokensFor(rp, browser);

    const forged = await browser.request(`${foyer.urls.auth}/session/end/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: 'guessed', logout: 'yes' }).toString(),
      origin: 'https://evil.example',
      // A page load, as a cross-site form post is.
    });
    expect(forged.status).toBeGreaterThanOrEqual(300);
    expect((await client.refreshTokenGrant(rp, tokens.refresh_token!)).access_token).toBeTruthy();
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui })).status).toBe(200);

    const toScreen = await browser.navigate(
      `${foyer.urls.auth}/session/end?client_id=${foyer.demo.appId}`,
      (url) => url.origin === foyer.urls.ui,
    );
    const screen = new URL(toScreen.url);
    expect(screen.pathname).toBe('/auth/sign-out');
    expect(screen.searchParams.has('confirmed')).toBe(false);
  });
});

describe('a confidential client signing its own assertions (private_key_jwt)', () => {
  it('authenticates with a JWT signed by the key it registered, and not with another', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const { crv, x, y } = await exportJWK(publicKey);
    const jwk = { kty: 'EC' as const, crv, x, y, kid: 'app-key-1', use: 'sig', alg: 'ES256' };
    await configureApp({
      clientType: 'confidential',
      tokenEndpointAuthMethod: 'private_key_jwt',
      requirePkce: true,
      jwks: { keys: [jwk] },
    });
    const rp = await client.discovery(
      new URL(foyer.urls.auth),
      foyer.demo.appId,
      undefined,
      client.PrivateKeyJwt({ key: privateKey, kid: 'app-key-1' }),
      insecure,
    );
    const { tokens } = await tokensFor(rp);
    expect(tokens.access_token).toBeTruthy();

    const other = await generateKeyPair('ES256');
    const impostor = await client.discovery(
      new URL(foyer.urls.auth),
      foyer.demo.appId,
      undefined,
      client.PrivateKeyJwt({ key: other.privateKey, kid: 'app-key-1' }),
      insecure,
    );
    await refusedAsInvalidClient(client.refreshTokenGrant(impostor, tokens.refresh_token!));
  });
});

describe('passport-openidconnect (client_secret_post, without PKCE)', () => {
  let server: Server;
  let appUrl: string;
  let signedIn: { profile: Profile } | undefined;

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('signs in with the code flow and reads the profile from userinfo', async () => {
    const secret = await configureApp({ clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_post', requirePkce: false });
    await foyer.db
      .update(apps)
      .set({ redirectUris: [callbackUri(foyer), `${appUrl}/login/callback`] })
      .where(eq(apps.id, foyer.demo.appId));

    // As the strategy's README sets it up, with a state store in place of express-session.
    const states = new Map<string, SessionStoreContext>();
    const store = {
      store(
        _req: unknown,
        ctx: SessionStoreContext,
        _appState: unknown,
        _meta: unknown,
        done: (err: Error | null, handle?: string) => void,
      ) {
        const handle = crypto.randomUUID();
        states.set(handle, ctx);
        done(null, handle);
      },
      verify(_req: unknown, handle: string, done: (err: Error | null, ctx?: false | SessionStoreContext, state?: unknown) => void) {
        const ctx = states.get(handle);
        states.delete(handle);
        done(null, ctx ?? false, {});
      },
    } as unknown as SessionStore;
    passport.use(
      new OpenIDConnectStrategy(
        {
          issuer: foyer.urls.auth,
          authorizationURL: `${foyer.urls.auth}/authorize`,
          tokenURL: `${foyer.urls.auth}/token`,
          userInfoURL: `${foyer.urls.auth}/userinfo`,
          clientID: foyer.demo.appId,
          clientSecret: secret,
          callbackURL: `${appUrl}/login/callback`,
          scope: ['profile', 'email'],
          store,
        },
        (_issuer: string, profile: Profile, done: VerifyCallback) => done(null, { profile }),
      ),
    );
    const app = express();
    app.use(passport.initialize());
    app.get('/login', passport.authenticate('openidconnect', { session: false }));
    app.get('/login/callback', passport.authenticate('openidconnect', { session: false, failureRedirect: '/failed' }), (req, res) => {
      signedIn = req.user as { profile: Profile };
      res.send('ok');
    });
    server.on('request', app);

    const browser = new Browser();
    const toLogin = await browser.navigate(`${appUrl}/login`, (url) => url.origin === foyer.urls.ui);
    expect(toLogin.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
    await logIn(foyer, browser, owner().email, owner().password);
    const acme = (await workspaces(foyer, browser)).find((workspace) => workspace.tenant.name === 'Acme')!;
    const callback = await choose(foyer, browser, acme.id, `${appUrl}/login/callback`);
    const answer = await browser.request(callback);
    expect(await answer.text()).toBe('ok');
    expect(signedIn?.profile).toMatchObject({ id: acme.id, displayName: 'Olivia Owner', emails: [{ value: owner().email }] });
  });
});

describe('a resource server verifying access tokens with jose', () => {
  it('accepts an access token and refuses the ID token of the same sign-in', async () => {
    await configureApp({ clientType: 'public' });
    const rp = await client.discovery(new URL(foyer.urls.auth), foyer.demo.appId, undefined, client.None(), insecure);
    const { tokens } = await tokensFor(rp);
    const jwks = createRemoteJWKSet(new URL(`${foyer.urls.auth}/.well-known/jwks.json`));
    // As the README tells API builders: issuer, the app's resource as audience, and the access-token type.
    const check = (token: string) =>
      jwtVerify(token, jwks, {
        issuer: foyer.urls.auth,
        audience: `urn:foyer:app:${foyer.demo.appId}`,
        typ: 'at+jwt',
        algorithms: ['RS256'],
      });
    const { payload } = await check(tokens.access_token);
    expect(payload).toMatchObject({
      aid: foyer.demo.appId,
      role: 'OWNER',
      scope: 'AUTHENTICATED USER_READ USER_WRITE TENANT_READ TENANT_WRITE',
    });
    await expect(check(tokens.id_token!)).rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED' });
    // Even a verifier that ignores the type tells them apart by the audience.
    await expect(
      jwtVerify(tokens.id_token!, jwks, { issuer: foyer.urls.auth, audience: `urn:foyer:app:${foyer.demo.appId}` }),
    ).rejects.toMatchObject({ claim: 'aud' });
  });
});
