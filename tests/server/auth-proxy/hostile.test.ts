// The hostile suite of the OAuth mode (tests/server/graphql/hostile.test.ts) for the legacy headers:
// the workspace comes only from a membership of the token's own identity in the token's app, and a
// token of another app, a revoked, expired or half (MFA) token, or one of a disabled member proves
// nothing. Wrong passwords count against the same limits as the OAuth mode's.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, legacyTokens, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { hashPassword } from '../../../server/auth/passwords.ts';
import { LOGIN_FAILURES } from '../../../server/audit/limits.ts';
import { findMembership } from '../support/tokens.ts';
import { errorCodes, postGraphQL } from '../support/graphql.ts';
import { insertApp } from '../support/apps.ts';
import { lastCode, MEMBER_PASSWORD, newMember } from '../mfa/support.ts';
import { authenticate, call, enableLegacyMode, legacyHeaders, signedInToken } from './support.ts';

let foyer: TestFoyer;
let appId: string;

beforeAll(async () => {
  // Behind a trusted proxy, so each test names its own client address.
  foyer = await startFoyer({ trustProxy: ['127.0.0.1'] });
  appId = foyer.demo.appId;
  await enableLegacyMode(foyer);
});
afterAll(() => foyer?.close());

const GET_TENANT = { query: '{ getTenant { name } }' };
const LIST_USERS = { query: '{ listUsers { email } }' };

/** Every way a request with these headers can ask about a workspace refuses it. */
async function expectRefused(headers: Record<string, string>, code = 'UNAUTHENTICATED') {
  const graph = await postGraphQL(foyer.urls.api, GET_TENANT, headers);
  expect(graph.status).toBe(401);
  expect(errorCodes(graph)).toEqual([code]);
  expect(graph.body.data ?? null).toBeNull();
  const current = await call(foyer, 'GET', '/auth/currentUser', headers);
  expect(current).toMatchObject({ status: 401, body: { statusCode: 401, error: code } });
  expect((await call(foyer, 'GET', '/auth-proxy/authenticated', headers)).body).toEqual({ authenticated: false });
  expect((await call(foyer, 'PUT', '/auth-proxy/user', headers, { firstName: 'Mallory' })).status).toBe(401);
}

describe('the workspace comes only from the token', () => {
  it("refuses a forged x-tenant-user-id naming another tenant's member", async () => {
    const admin = foyer.demo.users[1]!;
    const token = await signedInToken(foyer, admin.email, admin.password);
    const globexViewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
    await expectRefused(legacyHeaders({ token, tenantUserId: globexViewer.tenantUserId, appId }));
    // The same token with its own membership works, so the refusal is the forgery's.
    const acme = await findMembership(foyer.db, admin.email, 'Acme');
    const own = await postGraphQL(foyer.urls.api, LIST_USERS, legacyHeaders({ token, tenantUserId: acme.tenantUserId, appId }));
    expect(own.status).toBe(200);
  });

  it('refuses x-tenant-user-id alone, and a token without x-tenant-user-id', async () => {
    const admin = foyer.demo.users[1]!;
    const acme = await findMembership(foyer.db, admin.email, 'Acme');
    const alone = await postGraphQL(foyer.urls.api, GET_TENANT, legacyHeaders({ tenantUserId: acme.tenantUserId, appId }));
    expect(errorCodes(alone)).toEqual(['UNAUTHENTICATED']);
    await expectRefused(legacyHeaders({ token: await signedInToken(foyer, admin.email, admin.password), appId }));
  });

  it("grants the role's privileges only: a viewer cannot change members", async () => {
    const viewer = foyer.demo.users[2]!;
    const membership = await findMembership(foyer.db, viewer.email, 'Globex');
    const token = await signedInToken(foyer, viewer.email, viewer.password);
    const answer = await postGraphQL(
      foyer.urls.api,
      {
        query: 'mutation($user: UserInput!) { updateUser(user: $user) { id } }',
        variables: { user: { id: membership.tenantUserId, role: 'OWNER' } },
      },
      legacyHeaders({ token, tenantUserId: membership.tenantUserId, appId }),
    );
    expect(errorCodes(answer)).toEqual(['FORBIDDEN']);
  });
});

describe('tokens that prove nothing', () => {
  it('refuses a token of another app, whatever x-app-id and x-tenant-user-id say', async () => {
    const otherAppId = await insertApp(foyer, { settings: { authLegacy: true } });
    const userId = randomUUID();
    const email = `other-${userId.slice(0, 8)}@other.test`;
    await foyer.db
      .insert(users)
      .values({ id: userId, appId: otherAppId, email, passwordHash: await hashPassword(MEMBER_PASSWORD), onboarded: true });
    const tenantId = randomUUID();
    await foyer.db.insert(tenants).values({ id: tenantId, appId: otherAppId, name: 'Other', onboarded: true });
    const otherMembership = randomUUID();
    await foyer.db.insert(tenantUsers).values({ id: otherMembership, tenantId, userId, role: 'OWNER', onboarded: true });
    const answer = await authenticate(foyer, email, MEMBER_PASSWORD, {}, otherAppId);
    const token = answer.body.token as string;
    expect(token).toBeTruthy();

    const acmeOwner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
    await expectRefused(legacyHeaders({ token, tenantUserId: acmeOwner.tenantUserId, appId }));
    await expectRefused(legacyHeaders({ token, tenantUserId: otherMembership, appId }));
    await expectRefused(legacyHeaders({ token, tenantUserId: acmeOwner.tenantUserId, appId: otherAppId }));
    expect((await call(foyer, 'GET', '/auth-proxy/tenantUsers', legacyHeaders({ token, appId }))).status).toBe(401);
    // Its own app and membership work.
    expect(
      (await postGraphQL(foyer.urls.api, GET_TENANT, legacyHeaders({ token, tenantUserId: otherMembership, appId: otherAppId }))).status,
    ).toBe(200);

    // An app that switches the legacy mode off stops accepting its tokens.
    await foyer.db.update(apps).set({ settings: {} }).where(eq(apps.id, otherAppId));
    await expectRefused(legacyHeaders({ token, tenantUserId: otherMembership, appId: otherAppId }));
  });

  it('refuses a revoked, an expired and a made-up token', async () => {
    const member = await newMember(foyer, 'Acme');
    const revoked = await signedInToken(foyer, member.email, MEMBER_PASSWORD);
    await call(foyer, 'GET', '/auth-proxy/deauthenticate', legacyHeaders({ token: revoked, appId }));
    await expectRefused(legacyHeaders({ token: revoked, tenantUserId: member.tenantUserId, appId }));

    const expired = await signedInToken(foyer, member.email, MEMBER_PASSWORD);
    await foyer.db
      .update(legacyTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(legacyTokens.userId, member.id));
    await expectRefused(legacyHeaders({ token: expired, tenantUserId: member.tenantUserId, appId }));

    for (const forged of ['x'.repeat(43), `${'a'.repeat(43)}_`, 'a'.repeat(5000), '', ' ']) {
      const graph = await postGraphQL(foyer.urls.api, GET_TENANT, {
        'x-auth-token': forged,
        'x-tenant-user-id': member.tenantUserId,
        'x-app-id': appId,
      });
      expect(graph.status).toBe(401);
    }
  });

  it('refuses an MFA token without its auth token, with another auth token, and the auth token without it', async () => {
    await foyer.db
      .update(apps)
      .set({ settings: sql`${apps.settings} || '{"mfaEnabled": true}'::jsonb` })
      .where(eq(apps.id, appId));
    await foyer.db.insert(tenants).values({ id: randomUUID(), appId, name: 'Guarded', mfa: true, onboarded: true });
    const member = await newMember(foyer, 'Guarded');
    const phoneNumber = '+46709876543';
    const first = await authenticate(foyer, member.email, MEMBER_PASSWORD);
    const token = first.body.token as string;
    await call(foyer, 'POST', '/auth-proxy/startMfaUserSetup', legacyHeaders({ token, appId }), { phoneNumber });
    const finished = await call(foyer, 'POST', '/auth-proxy/finishMfaUserSetup', legacyHeaders({ token, appId }), {
      mfaCode: await lastCode(foyer, phoneNumber),
    });
    const mfaToken = finished.body.mfaToken as string;
    expect(mfaToken).toBeTruthy();
    const tenantUserId = member.tenantUserId;

    await expectRefused({ 'x-auth-token': mfaToken, 'x-tenant-user-id': tenantUserId, 'x-app-id': appId });
    await expectRefused(legacyHeaders({ token, tenantUserId, appId }));
    await expectRefused(legacyHeaders({ token, mfaToken: token, tenantUserId, appId }));
    // Another sign-in of the same member, still waiting for its code, with this MFA token.
    const second = await authenticate(foyer, member.email, MEMBER_PASSWORD);
    await expectRefused(legacyHeaders({ token: second.body.token as string, mfaToken, tenantUserId, appId }));
    expect((await postGraphQL(foyer.urls.api, GET_TENANT, legacyHeaders({ token, mfaToken, tenantUserId, appId }))).status).toBe(200);
  });

  it("ends a disabled member's tokens", async () => {
    const member = await newMember(foyer, 'Acme');
    const token = await signedInToken(foyer, member.email, MEMBER_PASSWORD);
    const headers = legacyHeaders({ token, tenantUserId: member.tenantUserId, appId });
    expect((await postGraphQL(foyer.urls.api, GET_TENANT, headers)).status).toBe(200);

    const owner = foyer.demo.users[0]!;
    const ownerAcme = await findMembership(foyer.db, owner.email, 'Acme');
    const ownerToken = await signedInToken(foyer, owner.email, owner.password);
    const disabled = await postGraphQL(
      foyer.urls.api,
      {
        query: 'mutation($user: UserInput!) { updateUser(user: $user) { enabled } }',
        variables: { user: { id: member.tenantUserId, enabled: false } },
      },
      legacyHeaders({ token: ownerToken, tenantUserId: ownerAcme.tenantUserId, appId }),
    );
    expect(disabled.body.data).toEqual({ updateUser: { enabled: false } });
    expect(await foyer.db.select().from(legacyTokens).where(eq(legacyTokens.userId, member.id))).toEqual([]);
    await expectRefused(headers);
    // Signing in again does not bring the workspace back.
    const again = await signedInToken(foyer, member.email, MEMBER_PASSWORD);
    await expectRefused(legacyHeaders({ token: again, tenantUserId: member.tenantUserId, appId }), 'MEMBERSHIP_ENDED');
  });
});

describe('attempt limits shared with the OAuth mode', () => {
  function oauthAuthenticate(username: string, password: string, ip: string) {
    return fetch(`${foyer.urls.auth}/auth/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': appId, 'x-forwarded-for': ip },
      body: JSON.stringify({ username, password }),
    });
  }

  it(`checks exactly ${LOGIN_FAILURES.max} of 60 simultaneous wrong passwords, then refuses even the right one`, async () => {
    const member = await newMember(foyer, 'Acme');
    const ip = '198.51.100.61';
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) => authenticate(foyer, member.email, `guess-${index}`, { 'x-forwarded-for': ip })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_FAILURES.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - LOGIN_FAILURES.max);
    expect((await authenticate(foyer, member.email, MEMBER_PASSWORD, { 'x-forwarded-for': ip })).status).toBe(429);
  });

  it('counts failures of both modes together', async () => {
    const member = await newMember(foyer, 'Acme');
    const ip = '198.51.100.62';
    const half = LOGIN_FAILURES.max / 2;
    await Promise.all(Array.from({ length: half }, (_, index) => oauthAuthenticate(member.email, `oauth-${index}`, ip)));
    await Promise.all(
      Array.from({ length: half }, (_, index) => authenticate(foyer, member.email, `legacy-${index}`, { 'x-forwarded-for': ip })),
    );
    expect((await authenticate(foyer, member.email, MEMBER_PASSWORD, { 'x-forwarded-for': ip })).status).toBe(429);
    expect((await oauthAuthenticate(member.email, MEMBER_PASSWORD, ip)).status).toBe(429);
  });
});
