// Microsoft and Apple with an app's own credentials, against local stand-ins for their real addresses
// (./provider-stand-in.ts, reached through ServerConfig.providerFetch). Microsoft's multi-tenant
// authorities name an issuer template; an ID token's `iss` must be that template filled with the
// token's own `tid`, on Microsoft's host: a token from another host, for another tenant than its tid,
// or with a tid that is no tenant id is refused. Apple's client secret is an ES256 JWT signed per token
// request with the app's sealed .p8 key, and its form post's `user` JSON names a new account.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { federatedIdentities, users } from '../../../server/db/schema.ts';
import { sealWrittenConfig } from '../../../server/admin/config-document.ts';
import type { AppConfig } from '../../../common/app-config.ts';
import { APPLE_SECRET_TTL_SECONDS, appleClientSecret, appleUserName } from '../../../server/auth/federation/apple.ts';
import { checkAppConfig } from '../../../server/admin/validation.ts';
import { Browser } from '../oidc/browser.ts';
import { insertApp } from '../support/apps.ts';
import { startProviderStandIn, type ProviderStandIn } from './provider-stand-in.ts';

const MICROSOFT = 'https://login.microsoftonline.com';
const APPLE = 'https://appleid.apple.com';
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const OTHER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

let foyer: TestFoyer;
let microsoft: ProviderStandIn;
let apple: ProviderStandIn;
let appleKey: CryptoKeyPair;
let applePem: string;

beforeAll(async () => {
  // As Microsoft's own documents: the multi-tenant authorities name the template, a tenant its own issuer.
  microsoft = await startProviderStandIn(MICROSOFT, (path) =>
    ['/common/v2.0', '/organizations/v2.0'].includes(path) ? `${MICROSOFT}/{tenantid}/v2.0` : `${MICROSOFT}${path}`,
  );
  apple = await startProviderStandIn(APPLE, () => APPLE);
  appleKey = (await generateKeyPair('ES256', { extractable: true })) as CryptoKeyPair;
  applePem = await exportPKCS8(appleKey.privateKey);
  foyer = await startFoyer({
    providerFetch: (address, options) => (new URL(address).origin === APPLE ? apple : microsoft).fetch(address, options),
  });
});
afterAll(async () => {
  await foyer?.close();
  await microsoft?.close();
  await apple?.close();
});

async function appWith(socialProviders: NonNullable<AppConfig['socialProviders']>) {
  const appId = randomUUID();
  const stored = sealWrittenConfig(
    foyer.config,
    appId,
    { name: 'x', redirectUris: ['https://x.test/cb'], socialProviders },
    {
      name: 'x',
      redirectUris: [],
    },
  );
  await insertApp(foyer, {
    id: appId,
    settings: { azureAdSsoEnabled: true, appleSsoEnabled: true, tenantSelfSignup: true, socialProviders: stored.socialProviders },
  });
  return appId;
}

/** Starts a signup; answers the browser and the provider's authorization request as Foyer made it. */
async function startAt(type: string, appId: string) {
  const browser = new Browser();
  const started = await browser.request(`${foyer.urls.auth}/federated/${type}/signup?appId=${appId}`);
  expect(started.status).toBe(303);
  return { browser, authorization: new URL(started.headers.get('location')!) };
}

async function userOf(appId: string, email: string) {
  const [user] = await foyer.db
    .select()
    .from(users)
    .where(and(eq(users.appId, appId), eq(users.email, email)));
  return user;
}

describe('Microsoft with an app of its own (multi-tenant)', () => {
  const microsoftApp = () => appWith({ azureAd: { clientId: 'ms-client', clientSecret: 'ms-secret', tenant: 'organizations' } });

  it("signs up a person of any tenant: the ID token's iss is the template filled with its own tid", async () => {
    const appId = await microsoftApp();
    const { browser, authorization } = await startAt('ms-azure-ad', appId);
    expect(authorization.origin + authorization.pathname).toBe(`${MICROSOFT}/organizations/v2.0/authorize`);
    expect(authorization.searchParams.get('client_id')).toBe('ms-client');
    microsoft.nextIdToken({
      iss: `${MICROSOFT}/${TENANT}/v2.0`,
      tid: TENANT,
      sub: 'ms-subject-1',
      nonce: authorization.searchParams.get('nonce'),
      email: 'megan@contoso.test',
      // Without the provider's word on the e-mail nothing is signed up (federation.test.ts).
      email_verified: true,
      given_name: 'Megan',
      family_name: 'Bowen',
    });
    const callback = `${foyer.urls.auth}/federated/ms-azure-ad/callback?code=c1&state=${authorization.searchParams.get('state')}`;
    const landed = await browser.navigate(callback, (url) => url.origin === foyer.urls.ui);
    expect(new URL(landed.url).origin).toBe(foyer.urls.ui);
    expect(microsoft.tokenRequests.at(-1)?.get('client_secret')).toBe('ms-secret');
    const user = await userOf(appId, 'megan@contoso.test');
    expect(user).toMatchObject({ firstName: 'Megan', lastName: 'Bowen' });
    const identities = await foyer.db.select().from(federatedIdentities).where(eq(federatedIdentities.appId, appId));
    expect(identities).toMatchObject([{ provider: 'ms-azure-ad', subject: 'ms-subject-1', userId: user!.id }]);
  });

  it.each([
    ['an issuer on another host', { iss: `https://login.evil.test/${TENANT}/v2.0`, tid: TENANT }],
    ["another tenant's issuer than the token's tid", { iss: `${MICROSOFT}/${OTHER_TENANT}/v2.0`, tid: TENANT }],
    ['a tid that is no tenant id', { iss: `${MICROSOFT}/evil.test/v2.0`, tid: 'evil.test' }],
    ['no tid at all', { iss: `${MICROSOFT}/${TENANT}/v2.0` }],
  ])('refuses an ID token with %s', async (_case, issuer) => {
    const appId = await microsoftApp();
    const { browser, authorization } = await startAt('ms-azure-ad', appId);
    microsoft.nextIdToken({ ...issuer, sub: 'ms-hostile', nonce: authorization.searchParams.get('nonce'), email: 'eve@contoso.test' });
    const answer = await browser.request(
      `${foyer.urls.auth}/federated/ms-azure-ad/callback?code=c2&state=${authorization.searchParams.get('state')}`,
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: 'FEDERATION_FAILED' });
    expect(await userOf(appId, 'eve@contoso.test')).toBeUndefined();
  });

  it('uses the common authority when the app names no tenant', async () => {
    const appId = await appWith({ azureAd: { clientId: 'ms-client', clientSecret: 'ms-secret' } });
    const { authorization } = await startAt('ms-azure-ad', appId);
    expect(authorization.origin + authorization.pathname).toBe(`${MICROSOFT}/common/v2.0/authorize`);
  });
});

describe("Apple's client secret", () => {
  it('is an ES256 JWT from the team to Apple for the client, under the key id, living minutes', async () => {
    const now = Math.floor(Date.now() / 1000);
    const secret = await appleClientSecret({ teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: applePem }, 'com.example.web', now);
    expect(decodeProtectedHeader(secret)).toEqual({ alg: 'ES256', kid: 'KEY1234567' });
    const { payload } = await jwtVerify(secret, appleKey.publicKey, {
      issuer: 'TEAM123456',
      subject: 'com.example.web',
      audience: APPLE,
      algorithms: ['ES256'],
    });
    expect(payload.exp! - payload.iat!).toBe(APPLE_SECRET_TTL_SECONDS);
    expect(payload.exp! - now).toBeLessThanOrEqual(183 * 24 * 3600);
    // Signed by this key only: another key's public half does not verify it.
    const other = await generateKeyPair('ES256');
    await expect(jwtVerify(secret, other.publicKey)).rejects.toThrow();
  });

  it('reads only the name of the user form field, and nothing from anything else', () => {
    expect(appleUserName(JSON.stringify({ name: { firstName: 'Tim', lastName: 'Apple' }, email: 'x@y.test' }))).toEqual({
      firstName: 'Tim',
      lastName: 'Apple',
    });
    expect(appleUserName('not json')).toEqual({ firstName: null, lastName: null });
    expect(appleUserName(JSON.stringify({ name: 'Tim' }))).toEqual({ firstName: null, lastName: null });
    expect(appleUserName(undefined)).toEqual({ firstName: null, lastName: null });
  });
});

describe("the configurator's Apple key", () => {
  const documentWith = (clientSecret: string) => ({
    name: 'x',
    redirectUris: ['https://x.test/cb'],
    socialProviders: { apple: { clientId: 'com.example.web', clientSecret, teamId: 'TEAM123456', keyId: 'KEY1234567' } },
  });

  it('takes a .p8 key and refuses anything a client secret cannot be signed with, at its field', async () => {
    expect(checkAppConfig(documentWith(applePem), 'app', foyer.urls.api).socialProviders?.apple?.teamId).toBe('TEAM123456');
    const rsa = await generateKeyPair('RS256', { extractable: true });
    for (const unusable of ['not a key', await exportPKCS8(rsa.privateKey), applePem.replace(/[A-Za-z]{8}/, 'AAAAAAAA')]) {
      let refusal: unknown;
      try {
        checkAppConfig(documentWith(unusable), 'app', foyer.urls.api);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toMatchObject({
        statusCode: 400,
        details: [{ path: '/socialProviders/apple/clientSecret', code: 'applePrivateKey' }],
      });
    }
  });
});

describe('Apple with an app of its own', () => {
  it("asks by form post, signs each token request's secret with the app's key, and names the account from the user field", async () => {
    const appId = await appWith({
      apple: { clientId: 'com.example.web', clientSecret: applePem, teamId: 'TEAM123456', keyId: 'KEY1234567' },
    });
    const { browser, authorization } = await startAt('apple', appId);
    expect(authorization.origin + authorization.pathname).toBe(`${APPLE}/authorize`);
    expect(authorization.searchParams.get('response_mode')).toBe('form_post');
    expect(authorization.searchParams.get('scope')).toBe('openid email name');
    apple.nextIdToken({
      iss: APPLE,
      sub: '001234.apple-subject',
      nonce: authorization.searchParams.get('nonce'),
      email: 'tim@privaterelay.appleid.com',
      email_verified: 'true',
    });
    // Apple's page posts the answer to the callback; Foyer turns it into a GET in the same browser.
    const posted = await browser.request(`${foyer.urls.auth}/federated/apple/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        code: 'apple-code',
        state: authorization.searchParams.get('state')!,
        user: JSON.stringify({ name: { firstName: 'Tim', lastName: 'Apple' }, email: 'tim@privaterelay.appleid.com' }),
      }).toString(),
    });
    expect(posted.status).toBe(303);
    const landed = await browser.navigate(
      new URL(posted.headers.get('location')!, foyer.urls.auth).toString(),
      (url) => url.origin === foyer.urls.ui,
    );
    expect(new URL(landed.url).origin).toBe(foyer.urls.ui);

    const request = apple.tokenRequests.at(-1)!;
    expect(request.get('client_id')).toBe('com.example.web');
    const { payload } = await jwtVerify(request.get('client_secret')!, appleKey.publicKey, {
      issuer: 'TEAM123456',
      subject: 'com.example.web',
      audience: APPLE,
    });
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(APPLE_SECRET_TTL_SECONDS);
    expect(await userOf(appId, 'tim@privaterelay.appleid.com')).toMatchObject({ firstName: 'Tim', lastName: 'Apple' });
  });
});
