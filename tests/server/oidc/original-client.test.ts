// The original product's Node client (@nebulr-group/nblocks-ts-client), pointed at Foyer through its
// own environment variables, against a confidential app: its login URL (no PKCE), code exchange and
// refresh through the JSON shorthands, token verification, and the handover code. It sends no client
// secret, so its HTTP client carries the app's API key, which authenticates the app at the shorthands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { NblocksClient } from '@nebulr-group/nblocks-ts-client';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps } from '../../../server/db/schema.ts';
import { rotateClientSecret } from '../../../server/apps/client-secret.ts';
import { replaceApiKey } from '../../../server/apps/api-keys.ts';
import { insertApp } from '../support/apps.ts';
import { Browser } from './browser.ts';
import { callbackUri, choose, logIn, workspaces } from './sign-in.ts';

let foyer: TestFoyer;
let apiKey: string;
let nblocks: NblocksClient;

beforeAll(async () => {
  foyer = await startFoyer();
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({ settings: { ...app!.settings, clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_basic', requirePkce: false } })
    .where(eq(apps.id, foyer.demo.appId));
  await rotateClientSecret(foyer.db, foyer.config.secret, foyer.demo.appId);
  apiKey = await replaceApiKey(foyer.db, foyer.demo.appId);
  process.env.NBLOCKS_AUTH_API_URL = foyer.urls.auth;
  process.env.NBLOCKS_AUTH_ISSUER = foyer.urls.auth;
  nblocks = new NblocksClient({ appId: foyer.demo.appId, apiKey, stage: 'DEV' });
  nblocks.getHttpClient().defaults.headers.common['x-api-key'] = apiKey;
});
afterAll(() => foyer?.close());

async function signInThroughLoginUrl(): Promise<string> {
  const owner = foyer.demo.users[0]!;
  const browser = new Browser();
  const toLogin = await browser.navigate(
    nblocks.auth.getLoginUrl({ redirectUri: callbackUri(foyer), state: 'from-node' }),
    (url) => url.origin === foyer.urls.ui,
  );
  expect(toLogin.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
  await logIn(foyer, browser, owner.email, owner.password);
  const acme = (await workspaces(foyer, browser)).find((workspace) => workspace.tenant.name === 'Acme')!;
  const callback = new URL(await choose(foyer, browser, acme.id, callbackUri(foyer)));
  expect(callback.searchParams.get('state')).toBe('from-node');
  return callback.searchParams.get('code')!;
}

describe('the original Node client', () => {
  it('signs in through its login URL, exchanges and refreshes, and verifies what it gets', async () => {
    const code = await signInThroughLoginUrl();
    const { tokens, authContext, profile } = await nblocks.auth.getTokensAndVerify(code, { redirectUri: callbackUri(foyer) });
    expect(authContext).toMatchObject({ appId: foyer.demo.appId, userRole: 'OWNER', email: foyer.demo.users[0]!.email });
    expect(authContext.privileges).toEqual(['AUTHENTICATED', 'USER_READ', 'USER_WRITE', 'TENANT_READ', 'TENANT_WRITE']);
    expect(profile).toMatchObject({ email: foyer.demo.users[0]!.email, fullName: 'Olivia Owner', tenant: { name: 'Acme' } });

    const renewed = await nblocks.auth.refreshTokensAndVerify(tokens.refresh_token);
    expect(renewed.authContext.userRole).toBe('OWNER');
  });

  it('turns an access token into a handover code that opens a session of the same membership', async () => {
    const { tokens, authContext } = await nblocks.auth.getTokensAndVerify(await signInThroughLoginUrl(), {
      redirectUri: callbackUri(foyer),
    });
    const { code } = await nblocks.auth.getHandoverCode(tokens.access_token);
    expect(code).toMatch(/^[\w-]{20,}$/);

    const redeemed = await fetch(`${foyer.urls.auth}/token/code/${foyer.demo.appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ code }),
    });
    expect(redeemed.status).toBe(200);
    const handedOver = (await redeemed.json()) as { access_token: string };
    expect((await nblocks.auth.contextHelper.getAuthContextVerified(handedOver.access_token)).userId).toBe(authContext.userId);

    // A code is good once.
    const again = await fetch(`${foyer.urls.auth}/token/code/${foyer.demo.appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ code }),
    });
    expect(again.status).toBe(400);
  });

  it('refuses a handover code without the app key, with another app key, or for a token that is not an access token of the app', async () => {
    const { tokens } = await nblocks.auth.getTokensAndVerify(await signInThroughLoginUrl(), { redirectUri: callbackUri(foyer) });
    const otherApp = await insertApp(foyer);
    const otherKey = await replaceApiKey(foyer.db, otherApp);
    const ask = (headers: Record<string, string>, accessToken: string, appId = foyer.demo.appId) =>
      fetch(`${foyer.urls.auth}/handover/code/${appId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ accessToken }),
      });
    for (const answer of [
      await ask({}, tokens.access_token),
      await ask({ 'x-api-key': otherKey }, tokens.access_token),
      await ask({ 'x-api-key': otherKey }, tokens.access_token, otherApp),
      await ask({ 'x-api-key': apiKey }, tokens.id_token!),
      await ask({ 'x-api-key': apiKey }, `${tokens.access_token.slice(0, -4)}AAAA`),
    ]) {
      expect(answer.status).toBe(401);
      expect(await answer.json()).toMatchObject({ statusCode: 401, error: 'UNAUTHENTICATED' });
    }
    // Without the key, the code exchange of a confidential app is refused too.
    const code = await signInThroughLoginUrl();
    const unauthenticated = await fetch(`${foyer.urls.auth}/token/code/${foyer.demo.appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, redirectUri: callbackUri(foyer) }),
    });
    expect(unauthenticated.status).toBe(401);
  });
});
