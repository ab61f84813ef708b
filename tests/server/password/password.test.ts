// Password reset and set password on the auth service: identical answers for known and unknown
// e-mails, single-use expiring links, the app's password policy, and the sign-in a link ends in.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { and, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { loadConfig } from '../../../server/config.ts';
import { apps, auditEvents, tenants, tenantUsers, userTokens, users } from '../../../server/db/schema.ts';
import { hashPassword } from '../../../server/auth/passwords.ts';
import { hashToken, issueToken } from '../../../server/auth/tokens/service.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import { Browser } from '../oidc/browser.ts';
import { authorizationRequest, callbackUri, choose, relyingParty, workspaces } from '../oidc/sign-in.ts';
import { call, createMember, mailTo, NEW_PASSWORD, observable, tokenOf, waitForMail } from './helpers.ts';
import { insertApp } from '../support/apps.ts';

const RESET_TTL = 1800;
let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer({ trustProxy: ['127.0.0.1'], resetTokenTtlSeconds: RESET_TTL });
});

afterAll(async () => {
  await foyer?.close();
});

/** Asks for a reset link for `email` and answers the link once the mail is there. */
async function resetLink(email: string, ip: string, browser = new Browser()): Promise<string> {
  const before = (await mailTo(foyer, email)).length;
  const answer = await call(foyer, browser, 'POST', '/auth/password', { username: email }, { ip });
  expect(answer.status).toBe(200);
  const mail = await waitForMail(foyer, email, before + 1);
  expect(mail.at(-1)!.kind).toBe('reset');
  return mail.at(-1)!.link;
}

const setPassword = (browser: Browser, token: string, password?: string) =>
  call(foyer, browser, 'PUT', '/auth/password', password === undefined ? { token } : { token, password }, { appId: null });

const describeLink = (token: string) => call(foyer, new Browser(), 'GET', `/auth/password/${token}`, undefined, { appId: null });

async function withSettings(change: Partial<AppSettings>, run: () => Promise<void>) {
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({ settings: { ...app!.settings, ...change } })
    .where(eq(apps.id, foyer.demo.appId));
  try {
    await run();
  } finally {
    await foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, foyer.demo.appId));
  }
}

const LINK_EXPIRED = { statusCode: 400, error: 'LINK_EXPIRED' };

describe('asking for a reset link', () => {
  it('answers known and unknown e-mails identically and mails only the known one', async () => {
    const member = await createMember(foyer);
    const unknown = 'nobody-here@members.foyer.test';
    const unknownAnswer = await call(foyer, new Browser(), 'POST', '/auth/password', { username: unknown }, { ip: '10.1.0.1' });
    const knownAnswer = await call(
      foyer,
      new Browser(),
      'POST',
      '/auth/password',
      { username: ` ${member.email.toUpperCase()} ` },
      { ip: '10.1.0.1' },
    );
    const known = await observable(knownAnswer);
    expect(known).toEqual(await observable(unknownAnswer));
    expect(known.status).toBe(200);
    expect(JSON.parse(known.body)).toEqual({});

    const mail = await waitForMail(foyer, member.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.link).toMatch(new RegExp(`^${foyer.urls.ui}/auth/set-password/[\\w-]{43}$`));
    // The unknown address was handled first; the queue runs in order, so it is settled: no mail.
    expect(await mailTo(foyer, unknown)).toEqual([]);
    const requests = await foyer.db.select().from(auditEvents).where(eq(auditEvents.type, 'password.reset_requested'));
    expect(requests.map((event) => event.detail.username)).toEqual(expect.arrayContaining([unknown, member.email]));
  });

  it('issues links that live the configured time and are stored only hashed', async () => {
    const member = await createMember(foyer);
    const token = tokenOf(await resetLink(member.email, '10.1.0.2'));
    const [row] = await foyer.db
      .select()
      .from(userTokens)
      .where(eq(userTokens.idHash, hashToken(token)));
    expect(row).toMatchObject({ purpose: 'reset', userId: member.userId, usedAt: null });
    const lifetime = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 1000;
    expect(Math.abs(lifetime - RESET_TTL)).toBeLessThan(60);
    expect(JSON.stringify(await foyer.db.select().from(userTokens))).not.toContain(token);
  });

  it('limits requests per address and per client address, alike for unknown e-mails', async () => {
    const member = await createMember(foyer);
    const statuses = async (email: string, ip: string) => {
      const seen: number[] = [];
      for (let i = 0; i < 7; i += 1)
        seen.push((await call(foyer, new Browser(), 'POST', '/auth/password', { username: email }, { ip })).status);
      return seen;
    };
    const forKnown = await statuses(member.email, '10.1.1.1');
    expect(forKnown).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(await statuses('ghost-reset@members.foyer.test', '10.1.1.2')).toEqual(forKnown);
    const refused = await call(foyer, new Browser(), 'POST', '/auth/password', { username: member.email }, { ip: '10.1.1.3' });
    expect(await refused.json()).toMatchObject({ statusCode: 429, error: 'TOO_MANY_REQUESTS' });
    expect(refused.headers.get('retry-after')).toBe('60');
    await waitForMail(foyer, member.email, 5);

    // One client address spraying many e-mails.
    for (let i = 0; i < 30; i += 1) {
      const answer = await call(
        foyer,
        new Browser(),
        'POST',
        '/auth/password',
        { username: `spray-${i}@members.foyer.test` },
        { ip: '10.1.2.1' },
      );
      expect(answer.status).toBe(200);
    }
    const sprayed = await call(
      foyer,
      new Browser(),
      'POST',
      '/auth/password',
      { username: 'spray-last@members.foyer.test' },
      { ip: '10.1.2.1' },
    );
    expect(sprayed.status).toBe(429);
    const elsewhere = await call(
      foyer,
      new Browser(),
      'POST',
      '/auth/password',
      { username: 'spray-last@members.foyer.test' },
      { ip: '10.1.2.2' },
    );
    expect(elsewhere.status).toBe(200);
  });

  it('refuses bad input with 400 and a code', async () => {
    const browser = new Browser();
    const cases: [unknown, string][] = [
      [{}, "body must have required property 'username'"],
      [{ username: 'not-an-email' }, 'body/username must match pattern'],
      [{ username: { nested: true } }, 'body/username must be string'],
      [{ username: `${'a'.repeat(320)}@x.test` }, 'body/username must NOT have more than 320 characters'],
    ];
    for (const [body, message] of cases) {
      const answer = await call(foyer, browser, 'POST', '/auth/password', body, { ip: '10.1.3.1' });
      expect(answer.status).toBe(400);
      const error = (await answer.json()) as { statusCode: number; error: string; message: string };
      expect(error).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
      expect(error.message).toContain(message);
    }
    const noApp = await call(foyer, browser, 'POST', '/auth/password', { username: 'a@b.test' }, { appId: null, ip: '10.1.3.1' });
    expect(noApp.status).toBe(400);
    expect(await noApp.json()).toMatchObject({ statusCode: 400, error: 'APP_REQUIRED' });
    const unknownApp = await call(
      foyer,
      browser,
      'POST',
      '/auth/password',
      { username: 'a@b.test' },
      { appId: 'no-such-app', ip: '10.1.3.1' },
    );
    expect(unknownApp.status).toBe(404);
  });

  it('lets the hosted UI send PUT with credentials', async () => {
    const preflight = await fetch(`${foyer.urls.auth}/auth/password`, {
      method: 'OPTIONS',
      headers: { origin: foyer.urls.ui, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
  });
});

describe('setting the password with a reset link', () => {
  it('sets the password, signs the browser in and finishes the pending authorization', async () => {
    const member = await createMember(foyer, { workspaces: ['Globex'] });
    const rp = await relyingParty(foyer);
    const pending = await authorizationRequest(rp, callbackUri(foyer));
    const browser = new Browser();
    const atLogin = await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
    expect(atLogin.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);

    // The login screen hands the e-mail to the reset screen; the link opens in the same browser.
    const link = await resetLink(member.email, '10.2.0.1', browser);
    const token = tokenOf(link);
    const described = await describeLink(token);
    expect(described.status).toBe(200);
    expect(await described.json()).toEqual({ email: member.email, purpose: 'reset', passwordChosen: false });

    const before = browser.cookie(foyer.urls.auth, 'foyer_login');
    const set = await setPassword(browser, token, NEW_PASSWORD);
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ session: true, expiresIn: 86400, mfaState: 'DISABLED', tenantUserId: member.memberships.Globex });
    expect(browser.cookie(foyer.urls.auth, 'foyer_login')).not.toBe(before);

    const callback = await choose(foyer, browser, member.memberships.Globex!, callbackUri(foyer));
    const tokens = await client.authorizationCodeGrant(rp, new URL(callback), {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
    });
    expect(tokens.claims()?.sub).toBe(member.memberships.Globex);

    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.userId));
    expect(user!.emailVerifiedAt).toBeInstanceOf(Date);
    const [success] = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'login.success'), eq(auditEvents.userId, member.userId)));
    expect(success!.detail).toEqual({ username: member.email, method: 'reset' });

    // The new password signs in; the old one does not.
    const other = new Browser();
    const withNew = await call(foyer, other, 'POST', '/auth/authenticate', { username: member.email, password: NEW_PASSWORD });
    expect(withNew.status).toBe(200);
    const withOld = await call(foyer, other, 'POST', '/auth/authenticate', { username: member.email, password: member.password });
    expect(withOld.status).toBe(401);

    // Used once, the link is dead.
    expect(await (await setPassword(new Browser(), token, 'Another-secret-99!')).json()).toMatchObject(LINK_EXPIRED);
    expect(await (await describeLink(token)).json()).toMatchObject(LINK_EXPIRED);
  });

  it('hands the workspace chosen after the password was set to the app’s next sign-in', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme', 'Globex'] });
    const browser = new Browser();
    const token = tokenOf(await resetLink(member.email, '10.2.1.1', browser));
    const set = await setPassword(browser, token, NEW_PASSWORD);
    expect(await set.json()).toEqual({ session: true, expiresIn: 86400, mfaState: 'DISABLED' });
    expect((await workspaces(foyer, browser)).map((workspace) => workspace.tenant.name)).toEqual(['Acme', 'Globex']);

    // No authorization was waiting: the workspace choice sends the browser to the app's start...
    const started = await browser.request(`${foyer.urls.auth}/auth/chooseTenantUser/${member.memberships.Acme}`);
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toBe(`${foyer.urls.ui}/?appId=${foyer.demo.appId}`);
    // ...whose authorization request finishes with that choice, asking nothing again.
    const rp = await relyingParty(foyer);
    const pending = await authorizationRequest(rp, callbackUri(foyer));
    const callback = await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
    expect(new URL(callback.url).pathname).toBe('/auth/oauth-callback');
    const tokens = await client.authorizationCodeGrant(rp, new URL(callback.url), {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
    });
    expect(tokens.claims()?.sub).toBe(member.memberships.Acme);

    // An app that asks for the credentials again gets the login screen.
    const forced = await authorizationRequest(rp, callbackUri(foyer), { prompt: 'login' });
    expect((await browser.navigate(forced.url, (url) => url.origin === foyer.urls.ui)).url).toBe(
      `${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`,
    );
  });

  it('refuses a password the app’s policy rejects, and the link keeps working', async () => {
    const member = await createMember(foyer);
    const token = tokenOf(await resetLink(member.email, '10.2.2.1'));
    const browser = new Browser();

    const weak = await setPassword(browser, token, 'short');
    expect(weak.status).toBe(400);
    expect(await weak.json()).toEqual({
      statusCode: 400,
      error: 'PASSWORD_POLICY',
      message: 'Minimal length: 10 characters; Should contain uppercase letter; Should contain digit; Should contain special character',
      details: {
        field: 'password',
        problems: ['password.policy.minLength', 'password.policy.uppercase', 'password.policy.digit', 'password.policy.special'],
        issues: [
          { code: 'password.policy.minLength', params: {}, message: 'Minimal length: 10 characters' },
          { code: 'password.policy.uppercase', params: {}, message: 'Should contain uppercase letter' },
          { code: 'password.policy.digit', params: {}, message: 'Should contain digit' },
          { code: 'password.policy.special', params: {}, message: 'Should contain special character' },
        ],
      },
    });
    const missing = await setPassword(browser, token);
    expect(await missing.json()).toMatchObject({
      error: 'PASSWORD_POLICY',
      details: { field: 'password', problems: ['password.policy.empty'] },
    });

    await withSettings({ passwordPolicy: { complexityRegex: '[a-z]{4}-[0-9]{4}' } }, async () => {
      const rejected = await setPassword(browser, token, NEW_PASSWORD);
      expect(await rejected.json()).toMatchObject({ error: 'PASSWORD_POLICY', details: { problems: ['password.policy.complexity'] } });
    });
    await withSettings({ passwordPolicy: { enabled: false } }, async () => {
      // Off means any password — but never an empty one.
      expect(await (await setPassword(browser, token, '')).json()).toMatchObject({ error: 'PASSWORD_POLICY' });
      const accepted = await setPassword(browser, token, 'short');
      expect(accepted.status).toBe(200);
    });
    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.userId));
    expect(user!.passwordHash).not.toBeNull();
  });

  it('refuses an expired link and a link replaced by a newer one', async () => {
    const member = await createMember(foyer);
    const older = tokenOf(await resetLink(member.email, '10.2.3.1'));
    const newer = tokenOf(await resetLink(member.email, '10.2.3.1'));
    expect(newer).not.toBe(older);
    const stale = await setPassword(new Browser(), older, NEW_PASSWORD);
    expect(stale.status).toBe(400);
    expect(await stale.json()).toEqual({ statusCode: 400, error: 'LINK_EXPIRED', message: 'The link has expired or was already used' });

    await foyer.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.idHash, hashToken(newer)));
    expect(await (await describeLink(newer)).json()).toMatchObject(LINK_EXPIRED);
    expect(await (await setPassword(new Browser(), newer, NEW_PASSWORD)).json()).toMatchObject(LINK_EXPIRED);
    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.userId));
    expect(user!.emailVerifiedAt).toBeNull();
  });

  it('retires the user’s other reset links and ends their other sign-ins when the password changes', async () => {
    const member = await createMember(foyer);
    const elsewhere = new Browser();
    expect((await call(foyer, elsewhere, 'POST', '/auth/authenticate', { username: member.email, password: member.password })).status).toBe(
      200,
    );
    expect((await elsewhere.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(200);

    const token = tokenOf(await resetLink(member.email, '10.2.4.1'));
    // The endpoint never leaves two live reset links (a new one retires the older); revive the older
    // to see that using one link retires the rest.
    const second = tokenOf(await resetLink(member.email, '10.2.4.1'));
    await foyer.db
      .update(userTokens)
      .set({ usedAt: null })
      .where(eq(userTokens.idHash, hashToken(token)));
    expect((await describeLink(token)).status).toBe(200);

    expect((await setPassword(new Browser(), second, NEW_PASSWORD)).status).toBe(200);
    expect(await (await describeLink(token)).json()).toMatchObject(LINK_EXPIRED);
    expect((await elsewhere.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
  });

  it('refuses bad input with 400 and a code', async () => {
    const browser = new Browser();
    const missingToken = await call(foyer, browser, 'PUT', '/auth/password', { password: NEW_PASSWORD }, { appId: null });
    expect(missingToken.status).toBe(400);
    expect(await missingToken.json()).toEqual({
      statusCode: 400,
      error: 'BAD_REQUEST',
      message: "body must have required property 'token'",
    });
    // A mangled token is a link that no longer works, with the way to a new one.
    const oddToken = await call(
      foyer,
      browser,
      'PUT',
      '/auth/password',
      { token: 'not a token!', password: NEW_PASSWORD },
      { appId: null },
    );
    expect(await oddToken.json()).toMatchObject({ statusCode: 400, error: 'LINK_EXPIRED' });
    const huge = await call(foyer, browser, 'PUT', '/auth/password', { token: 'abc', password: 'x'.repeat(2000) }, { appId: null });
    expect(await huge.json()).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
    const unknown = await call(foyer, browser, 'PUT', '/auth/password', { token: 'a'.repeat(43), password: NEW_PASSWORD }, { appId: null });
    expect(await unknown.json()).toMatchObject(LINK_EXPIRED);
    const oddPath = await call(foyer, browser, 'GET', `/auth/password/${'%25'.repeat(3)}`, undefined, { appId: null });
    expect(oddPath.status).toBe(400);
    expect(await oddPath.json()).toMatchObject({ statusCode: 400, error: 'LINK_EXPIRED' });
  });
});

describe('signup and invitation links', () => {
  it('confirms a password chosen at signup, enables the membership and signs in', async () => {
    const member = await createMember(foyer, { password: null, enabled: false });
    const pendingPasswordHash = await hashPassword(NEW_PASSWORD);
    const token = await issueToken(foyer.db, {
      appId: foyer.demo.appId,
      userId: member.userId,
      purpose: 'signup',
      tenantUserId: member.memberships.Acme,
      pendingPasswordHash,
    });
    expect(await (await describeLink(token)).json()).toEqual({ email: member.email, purpose: 'signup', passwordChosen: true });

    const browser = new Browser();
    const confirmed = await setPassword(browser, token);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({
      session: true,
      expiresIn: 86400,
      mfaState: 'DISABLED',
      tenantUserId: member.memberships.Acme,
    });
    const [membership] = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, member.memberships.Acme!));
    expect(membership!.enabled).toBe(true);
    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.userId));
    expect(user!.passwordHash).toBe(pendingPasswordHash);
    expect(user!.emailVerifiedAt).toBeInstanceOf(Date);
    expect(
      (await call(foyer, new Browser(), 'POST', '/auth/authenticate', { username: member.email, password: NEW_PASSWORD })).status,
    ).toBe(200);
    const methods = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'login.success'), eq(auditEvents.userId, member.userId)));
    expect(methods.map((event) => event.detail.method)).toContain('signup');
  });

  it('keeps an existing identity’s password when it confirms an invitation', async () => {
    const member = await createMember(foyer, { workspaces: ['Globex'], enabled: false });
    const token = await issueToken(foyer.db, {
      appId: foyer.demo.appId,
      userId: member.userId,
      purpose: 'invite',
      tenantUserId: member.memberships.Globex,
    });
    expect(await (await describeLink(token)).json()).toEqual({ email: member.email, purpose: 'invite', passwordChosen: true });
    // Whatever comes along, the password stays.
    const confirmed = await setPassword(new Browser(), token, 'ignored');
    expect(confirmed.status).toBe(200);
    expect(
      (await call(foyer, new Browser(), 'POST', '/auth/authenticate', { username: member.email, password: member.password })).status,
    ).toBe(200);
    const [membership] = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, member.memberships.Globex!));
    expect(membership!.enabled).toBe(true);
  });

  it('asks a new identity invited to a workspace for a password', async () => {
    const member = await createMember(foyer, { password: null, enabled: false });
    const token = await issueToken(foyer.db, {
      appId: foyer.demo.appId,
      userId: member.userId,
      purpose: 'invite',
      tenantUserId: member.memberships.Acme,
    });
    expect(await (await describeLink(token)).json()).toEqual({ email: member.email, purpose: 'invite', passwordChosen: false });
    expect(await (await setPassword(new Browser(), token)).json()).toMatchObject({ error: 'PASSWORD_POLICY' });
    expect((await setPassword(new Browser(), token, NEW_PASSWORD)).status).toBe(200);
  });
});

describe('an app with passwords off', () => {
  const PASSWORD_SIGN_IN_DISABLED = { statusCode: 403, error: 'PASSWORD_SIGN_IN_DISABLED' };
  const appId = `passwordless-${randomUUID().slice(0, 8)}`;
  let tenantId: string;

  beforeAll(async () => {
    await insertApp(foyer, {
      id: appId,
      name: 'Passwordless',
      settings: { passwordEnabled: false, magicLinkEnabled: true, tenantSelfSignup: true },
    });
    tenantId = randomUUID();
    await foyer.db.insert(tenants).values({ id: tenantId, appId, name: 'Passwordless Inc', locale: 'en' });
  });

  /** An identity of the passwordless app with a membership in its workspace. */
  async function passwordlessMember(options: { passwordHash?: string; enabled?: boolean } = {}) {
    const email = `${randomUUID().slice(0, 8)}@passwordless.foyer.test`;
    const userId = randomUUID();
    await foyer.db.insert(users).values({ id: userId, appId, email, passwordHash: options.passwordHash ?? null });
    const tenantUserId = randomUUID();
    await foyer.db.insert(tenantUsers).values({ id: tenantUserId, tenantId, userId, role: 'VIEWER', enabled: options.enabled ?? false });
    return { email, userId, tenantUserId };
  }

  const userRow = async (userId: string) => (await foyer.db.select().from(users).where(eq(users.id, userId)))[0]!;
  const membershipRow = async (id: string) => (await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, id)))[0]!;

  it('answers a reset request as for any address, and mails no link', async () => {
    const member = await passwordlessMember({ enabled: true });
    const unknown = 'nobody@passwordless.foyer.test';
    const known = await call(foyer, new Browser(), 'POST', '/auth/password', { username: member.email }, { appId, ip: '10.5.0.1' });
    const unknownAnswer = await call(foyer, new Browser(), 'POST', '/auth/password', { username: unknown }, { appId, ip: '10.5.0.1' });
    const seen = await observable(known);
    expect(seen).toEqual(await observable(unknownAnswer));
    expect(seen.status).toBe(200);
    expect(JSON.parse(seen.body)).toEqual({});

    // The queue runs in order: once a later request to an app with passwords mailed its link, the
    // passwordless ones are settled.
    const settled = await createMember(foyer);
    await resetLink(settled.email, '10.5.0.2');
    expect(await mailTo(foyer, member.email)).toEqual([]);
    expect(await foyer.db.select().from(userTokens).where(eq(userTokens.userId, member.userId))).toEqual([]);
  });

  it('refuses a reset link from before passwords were switched off, on reading and on using it; the password stays', async () => {
    const oldHash = await hashPassword('Old-password-123!');
    const member = await passwordlessMember({ passwordHash: oldHash, enabled: true });
    const token = await issueToken(foyer.db, { appId, userId: member.userId, purpose: 'reset' });

    const described = await describeLink(token);
    expect(described.status).toBe(403);
    expect(await described.json()).toEqual({
      ...PASSWORD_SIGN_IN_DISABLED,
      message: 'This app does not use passwords; sign in with another method',
    });
    for (const body of [{ token, password: NEW_PASSWORD }, { token }]) {
      const used = await call(foyer, new Browser(), 'PUT', '/auth/password', body, { appId: null });
      expect(used.status).toBe(403);
      expect(await used.json()).toMatchObject(PASSWORD_SIGN_IN_DISABLED);
    }
    const user = await userRow(member.userId);
    expect(user.passwordHash).toBe(oldHash);
    expect(user.emailVerifiedAt).toBeNull();
    const [row] = await foyer.db
      .select()
      .from(userTokens)
      .where(eq(userTokens.idHash, hashToken(token)));
    expect(row!.usedAt).toBeNull();
  });

  it('confirms a signup link without a password: e-mail proven, membership enabled, signed in, no password stored', async () => {
    const member = await passwordlessMember();
    // Typed on the signup form before the owner switched passwords off: never adopted now.
    const token = await issueToken(foyer.db, {
      appId,
      userId: member.userId,
      purpose: 'signup',
      tenantUserId: member.tenantUserId,
      pendingPasswordHash: await hashPassword(NEW_PASSWORD),
    });
    expect(await (await describeLink(token)).json()).toEqual({ email: member.email, purpose: 'signup', passwordChosen: true });

    const browser = new Browser();
    const confirmed = await setPassword(browser, token);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ session: true, expiresIn: 86400, mfaState: 'DISABLED', tenantUserId: member.tenantUserId });
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(200);
    const user = await userRow(member.userId);
    expect(user.passwordHash).toBeNull();
    expect(user.emailVerifiedAt).toBeInstanceOf(Date);
    expect((await membershipRow(member.tenantUserId)).enabled).toBe(true);
    expect(await (await describeLink(token)).json()).toMatchObject(LINK_EXPIRED);
  });

  it('confirms an invitation of an identity without a password instead of asking for one', async () => {
    const member = await passwordlessMember({ enabled: true });
    const token = await issueToken(foyer.db, { appId, userId: member.userId, purpose: 'invite', tenantUserId: member.tenantUserId });
    expect(await (await describeLink(token)).json()).toEqual({ email: member.email, purpose: 'invite', passwordChosen: true });
    const confirmed = await setPassword(new Browser(), token);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ session: true, tenantUserId: member.tenantUserId });
    const user = await userRow(member.userId);
    expect(user.passwordHash).toBeNull();
    expect(user.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('refuses a password sent along with a signup or invitation link, which keeps working', async () => {
    const member = await passwordlessMember();
    const token = await issueToken(foyer.db, { appId, userId: member.userId, purpose: 'signup', tenantUserId: member.tenantUserId });
    for (const password of [NEW_PASSWORD, '']) {
      const refused = await setPassword(new Browser(), token, password);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject(PASSWORD_SIGN_IN_DISABLED);
    }
    expect((await membershipRow(member.tenantUserId)).enabled).toBe(false);
    expect((await describeLink(token)).status).toBe(200);
    expect((await setPassword(new Browser(), token)).status).toBe(200);
    expect((await userRow(member.userId)).passwordHash).toBeNull();
  });

  it('keeps links of an app with passwords on as they were: an invited identity without a password chooses one', async () => {
    const member = await createMember(foyer, { password: null, enabled: false });
    const token = await issueToken(foyer.db, {
      appId: foyer.demo.appId,
      userId: member.userId,
      purpose: 'invite',
      tenantUserId: member.memberships.Acme,
    });
    expect(await (await describeLink(token)).json()).toMatchObject({ passwordChosen: false });
  });
});

describe('configuration', () => {
  it('reads the reset link lifetime from FOYER_RESET_TOKEN_TTL', () => {
    expect(loadConfig({}).resetTokenTtlSeconds).toBe(3600);
    expect(loadConfig({ FOYER_RESET_TOKEN_TTL: '900' }).resetTokenTtlSeconds).toBe(900);
    expect(() => loadConfig({ FOYER_RESET_TOKEN_TTL: 'soon' })).toThrow(/FOYER_RESET_TOKEN_TTL/);
    expect(() => loadConfig({ FOYER_RESET_TOKEN_TTL: '0' })).toThrow(/FOYER_RESET_TOKEN_TTL/);
  });
});
