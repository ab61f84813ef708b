// Drives Foyer's sign-in the way the hosted UI and an app do: openid-client as the relying party,
// the Browser for the full-page hops, the session endpoints for the login screens.
import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { expect } from 'vitest';
import type { TestFoyer } from '../../../server/testing.ts';
import { Browser } from './browser.ts';

export const SCOPE = 'openid profile email';

/** What the sign-in helpers need of a running Foyer: an in-process one, or a child (the load script). */
export type SignInTarget = Pick<TestFoyer, 'urls' | 'demo'>;

export function callbackUri(foyer: SignInTarget): string {
  return `${foyer.urls.ui}/auth/oauth-callback`;
}

export function relyingParty(foyer: SignInTarget, appId = foyer.demo.appId): Promise<client.Configuration> {
  return client.discovery(new URL(foyer.urls.auth), appId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
}

export interface PendingAuthorization {
  url: string;
  state: string;
  verifier: string;
}

export async function authorizationRequest(
  config: client.Configuration,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<PendingAuthorization> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { url: url.toString(), state, verifier };
}

export async function postJson(browser: Browser, url: string, body: unknown, origin?: string): Promise<Response> {
  return browser.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    origin,
  });
}

/** The login screens: e-mail, password; answers the authenticate answer. */
export async function logIn(foyer: SignInTarget, browser: Browser, email: string, password: string) {
  const ui = foyer.urls.ui;
  const config = await postJson(browser, `${foyer.urls.auth}/auth/credentialsConfig`, { username: email }, ui);
  expect(config.status).toBe(200);
  const authenticated = await postJson(browser, `${foyer.urls.auth}/auth/authenticate`, { username: email, password }, ui);
  expect(authenticated.status).toBe(200);
  return (await authenticated.json()) as { session: boolean; expiresIn: number; mfaState: string; tenantUserId?: string };
}

export async function workspaces(foyer: SignInTarget, browser: Browser) {
  const response = await browser.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string; role: string; email: string; tenant: { id: string; name: string } }[];
}

/** Picks a workspace and follows the handover until the browser lands on the app's callback. */
export async function choose(foyer: SignInTarget, browser: Browser, tenantUserId: string, redirectUri: string) {
  const landing = await browser.navigate(`${foyer.urls.auth}/auth/chooseTenantUser/${tenantUserId}`, (url) =>
    url.toString().startsWith(redirectUri),
  );
  return landing.url;
}

/**
 * The whole browser part of a sign-in: authorize → hosted login → credentials → workspace → the
 * app's callback URL (with code and state).
 */
export async function signIn(
  foyer: SignInTarget,
  options: { authorizeUrl: string; redirectUri: string; email: string; password: string; workspace: string; browser?: Browser },
) {
  const browser = options.browser ?? new Browser();
  const toLogin = await browser.navigate(options.authorizeUrl, (url) => url.origin === foyer.urls.ui);
  expect(toLogin.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
  await logIn(foyer, browser, options.email, options.password);
  const chosen = (await workspaces(foyer, browser)).find((workspace) => workspace.tenant.name === options.workspace);
  expect(chosen).toBeDefined();
  const callback = await choose(foyer, browser, chosen!.id, options.redirectUri);
  return { browser, callback: new URL(callback), tenantUserId: chosen!.id };
}

export function verifier(foyer: SignInTarget) {
  const jwks = createRemoteJWKSet(new URL(`${foyer.urls.auth}/.well-known/jwks.json`));
  return async (token: string, audience = foyer.demo.appId): Promise<JWTPayload> =>
    (await jwtVerify(token, jwks, { issuer: foyer.urls.auth, audience, algorithms: ['RS256'] })).payload;
}

export function demoUser(foyer: SignInTarget, index: number) {
  return foyer.demo.users[index]!;
}

/**
 * What the hosted sign-out screen does in a browser: posts the confirmation it was given back to the
 * auth service. Answers where the browser ends up.
 */
export async function confirmSignOut(foyer: Pick<TestFoyer, 'urls'>, browser: Browser, screenUrl: string): Promise<string> {
  const screen = new URL(screenUrl);
  expect(screen.origin + screen.pathname).toBe(`${foyer.urls.ui}/auth/sign-out`);
  const confirmed = await browser.request(`${foyer.urls.auth}/session/end/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf: screen.searchParams.get('xsrf')!, logout: 'yes' }).toString(),
    origin: foyer.urls.ui,
  });
  expect(confirmed.status).toBe(303);
  const landed = await browser.navigate(confirmed.headers.get('location')!, (url) => url.origin === foyer.urls.ui);
  return landed.url;
}

/** A refresh token of the person `email` in `workspace`, from a full sign-in in a browser of its own. */
export async function refreshTokenOf(
  foyer: SignInTarget,
  person: { email: string; password: string | null },
  workspace: string,
): Promise<string> {
  return (await tokensOf(foyer, person, workspace)).refresh_token!;
}

/** The tokens the demo app gets for the person `email` in `workspace`, from a full sign-in in a browser of its own. */
export async function tokensOf(
  foyer: SignInTarget,
  person: { email: string; password: string | null },
  workspace: string,
): Promise<client.TokenEndpointResponse> {
  const rp = await relyingParty(foyer);
  const pending = await authorizationRequest(rp, callbackUri(foyer));
  const { callback } = await signIn(foyer, {
    authorizeUrl: pending.url,
    redirectUri: callbackUri(foyer),
    email: person.email,
    password: person.password!,
    workspace,
  });
  return client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
}
