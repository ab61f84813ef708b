// Attacks on the authorization server: foreign redirect URIs, missing PKCE, replayed codes and
// refresh tokens, tokens of one app used for another, unknown apps. Each gets the right 4xx and
// gives nothing away (no code, no token, no e-mail).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents, oidcPayloads } from '../../../server/db/schema.ts';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../../server/auth/oidc/adapter.ts';
import { Browser } from './browser.ts';
import { authorizationRequest, callbackUri, relyingParty, signIn, verifier } from './sign-in.ts';
import { insertApp } from '../support/apps.ts';

let foyer: TestFoyer;
let otherAppId: string;

beforeAll(async () => {
  foyer = await startFoyer();
  otherAppId = randomUUID();
  await insertApp(foyer, { id: otherAppId, redirectUris: [`${foyer.urls.ui}/other/callback`] });
});

afterAll(async () => {
  await foyer?.close();
});

/** Nothing secret in an answer: no code, no token, no e-mail address. */
async function expectNothingLeaked(response: Response) {
  const body = await response.text();
  expect(body).not.toMatch(/access_token|refresh_token|id_token|[\w.+-]+@[\w-]+\.[\w.]+/);
  const location = response.headers.get('location') ?? '';
  expect(location).not.toMatch(/[?&]code=/);
  return body;
}

/** A signed-in admin of Acme with a code waiting at the app's callback. */
async function codeForAdmin() {
  const admin = foyer.demo.users[1]!;
  const rp = await relyingParty(foyer);
  const pending = await authorizationRequest(rp, callbackUri(foyer));
  const { callback } = await signIn(foyer, {
    authorizeUrl: pending.url,
    redirectUri: callbackUri(foyer),
    email: admin.email,
    password: admin.password,
    workspace: 'Acme',
  });
  return { rp, pending, callback };
}

function tokenRequest(form: Record<string, string>) {
  return fetch(`${foyer.urls.auth}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

describe('redirect URIs', () => {
  it.each([
    ['another origin', 'https://evil.example/auth/oauth-callback'],
    ['an extra path', '/auth/oauth-callback/extra'],
    ['another path', '/evil'],
    ['an extra query', '/auth/oauth-callback?next=https://evil.example'],
  ])('refuses %s at /authorize without redirecting', async (_name, uri) => {
    const rp = await relyingParty(foyer);
    const redirectUri = uri.startsWith('/') ? `${foyer.urls.ui}${uri}` : uri;
    const pending = await authorizationRequest(rp, redirectUri);
    const response = await new Browser().request(pending.url);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await expectNothingLeaked(response)).toContain('redirect_uri');
  });

  it('refuses unregistered redirect URIs at /url/login and /url/logout', async () => {
    for (const path of ['login', 'signup', 'logout']) {
      const response = await fetch(
        `${foyer.urls.auth}/url/${path}/${foyer.demo.appId}?redirectUri=${encodeURIComponent('https://evil.example/cb')}`,
        { redirect: 'manual' },
      );
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.json()).toEqual({
        statusCode: 400,
        message: 'The redirect URI is not registered for this app',
        error: 'INVALID_REDIRECT_URI',
      });
    }
  });
});

describe('PKCE', () => {
  it('refuses an authorization request without a code challenge', async () => {
    const rp = await relyingParty(foyer);
    const url = client.buildAuthorizationUrl(rp, { redirect_uri: callbackUri(foyer), scope: 'openid profile email', state: 's1' });
    const response = await new Browser().request(url.toString());
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(callbackUri(foyer));
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses the plain method', async () => {
    const rp = await relyingParty(foyer);
    const url = client.buildAuthorizationUrl(rp, {
      redirect_uri: callbackUri(foyer),
      scope: 'openid',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    });
    const response = await new Browser().request(url.toString());
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a code exchange without the verifier or with a wrong one', async () => {
    const { pending, callback } = await codeForAdmin();
    const code = callback.searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', client_id: foyer.demo.appId, code, redirect_uri: callbackUri(foyer) };
    for (const form of [base, { ...base, code_verifier: client.randomPKCECodeVerifier() }]) {
      const response = await tokenRequest(form);
      expect(response.status).toBe(400);
      expect(JSON.parse(await expectNothingLeaked(response))).toMatchObject({ error: 'invalid_grant' });
    }
    // The real client still gets its tokens.
    const good = await tokenRequest({ ...base, code_verifier: pending.verifier });
    expect(good.status).toBe(200);
  });
});

describe('replays', () => {
  it('refuses a replayed code and revokes what the first exchange issued', async () => {
    const { rp, pending, callback } = await codeForAdmin();
    const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
    const replay = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: foyer.demo.appId,
      code: callback.searchParams.get('code')!,
      redirect_uri: callbackUri(foyer),
      code_verifier: pending.verifier,
    });
    expect(replay.status).toBe(400);
    expect(JSON.parse(await expectNothingLeaked(replay))).toMatchObject({ error: 'invalid_grant' });
    await expect(client.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes the whole family when a rotated refresh token comes back after the grace window', async () => {
    const { rp, pending, callback } = await codeForAdmin();
    const first = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
    const second = await client.refreshTokenGrant(rp, first.refresh_token!);
    // The rotation happened longer ago than a second tab or a retry could explain.
    await foyer.db
      .update(oidcPayloads)
      .set({ consumedAt: new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000) })
      .where(and(eq(oidcPayloads.type, 'RefreshToken'), isNotNull(oidcPayloads.consumedAt)));

    const reuse = await tokenRequest({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: first.refresh_token! });
    expect(reuse.status).toBe(400);
    expect(JSON.parse(await expectNothingLeaked(reuse))).toMatchObject({ error: 'invalid_grant' });

    // The newer token belonged to the same family: it dies too.
    const newer = await tokenRequest({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: second.refresh_token! });
    expect(newer.status).toBe(400);
    await expectNothingLeaked(newer);

    const audited = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'token.refresh_reuse'), eq(auditEvents.appId, foyer.demo.appId)));
    expect(audited).toHaveLength(1);
  });
});

describe('two tabs refreshing at once', () => {
  it('lets a just-rotated refresh token be used again within the grace window, concurrently or a moment later', async () => {
    const { rp, pending, callback } = await codeForAdmin();
    const first = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
    const refresh = () => tokenRequest({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: first.refresh_token! });
    const together = await Promise.all([refresh(), refresh()]);
    expect(together.map((answer) => answer.status)).toEqual([200, 200]);
    const late = await refresh();
    expect(late.status).toBe(200);
    // Every successor still works: the family was not revoked.
    for (const answer of [...together, late]) {
      const { refresh_token: successor } = (await answer.json()) as { refresh_token: string };
      expect((await tokenRequest({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: successor })).status).toBe(200);
    }
  });
});

describe('one app, one audience', () => {
  it('refuses app A tokens and codes for app B', async () => {
    const { rp, pending, callback } = await codeForAdmin();
    const code = callback.searchParams.get('code')!;
    const asOther = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: otherAppId,
      code,
      redirect_uri: callbackUri(foyer),
      code_verifier: pending.verifier,
    });
    expect(asOther.status).toBe(400);
    await expectNothingLeaked(asOther);

    const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
    const verify = verifier(foyer);
    await expect(verify(tokens.access_token, otherAppId)).rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'aud' });
    await expect(verify(tokens.id_token!, otherAppId)).rejects.toMatchObject({ claim: 'aud' });

    const refreshAsOther = await tokenRequest({ grant_type: 'refresh_token', client_id: otherAppId, refresh_token: tokens.refresh_token! });
    expect(refreshAsOther.status).toBe(400);
    await expectNothingLeaked(refreshAsOther);
    const shorthand = await fetch(`${foyer.urls.auth}/token/refresh/${otherAppId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: tokens.refresh_token }),
    });
    expect(shorthand.status).toBe(400);
    expect(await shorthand.json()).toMatchObject({ statusCode: 400, error: 'INVALID_GRANT' });

    // The rightful app still refreshes: the attempts above did not burn its token.
    const renewed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
    expect((await verify(renewed.access_token)).aud).toEqual([foyer.demo.appId, `urn:foyer:app:${foyer.demo.appId}`]);
  });

  it('refuses a resource indicator naming another app', async () => {
    const rp = await relyingParty(foyer);
    const pending = await authorizationRequest(rp, callbackUri(foyer), { resource: `urn:foyer:app:${otherAppId}` });
    const response = await new Browser().request(pending.url);
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });
});

describe('unknown apps', () => {
  it('answers 404 UNKNOWN_APP on the shorthands and an error page at /authorize', async () => {
    const unknown = randomUUID();
    for (const path of [`/url/login/${unknown}`, `/url/signup/${unknown}`, `/url/logout/${unknown}`]) {
      const response = await fetch(`${foyer.urls.auth}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, message: 'Unknown app', error: 'UNKNOWN_APP' });
    }
    for (const path of [`/token/code/${unknown}`, `/token/refresh/${unknown}`]) {
      const response = await fetch(`${foyer.urls.auth}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: 'x', codeVerifier: 'y', refreshToken: 'z' }),
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'UNKNOWN_APP' });
    }
    const authorize = await fetch(
      `${foyer.urls.auth}/authorize?client_id=${unknown}&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(callbackUri(foyer))}`,
      { redirect: 'manual' },
    );
    expect(authorize.status).toBe(400);
    expect(authorize.headers.get('location')).toBeNull();
  });

  it('answers bad shorthand bodies with 400 and wrong content types with 415', async () => {
    const url = `${foyer.urls.auth}/token/code/${foyer.demo.appId}`;
    const missing = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"codeVerifier":"x"}' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST', message: expect.stringContaining('code') });
    // A public app's code needs its verifier: without one, oidc-provider finds no grant to give.
    const unproven = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code":"x"}' });
    expect(unproven.status).toBe(400);
    expect(await unproven.json()).toMatchObject({ error: 'INVALID_GRANT' });
    const broken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code":' });
    expect(broken.status).toBe(400);
    const form = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<code/>' });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ statusCode: 415, error: 'UNSUPPORTED_MEDIA_TYPE' });
    const badCode = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'not-a-code', codeVerifier: client.randomPKCECodeVerifier() }),
    });
    expect(badCode.status).toBe(400);
    expect(await badCode.json()).toMatchObject({ error: 'INVALID_GRANT' });
    const jsonToken = await fetch(`${foyer.urls.auth}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: ['x'] }),
    });
    expect(jsonToken.status).toBe(400);
    expect(await jsonToken.json()).toMatchObject({ error: 'BAD_REQUEST' });
  });
});

describe("the provider's own answers", () => {
  it('answers addresses it has no route for in the JSON error shape', async () => {
    for (const path of ['/.well-known/nope', '/session/end/nope', '/token']) {
      const answer = await fetch(`${foyer.urls.auth}${path}`);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(await answer.json()).toEqual({ statusCode: 404, error: 'NOT_FOUND', message: 'Not found' });
    }
  });

  it('sends its pages with a strict policy that allows only its own script and no framing', async () => {
    // A logout with nobody signed in: oidc-provider's self-submitting form page.
    const page = await fetch(`${foyer.urls.auth}/session/end?client_id=${foyer.demo.appId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });
});
