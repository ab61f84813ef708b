// Social sign-in end to end against the development identity provider (a real oidc-provider on its
// own port, server/dev-idp): /federated/{type}/login|signup, the provider's pick screen, the callback
// (redirect or Apple's form post) with state, nonce and PKCE checked, accounts made, linked only on a
// provider-verified e-mail, and the hostile cases: a mismatched or replayed state, a tampered nonce,
// a callback in another browser, an app's own credentials, production without them.
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import {
  auditEvents,
  federatedIdentities,
  federationStates,
  passkeys,
  pendingFederatedSignups,
  tenants,
  tenantUsers,
  users,
} from '../../../server/db/schema.ts';
import type { TokenPurpose } from '../../../server/auth/tokens/service.ts';
import { hashPassword } from '../../../server/auth/passwords.ts';
import { sealWrittenConfig } from '../../../server/admin/config-document.ts';
import { federationTypes } from '../../../common/app-config.ts';
import { Browser } from '../oidc/browser.ts';
import { authorizationRequest, callbackUri, relyingParty } from '../oidc/sign-in.ts';
import { bearer, postGraphQL } from '../support/graphql.ts';
import { mintAccessToken, type Membership } from '../support/tokens.ts';
import { call, mailTo, NEW_PASSWORD, tokenOf, waitForMail } from '../password/helpers.ts';
import { insertApp } from '../support/apps.ts';
import { federate, openCallback, openPickScreen, pickIdentity } from './dev-idp.ts';

let foyer: TestFoyer;

const ALL_ON: AppSettings = {
  googleSsoEnabled: true,
  azureAdSsoEnabled: true,
  appleSsoEnabled: true,
  facebookSsoEnabled: true,
  githubSsoEnabled: true,
  linkedinSsoEnabled: true,
};

beforeAll(async () => {
  foyer = await startFoyer();
});
afterAll(() => foyer?.close());

/** An app of its own per test, so identities made in one test do not meet another's. */
function socialApp(settings: AppSettings = {}) {
  return insertApp(foyer, { name: 'Social app', settings: { ...ALL_ON, tenantSelfSignup: true, ...settings } });
}

const start = (type: string, intent: 'login' | 'signup', appId: string) => `${foyer.urls.auth}/federated/${type}/${intent}?appId=${appId}`;

async function identitiesOf(appId: string) {
  return foyer.db.select().from(federatedIdentities).where(eq(federatedIdentities.appId, appId));
}

async function userOf(appId: string, email: string) {
  const [user] = await foyer.db
    .select()
    .from(users)
    .where(and(eq(users.appId, appId), eq(users.email, email)));
  return user;
}

/** One request without following the redirect. */
async function open(url: string, browser = new Browser()) {
  const response = await browser.request(url);
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

describe('getAppAnonymous', () => {
  it('lists the providers whose flag is on, in the login screen order', async () => {
    const appId = await insertApp(foyer, { settings: { googleSsoEnabled: true, githubSsoEnabled: true, passwordEnabled: false } });
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getAppAnonymous { passwordEnabled socialProviders googleSsoEnabled } }' },
      { 'x-app-id': appId },
    );
    expect(answer.body.data?.getAppAnonymous).toEqual({
      passwordEnabled: false,
      socialProviders: ['google', 'github'],
      googleSsoEnabled: true,
    });
  });
});

describe('signing up and in with each provider type through the development provider', () => {
  it.each(federationTypes)(
    '%s: signup makes an account with its own workspace, and the next login finds it by the subject',
    async (type) => {
      const appId = await socialApp();
      const signup = await federate(foyer, new Browser(), start(type, 'signup', appId), 'dev-ada');
      // One workspace, no pending authorization: the workspace choice, then the app's sign-in start.
      expect(signup.url.startsWith(foyer.urls.ui)).toBe(true);
      const user = await userOf(appId, 'ada@dev-idp.foyer.test');
      expect(user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', passwordHash: null });
      expect(user!.emailVerifiedAt).not.toBeNull();
      const memberships = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.userId, user!.id));
      expect(memberships).toMatchObject([{ role: 'OWNER', enabled: true }]);
      expect(await identitiesOf(appId)).toMatchObject([{ provider: type, subject: 'dev-ada', userId: user!.id }]);

      // A login in a fresh browser lands signed in (the workspace handover), not on the signup screen.
      const browser = new Browser();
      const login = await federate(foyer, browser, start(type, 'login', appId), 'dev-ada', (url) =>
        url.pathname.startsWith('/auth/chooseTenantUser/'),
      );
      expect(new URL(login.url).pathname).toBe(`/auth/chooseTenantUser/${memberships[0]!.id}`);
      expect(await identitiesOf(appId)).toHaveLength(1);
    },
  );

  it('finishes a pending authorization of the app: the app gets a code for the new account', async () => {
    const appId = await socialApp({ googleSsoEnabled: true });
    const callback = `${foyer.urls.ui}/auth/oauth-callback`;
    const pending = await authorizationRequest(await relyingParty(foyer, appId), callback);
    const browser = new Browser();
    const atLogin = await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
    expect(atLogin.url).toBe(`${foyer.urls.ui}/auth/login?appId=${appId}`);
    // The button carries no appId: the pending authorization names the app.
    const run = await federate(foyer, browser, `${foyer.urls.auth}/federated/google/signup`, 'dev-grace', (url) =>
      url.toString().startsWith(callback),
    );
    const landed = new URL(run.url);
    expect(landed.origin + landed.pathname).toBe(callback);
    expect(landed.searchParams.get('state')).toBe(pending.state);
    expect(landed.searchParams.get('code')).toBeTruthy();
  });

  it('sends a login of an unknown person to the continue screen when the app allows self-signup, else to the login error', async () => {
    const open = await socialApp();
    const run = await federate(foyer, new Browser(), start('ms-azure-ad', 'login', open), 'dev-grace');
    expect(run.url).toBe(`${foyer.urls.ui}/auth/signup?appId=${open}&error=missing_user&federation=ms-azure-ad`);
    expect(await userOf(open, 'grace@dev-idp.foyer.test')).toBeUndefined();

    const closed = await socialApp({ tenantSelfSignup: false });
    for (const intent of ['login', 'signup'] as const) {
      const refused = await federate(foyer, new Browser(), start('github', intent, closed), 'dev-grace');
      expect(refused.url).toBe(`${foyer.urls.ui}/auth/login?appId=${closed}&error=true`);
    }
    expect(await userOf(closed, 'grace@dev-idp.foyer.test')).toBeUndefined();
  });
});

describe('account linking', () => {
  async function passwordAccount(appId: string, email: string) {
    const id = randomUUID();
    await foyer.db.insert(users).values({ id, appId, email, passwordHash: await hashPassword('An0ther-Passw0rd!') });
    return id;
  }

  it('links an existing password account on an e-mail the provider says is verified', async () => {
    const appId = await socialApp();
    const userId = await passwordAccount(appId, 'Ada@dev-idp.foyer.test');
    await federate(foyer, new Browser(), start('google', 'login', appId), 'dev-ada');
    expect(await identitiesOf(appId)).toMatchObject([{ userId, provider: 'google', subject: 'dev-ada' }]);
    // Still one identity with that address, its password kept.
    const [user] = await foyer.db.select().from(users).where(eq(users.id, userId));
    expect(user!.passwordHash).not.toBeNull();
  });

  it('never merges into an existing account on an e-mail the provider does not vouch for, by login or by signup', async () => {
    const appId = await socialApp({ magicLinkEnabled: true });
    const userId = await passwordAccount(appId, 'una@dev-idp.foyer.test');
    const login = await federate(foyer, new Browser(), start('github', 'login', appId), 'dev-una');
    expect(login.url).toBe(`${foyer.urls.ui}/auth/login?appId=${appId}&error=federation&errorDetails=unverifiedEmail&federation=github`);
    // A signup answers as for a new address (it tells nobody the account exists), but holds and mails nothing.
    const before = (await mailTo(foyer, 'una@dev-idp.foyer.test')).length;
    const signup = await federate(foyer, new Browser(), start('github', 'signup', appId), 'dev-una');
    expect(signup.url).toBe(`${foyer.urls.ui}/auth/signup?appId=${appId}&federation=github&sent=una%40dev-idp.foyer.test`);
    // Mail goes out in order after the answers: the magic link asked for next is the only new one.
    await call(foyer, new Browser(), 'POST', '/auth/magic-link', { username: 'una@dev-idp.foyer.test' }, { appId });
    const mail = await waitForMail(foyer, 'una@dev-idp.foyer.test', before + 1);
    expect(mail.slice(before).map((sent) => sent.kind)).toEqual(['magic-link']);
    expect(await foyer.db.select().from(pendingFederatedSignups).where(eq(pendingFederatedSignups.appId, appId))).toEqual([]);
    expect(await identitiesOf(appId)).toEqual([]);
    expect(await foyer.db.select().from(users).where(eq(users.appId, appId))).toMatchObject([{ id: userId }]);
  });
});

describe('pre-account hijacking: an address nobody proved', () => {
  const UNA = 'una@dev-idp.foyer.test';
  const unverifiedEmail = (appId: string, type: string) =>
    `${foyer.urls.ui}/auth/login?appId=${appId}&error=federation&errorDetails=unverifiedEmail&federation=${type}`;

  /** Where a social signup on an unverified e-mail lands: the hosted "check your inbox" notice. */
  const heldSignup = (appId: string, type: string) =>
    `${foyer.urls.ui}/auth/signup?appId=${appId}&federation=${type}&sent=${encodeURIComponent(UNA)}`;
  const signupLinkExpired = () => `${foyer.urls.ui}/auth/login?error=federation&errorDetails=signupLinkExpired`;
  const toUi = (url: URL) => url.origin === foyer.urls.ui;

  /** A social signup as dev-una in `browser`: answers the link mailed to Una. */
  async function heldSignupLink(appId: string, browser: Browser, type = 'github') {
    const before = (await mailTo(foyer, UNA)).length;
    const run = await federate(foyer, browser, start(type, 'signup', appId), 'dev-una');
    expect(run.url).toBe(heldSignup(appId, type));
    return mailedLink(before, 'federated-signup');
  }

  async function nothingMadeIn(appId: string) {
    expect(await userOf(appId, UNA)).toBeUndefined();
    expect(await foyer.db.select().from(tenants).where(eq(tenants.appId, appId))).toEqual([]);
    expect(await identitiesOf(appId)).toEqual([]);
  }

  it('holds a social signup on an e-mail the provider does not vouch for: nothing usable is made until the mailed link is opened', async () => {
    const appId = await socialApp();
    const attacker = new Browser();
    const link = await heldSignupLink(appId, attacker, 'linkedin');
    await nothingMadeIn(appId);
    expect((await attacker.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui })).status).toBe(401);
    // A login on the unverified e-mail stays refused.
    const login = await federate(foyer, new Browser(), start('linkedin', 'login', appId), 'dev-una');
    expect(login.url).toBe(unverifiedEmail(appId, 'linkedin'));
    // The mailbox's owner (or a mail scanner) opening the link in another browser makes nothing for the stranger.
    const owner = new Browser();
    expect((await owner.navigate(link, toUi)).url).toBe(signupLinkExpired());
    await nothingMadeIn(appId);
    expect((await owner.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui })).status).toBe(401);
  });

  it('makes the account, its workspace and the provider link once the link is opened in the browser that signed up, and only once', async () => {
    const appId = await socialApp();
    const browser = new Browser();
    const link = await heldSignupLink(appId, browser);
    expect((await browser.navigate(link, toUi)).url.startsWith(foyer.urls.ui)).toBe(true);
    const user = await userOf(appId, UNA);
    expect(user).toMatchObject({ firstName: 'Una', lastName: 'Unverified', passwordHash: null });
    expect(user!.emailVerifiedAt).not.toBeNull();
    const memberships = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.userId, user!.id));
    expect(memberships).toMatchObject([{ role: 'OWNER', enabled: true }]);
    expect(await identitiesOf(appId)).toMatchObject([{ provider: 'github', subject: 'dev-una', userId: user!.id }]);
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui })).status).toBe(200);
    // Spent: opened again, it makes nothing more.
    expect((await browser.navigate(link, toUi)).url).toBe(signupLinkExpired());
    expect(await foyer.db.select().from(tenants).where(eq(tenants.appId, appId))).toHaveLength(1);
    // From now on the provider account signs in by its subject.
    const login = await federate(foyer, new Browser(), start('github', 'login', appId), 'dev-una', (url) =>
      url.pathname.startsWith('/auth/chooseTenantUser/'),
    );
    expect(new URL(login.url).pathname).toBe(`/auth/chooseTenantUser/${memberships[0]!.id}`);
  });

  it('refuses an expired link: nothing is made', async () => {
    const appId = await socialApp();
    const browser = new Browser();
    const link = await heldSignupLink(appId, browser);
    await foyer.db
      .update(pendingFederatedSignups)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(pendingFederatedSignups.appId, appId));
    expect((await browser.navigate(link, toUi)).url).toBe(signupLinkExpired());
    await nothingMadeIn(appId);
  });

  it('limits the sign-up links one address can be sent: a sixth signup within 15 minutes answers 429 and mails nothing', async () => {
    const appId = await socialApp();
    for (let attempt = 0; attempt < 5; attempt += 1) await heldSignupLink(appId, new Browser());
    const mailed = (await mailTo(foyer, UNA)).length;
    const refused = await federate(foyer, new Browser(), start('github', 'signup', appId), 'dev-una');
    expect(refused.status).toBe(429);
    await nothingMadeIn(appId);
    expect(await mailTo(foyer, UNA)).toHaveLength(mailed);
  });

  it("does not stand in the way of the address owner's password signup, after which the held link links nothing", async () => {
    const appId = await socialApp();
    const attacker = new Browser();
    const link = await heldSignupLink(appId, attacker);
    const before = (await mailTo(foyer, UNA)).length;
    const signup = await postGraphQL(
      foyer.urls.api,
      {
        query: 'mutation ($tenant: CreateTenantInput!) { createTenantAnonymous(tenant: $tenant) { id } }',
        variables: { tenant: { name: 'Real Una', owner: { email: UNA, password: NEW_PASSWORD } } },
      },
      { 'x-app-id': appId },
    );
    expect(signup.body.errors).toBeUndefined();
    await mailedLink(before, 'signup');
    const owner = await userOf(appId, UNA);
    expect(owner).toBeDefined();
    expect((await attacker.navigate(link, toUi)).url).toBe(
      `${foyer.urls.ui}/auth/login?appId=${appId}&error=federation&errorDetails=emailTaken`,
    );
    expect(await identitiesOf(appId)).toEqual([]);
    expect(await foyer.db.select().from(users).where(eq(users.appId, appId))).toMatchObject([{ id: owner!.id }]);
    expect(await foyer.db.select().from(tenants).where(eq(tenants.appId, appId))).toHaveLength(1);
  });

  /**
   * What a social signup on an unverified e-mail made before it was refused: an identity without a
   * password or a proven address, its own workspace (OWNER) and the provider link; and a passkey its
   * holder could add once signed in.
   */
  async function legacyUnverifiedAccount(appId: string) {
    const userId = randomUUID();
    const tenantId = randomUUID();
    const tenantUserId = randomUUID();
    await foyer.db.insert(users).values({ id: userId, appId, email: UNA, firstName: 'Una', lastName: 'Unverified', onboarded: true });
    await foyer.db.insert(tenants).values({ id: tenantId, appId, name: 'Una', onboarded: true });
    await foyer.db.insert(tenantUsers).values({ id: tenantUserId, tenantId, userId, role: 'OWNER', enabled: true, onboarded: true });
    await foyer.db
      .insert(federatedIdentities)
      .values({ id: randomUUID(), appId, userId, provider: 'github', subject: 'dev-una', email: UNA });
    await foyer.db
      .insert(passkeys)
      .values({ id: randomUUID(), userId, publicKey: 'attacker-key', deviceType: 'singleDevice', name: "The attacker's passkey" });
    return { userId, tenantUserId };
  }

  /** The attacker signs in to an app through the provider link: a browser signed in and a refresh token. */
  async function attackerSignsIn(appId: string) {
    const browser = new Browser();
    const rp = await relyingParty(foyer, appId);
    const pending = await authorizationRequest(rp, callbackUri(foyer));
    await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
    const run = await federate(foyer, browser, `${foyer.urls.auth}/federated/github/login`, 'dev-una', (url) =>
      url.toString().startsWith(callbackUri(foyer)),
    );
    const tokens = await client.authorizationCodeGrant(rp, new URL(run.url), {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
    });
    expect(tokens.refresh_token).toBeTruthy();
    return { browser, rp, refreshToken: tokens.refresh_token! };
  }

  /** Another identity of the app, OWNER of a workspace of its own: who invites. */
  async function inviter(appId: string): Promise<Membership> {
    const userId = randomUUID();
    const tenantId = randomUUID();
    const tenantUserId = randomUUID();
    const email = `${randomUUID().slice(0, 8)}@owners.foyer.test`;
    await foyer.db.insert(users).values({ id: userId, appId, email });
    await foyer.db.insert(tenants).values({ id: tenantId, appId, name: 'Inviting workspace', onboarded: true });
    await foyer.db.insert(tenantUsers).values({ id: tenantUserId, tenantId, userId, role: 'OWNER', enabled: true });
    return { tenantUserId, tenantId, appId, role: 'OWNER', email, plan: null };
  }

  /** The newest mail to Una in this app's run, after `before` mails. */
  async function mailedLink(before: number, kind: string) {
    const mail = await waitForMail(foyer, UNA, before + 1);
    expect(mail.at(-1)!.kind).toBe(kind);
    return mail.at(-1)!.link;
  }

  /** The address's owner proves it by a mailed link, each way there is; answers the owner's browser. */
  const proofs: Record<TokenPurpose, (appId: string) => Promise<Browser>> = {
    async signup(appId) {
      const owner = new Browser();
      const before = (await mailTo(foyer, UNA)).length;
      const signup = await postGraphQL(
        foyer.urls.api,
        {
          query: 'mutation ($tenant: CreateTenantInput!) { createTenantAnonymous(tenant: $tenant) { id } }',
          variables: { tenant: { name: 'Real Una', owner: { email: UNA, password: NEW_PASSWORD } } },
        },
        { 'x-app-id': appId },
      );
      expect(signup.body.errors).toBeUndefined();
      const link = await mailedLink(before, 'signup-existing');
      // The existing identity has no password: the link asks for one (the signup's is never taken for it).
      const set = await call(foyer, owner, 'PUT', '/auth/password', { token: tokenOf(link), password: NEW_PASSWORD }, { appId: null });
      expect(set.status).toBe(200);
      return owner;
    },
    async reset(appId) {
      const owner = new Browser();
      const before = (await mailTo(foyer, UNA)).length;
      expect((await call(foyer, owner, 'POST', '/auth/password', { username: UNA }, { appId })).status).toBe(200);
      const link = await mailedLink(before, 'reset');
      const set = await call(foyer, owner, 'PUT', '/auth/password', { token: tokenOf(link), password: NEW_PASSWORD }, { appId: null });
      expect(set.status).toBe(200);
      return owner;
    },
    async 'magic-link'(appId) {
      const owner = new Browser();
      const before = (await mailTo(foyer, UNA)).length;
      expect((await call(foyer, owner, 'POST', '/auth/magic-link', { username: UNA }, { appId })).status).toBe(200);
      const link = await mailedLink(before, 'magic-link');
      await owner.navigate(link, (url) => url.origin !== foyer.urls.auth);
      return owner;
    },
    async invite(appId) {
      const owner = new Browser();
      const before = (await mailTo(foyer, UNA)).length;
      const token = await mintAccessToken(foyer.db, await inviter(appId), { issuer: foyer.urls.auth });
      const invited = await postGraphQL(
        foyer.urls.api,
        { query: 'mutation ($names: [String!]!) { createUsers(userNames: $names) { id } }', variables: { names: [UNA] } },
        bearer(token),
      );
      expect(invited.body.errors).toBeUndefined();
      const link = await mailedLink(before, 'invite');
      const set = await call(foyer, owner, 'PUT', '/auth/password', { token: tokenOf(link), password: NEW_PASSWORD }, { appId: null });
      expect(set.status).toBe(200);
      return owner;
    },
  };

  it.each(Object.keys(proofs) as TokenPurpose[])(
    'drops the provider link, the passkey and every earlier session once the real owner proves the address by a %s link',
    async (proof) => {
      const appId = await socialApp({ magicLinkEnabled: true });
      const { userId } = await legacyUnverifiedAccount(appId);
      const attacker = await attackerSignsIn(appId);
      expect((await attacker.browser.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui })).status).toBe(200);

      const owner = await proofs[proof]!(appId);

      const [proven] = await foyer.db.select().from(users).where(eq(users.id, userId));
      expect(proven!.emailVerifiedAt).not.toBeNull();
      expect(await identitiesOf(appId)).toEqual([]);
      expect(await foyer.db.select().from(passkeys).where(eq(passkeys.userId, userId))).toEqual([]);
      // The attacker's refresh token and browser session died with the proof; the owner's own stays.
      await expect(client.refreshTokenGrant(attacker.rp, attacker.refreshToken)).rejects.toThrow();
      expect((await attacker.browser.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui })).status).toBe(401);
      expect((await owner.request(`${foyer.urls.auth}/auth/tenantUsers`, { origin: foyer.urls.ui })).status).toBe(200);
      // The provider's unverified word no longer reaches the account.
      const again = await federate(foyer, new Browser(), start('github', 'login', appId), 'dev-una');
      expect(again.url).toBe(unverifiedEmail(appId, 'github'));
      expect(await identitiesOf(appId)).toEqual([]);
      const audited = await foyer.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.appId, appId), eq(auditEvents.type, 'identity.email_proven')));
      expect(audited).toMatchObject([{ userId, detail: { method: proof, providerLinks: ['github'], passkeys: 1 } }]);
    },
  );

  it('leaves an address proven before alone: a later link drops no provider link', async () => {
    const appId = await socialApp({ magicLinkEnabled: true });
    await federate(foyer, new Browser(), start('google', 'signup', appId), 'dev-ada');
    const before = (await mailTo(foyer, 'ada@dev-idp.foyer.test')).length;
    const browser = new Browser();
    await call(foyer, browser, 'POST', '/auth/magic-link', { username: 'ada@dev-idp.foyer.test' }, { appId });
    const [mail] = (await waitForMail(foyer, 'ada@dev-idp.foyer.test', before + 1)).slice(-1);
    await browser.navigate(mail!.link, (url) => url.origin !== foyer.urls.auth);
    expect(await identitiesOf(appId)).toMatchObject([{ provider: 'google', subject: 'dev-ada' }]);
    expect(
      await foyer.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.appId, appId), eq(auditEvents.type, 'identity.email_proven'))),
    ).toEqual([]);
  });
});

describe('hostile callbacks', () => {
  it('refuses a callback whose state is not the one this browser started (and one from another browser)', async () => {
    const appId = await socialApp();
    const browser = new Browser();
    const uid = await openPickScreen(foyer, browser, start('google', 'login', appId));
    const callbackUrl = await pickIdentity(foyer, browser, uid, 'dev-ada');

    const elsewhere = await open(callbackUrl, new Browser());
    expect(elsewhere.status).toBe(400);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ error: 'FEDERATION_STATE_INVALID' });

    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('state', 'x'.repeat(43));
    const mismatch = await open(tampered.toString(), browser);
    expect(mismatch.status).toBe(400);
    expect(JSON.parse(mismatch.body)).toMatchObject({ error: 'FEDERATION_STATE_INVALID' });
    expect(await identitiesOf(appId)).toEqual([]);
  });

  it('refuses a replayed callback: the started sign-in is used once', async () => {
    const appId = await socialApp();
    const browser = new Browser();
    const uid = await openPickScreen(foyer, browser, start('google', 'signup', appId));
    const callbackUrl = await pickIdentity(foyer, browser, uid, 'dev-ada');
    const state = new URL(callbackUrl).searchParams.get('state')!;
    const first = await openCallback(foyer, browser, callbackUrl);
    expect(first.url.startsWith(foyer.urls.ui)).toBe(true);

    // The same callback again, even with the state cookie put back.
    const replay = await fetch(callbackUrl, { redirect: 'manual', headers: { cookie: `foyer_federation=${state}` } });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'FEDERATION_STATE_INVALID' });
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const appId = await socialApp();
    const browser = new Browser();
    const uid = await openPickScreen(foyer, browser, start('google', 'signup', appId));
    await foyer.db.update(federationStates).set({ nonce: 'a-nonce-foyer-never-sent' }).where(eq(federationStates.appId, appId));
    const callbackUrl = await pickIdentity(foyer, browser, uid, 'dev-ada');
    const answer = await open(callbackUrl, browser);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'FEDERATION_FAILED' });
    expect(await userOf(appId, 'ada@dev-idp.foyer.test')).toBeUndefined();
  });

  it('goes back to the login, signed in as nobody, when the person cancels at the provider', async () => {
    const appId = await socialApp();
    const browser = new Browser();
    const uid = await openPickScreen(foyer, browser, start('facebook', 'login', appId));
    const cancelled = await browser.request(`${foyer.config.devIdp.url}/interaction/${uid}/cancel`, { method: 'POST' });
    const back = await browser.navigate(
      new URL(cancelled.headers.get('location')!, foyer.config.devIdp.url).toString(),
      (url) => url.origin === foyer.urls.ui,
    );
    expect(back.url).toBe(`${foyer.urls.ui}/auth/login?appId=${appId}`);
    expect(browser.cookie(foyer.urls.auth, 'foyer_login')).toBeUndefined();
  });
});

describe('which provider serves an app', () => {
  it('answers a switched-off provider, a legacy-mode app and an unconfigured one alike: not available', async () => {
    const appId = await socialApp({ appleSsoEnabled: false });
    const legacy = await socialApp({ authLegacy: true });
    expect((await open(start('apple', 'login', appId))).location).toBe(
      `${foyer.urls.ui}/auth/login?appId=${appId}&error=federation&errorDetails=unavailable`,
    );
    expect((await open(start('google', 'login', legacy))).location).toBe(
      `${foyer.urls.ui}/auth/login?appId=${legacy}&error=federation&errorDetails=unavailable`,
    );
  });

  it("uses the app's own client (the real provider) once it has credentials, with PKCE and state", async () => {
    const appId = randomUUID();
    const stored = sealWrittenConfig(
      foyer.config,
      appId,
      {
        name: 'x',
        redirectUris: ['https://x.test/cb'],
        socialProviders: { github: { clientId: 'own-github-client', clientSecret: 'own-secret' } },
      },
      { name: 'x', redirectUris: [] },
    );
    await insertApp(foyer, { id: appId, settings: { ...ALL_ON, socialProviders: stored.socialProviders } });
    const answer = await open(start('github', 'login', appId));
    expect(answer.status).toBe(303);
    const url = new URL(answer.location!);
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'own-github-client',
      redirect_uri: `${foyer.urls.auth}/federated/github/callback`,
      code_challenge_method: 'S256',
      response_type: 'code',
    });
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.toString()).not.toContain('own-secret');
  });

  it('refuses an unknown provider type with 400 UNKNOWN_PROVIDER, and a missing or unknown app', async () => {
    const unknown = await open(`${foyer.urls.auth}/federated/myspace/login?appId=${foyer.demo.appId}`);
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body)).toMatchObject({ error: 'UNKNOWN_PROVIDER' });
    // The configuration key is not an address type: Microsoft is ms-azure-ad.
    expect((await open(`${foyer.urls.auth}/federated/azureAd/login?appId=${foyer.demo.appId}`)).status).toBe(400);
    expect(JSON.parse((await open(`${foyer.urls.auth}/federated/google/login`)).body)).toMatchObject({ error: 'APP_REQUIRED' });
    expect((await open(`${foyer.urls.auth}/federated/google/login?appId=${randomUUID()}`)).status).toBe(404);
  });
});

describe('an unreachable provider', () => {
  it('starts Foyer even when the development provider cannot listen, and answers 502 FEDERATION_PROVIDER_UNAVAILABLE, never a 500', async () => {
    // Another process holds the port and answers nothing Foyer understands.
    const holder = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    const cut = await startFoyer({ devIdp: { port, url: `http://localhost:${port}` } });
    try {
      const appId = await insertApp(cut, { settings: ALL_ON });
      const answer = await open(`${cut.urls.auth}/federated/google/login?appId=${appId}`);
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'FEDERATION_PROVIDER_UNAVAILABLE' });
    } finally {
      await cut.close();
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('production', () => {
  it('never uses the development provider, which does not even listen', async () => {
    const production = await startFoyer({ env: 'production' });
    try {
      const appId = await insertApp(production, { settings: ALL_ON });
      const answer = await open(`${production.urls.auth}/federated/google/login?appId=${appId}`);
      expect(answer.location).toBe(`${production.urls.ui}/auth/login?appId=${appId}&error=federation&errorDetails=unavailable`);
      await expect(fetch(`${production.config.devIdp.url}/.well-known/openid-configuration`)).rejects.toThrow();
    } finally {
      await production.close();
    }
  });
});
