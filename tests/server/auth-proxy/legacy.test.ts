// The legacy auth mode's calls (docs/SPEC.md section 7, docs/ORIGINAL-CONTRACT.md 2.3) end to end: sign-in,
// workspace list and current user, GraphQL with the legacy headers, profile, reset password, two-factor
// by text (setup, code, recovery) and by authenticator app, and what ends a token.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, auditEvents, legacyTokens, tenants, users } from '../../../server/db/schema.ts';
import { findMembership } from '../support/tokens.ts';
import { postGraphQL } from '../support/graphql.ts';
import { lastCode, MEMBER_PASSWORD, newMember, otherThan } from '../mfa/support.ts';
import { authenticate, call, enableLegacyMode, legacyHeaders, resetToken, signedInToken } from './support.ts';

let foyer: TestFoyer;
let appId: string;

beforeAll(async () => {
  foyer = await startFoyer();
  appId = foyer.demo.appId;
  await enableLegacyMode(foyer);
});
afterAll(() => foyer?.close());

const GET_ME = { query: '{ getMe { email firstName lastName } getTenant { name } }' };

describe('password sign-in', () => {
  it('answers an opaque token and the MFA state, stores only its hash, and lists the workspaces', async () => {
    const owner = foyer.demo.users[0]!;
    const answer = await authenticate(foyer, owner.email, owner.password);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), mfaState: 'DISABLED' });
    const token = answer.body.token as string;
    const stored = await foyer.db.select().from(legacyTokens);
    expect(stored.some((row) => row.idHash === token)).toBe(false);

    const list = await call(foyer, 'GET', '/auth-proxy/tenantUsers', legacyHeaders({ token, appId }));
    expect(list.status).toBe(200);
    expect((list.body as unknown as { tenant: { name: string } }[]).map((entry) => entry.tenant.name)).toEqual(['Acme', 'Globex']);
  });

  it('names the only workspace, and the token then works with it for currentUser, authenticated and GraphQL', async () => {
    const admin = foyer.demo.users[1]!;
    const answer = await authenticate(foyer, admin.email, admin.password);
    const acme = await findMembership(foyer.db, admin.email, 'Acme');
    expect(answer.body.tenantUserId).toBe(acme.tenantUserId);
    const headers = legacyHeaders({ token: answer.body.token as string, tenantUserId: acme.tenantUserId, appId });

    expect((await call(foyer, 'GET', '/auth-proxy/authenticated', headers)).body).toEqual({ authenticated: true });
    const current = await call(foyer, 'GET', '/auth/currentUser', headers);
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({
      id: acme.tenantUserId,
      role: 'ADMIN',
      email: admin.email,
      tenant: { name: 'Acme' },
      privileges: expect.arrayContaining(['USER_WRITE', 'TENANT_WRITE']),
    });
    const graph = await postGraphQL(foyer.urls.api, GET_ME, headers);
    expect(graph.body.data).toEqual({ getMe: { email: admin.email, firstName: 'Adam', lastName: 'Admin' }, getTenant: { name: 'Acme' } });
  });

  it('refuses a wrong password with 401 and an app that is not in legacy mode with 403', async () => {
    const owner = foyer.demo.users[0]!;
    expect(await authenticate(foyer, owner.email, 'wrong-password')).toMatchObject({
      status: 401,
      body: { statusCode: 401, error: 'WRONG_CREDENTIALS' },
    });
    const consoleAnswer = await call(
      foyer,
      'POST',
      '/auth-proxy/authenticate',
      { 'x-app-id': 'foyer-console' },
      { username: owner.email, password: owner.password },
    );
    expect(consoleAnswer).toMatchObject({ status: 403, body: { error: 'LEGACY_AUTH_DISABLED' } });
    expect(await call(foyer, 'POST', '/auth-proxy/authenticate', {}, { username: owner.email, password: owner.password })).toMatchObject({
      status: 400,
      body: { error: 'APP_REQUIRED' },
    });
    expect((await authenticate(foyer, owner.email, '')).status).toBe(400);
  });
});

describe('profile and logout', () => {
  it('PUT /auth-proxy/user updates the own names and onboards; bad input is a 400', async () => {
    const member = await newMember(foyer, 'Acme', { onboarded: false });
    const token = await signedInToken(foyer, member.email, MEMBER_PASSWORD);
    const headers = legacyHeaders({ token, tenantUserId: member.tenantUserId, appId });
    const saved = await call(foyer, 'PUT', '/auth-proxy/user', headers, {
      firstName: 'Lena',
      lastName: 'Legacy',
      consentsToPrivacyPolicy: true,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ fullName: 'Lena Legacy', onboarded: true });
    const [row] = await foyer.db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ firstName: 'Lena', lastName: 'Legacy', onboarded: true });
    expect((await call(foyer, 'PUT', '/auth-proxy/user', headers, { consentsToPrivacyPolicy: 'maybe' })).status).toBe(400);
    expect((await call(foyer, 'PUT', '/auth-proxy/user', headers, { firstName: 'x'.repeat(150) })).status).toBe(400);
  });

  it('deauthenticate revokes the token and is audited', async () => {
    const member = await newMember(foyer, 'Acme');
    const token = await signedInToken(foyer, member.email, MEMBER_PASSWORD);
    const headers = legacyHeaders({ token, tenantUserId: member.tenantUserId, appId });
    expect((await call(foyer, 'GET', '/auth-proxy/deauthenticate', headers)).status).toBe(204);
    expect((await call(foyer, 'GET', '/auth-proxy/authenticated', headers)).body).toEqual({ authenticated: false });
    expect((await call(foyer, 'GET', '/auth/currentUser', headers)).status).toBe(401);
    const events = await foyer.db.select().from(auditEvents).where(eq(auditEvents.userId, member.id));
    expect(events.map((event) => event.type)).toContain('logout');
  });
});

describe('REST on the API host', () => {
  it('the workspace logo upload takes the legacy headers, with the workspace of the token only', async () => {
    const owner = foyer.demo.users[0]!;
    const token = await signedInToken(foyer, owner.email, owner.password);
    const acme = await findMembership(foyer.db, owner.email, 'Acme');
    const viewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const upload = (tenantUserId: string) =>
      fetch(`${foyer.urls.api}/workspace/logo`, {
        method: 'POST',
        headers: { 'content-type': 'image/png', ...legacyHeaders({ token, tenantUserId, appId }) },
        body: png,
      });
    expect((await upload(acme.tenantUserId)).status).toBe(201);
    expect((await upload(viewer.tenantUserId)).status).toBe(401);
  });
});

describe('reset password', () => {
  it('mails a link, and PUT with the link sets the password, signs in and revokes the older tokens', async () => {
    const member = await newMember(foyer, 'Acme');
    const older = await signedInToken(foyer, member.email, MEMBER_PASSWORD);
    expect(await call(foyer, 'POST', '/auth-proxy/password', { 'x-app-id': appId }, { username: member.email })).toMatchObject({
      status: 200,
    });
    const link = await resetToken(foyer, member.email);
    expect(await call(foyer, 'GET', `/auth-proxy/password/${link}`, {})).toMatchObject({
      status: 200,
      body: { email: member.email, purpose: 'reset', passwordChosen: false },
    });

    expect(await call(foyer, 'PUT', '/auth-proxy/password', {}, { token: link, password: 'short' })).toMatchObject({
      status: 400,
      body: { error: 'PASSWORD_POLICY' },
    });
    const set = await call(foyer, 'PUT', '/auth-proxy/password', {}, { token: link, password: 'Another-password-2!' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ token: expect.any(String), mfaState: 'DISABLED', tenantUserId: member.tenantUserId });

    expect((await call(foyer, 'GET', '/auth-proxy/tenantUsers', legacyHeaders({ token: older, appId }))).status).toBe(401);
    expect((await call(foyer, 'GET', '/auth-proxy/tenantUsers', legacyHeaders({ token: set.body.token as string, appId }))).status).toBe(
      200,
    );
    expect((await authenticate(foyer, member.email, 'Another-password-2!')).status).toBe(200);
    expect(await call(foyer, 'PUT', '/auth-proxy/password', {}, { token: link, password: 'Another-password-3!' })).toMatchObject({
      status: 400,
      body: { error: 'LINK_EXPIRED' },
    });
  });
});

describe('two-factor by text', () => {
  const phoneNumber = '+46701234567';

  beforeAll(async () => {
    await foyer.db
      .update(apps)
      .set({ settings: sql`${apps.settings} || '{"mfaEnabled": true}'::jsonb` })
      .where(eq(apps.id, appId));
    await foyer.db.insert(tenants).values({ id: randomUUID(), appId, name: 'Secure', mfa: true, onboarded: true });
  });

  it('setup, then the code at the next sign-in, then the recovery code; each token works only with its MFA token', async () => {
    const member = await newMember(foyer, 'Secure');
    const first = await authenticate(foyer, member.email, MEMBER_PASSWORD);
    expect(first.body.mfaState).toBe('SETUP');
    const token = first.body.token as string;
    const pending = legacyHeaders({ token, appId });
    expect((await call(foyer, 'GET', '/auth-proxy/tenantUsers', pending)).status).toBe(401);
    expect((await call(foyer, 'POST', '/auth-proxy/startMfaUserSetup', pending, { phoneNumber: 'not a number' })).body.error).toBe(
      'INVALID_PHONE_NUMBER',
    );
    expect((await call(foyer, 'POST', '/auth-proxy/startMfaUserSetup', pending, { phoneNumber })).status).toBe(204);
    const finished = await call(foyer, 'POST', '/auth-proxy/finishMfaUserSetup', pending, { mfaCode: await lastCode(foyer, phoneNumber) });
    expect(finished.status).toBe(200);
    expect(finished.body).toEqual({ mfaToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), backupCode: expect.any(String) });
    const mfaToken = finished.body.mfaToken as string;
    expect((await call(foyer, 'GET', '/auth-proxy/tenantUsers', pending)).status).toBe(401);
    expect((await call(foyer, 'GET', '/auth-proxy/tenantUsers', legacyHeaders({ token, mfaToken, appId }))).status).toBe(200);
    // Passed once: the token's second factor cannot be passed again.
    expect(
      (await call(foyer, 'POST', '/auth-proxy/commitMfaCode', legacyHeaders({ token, mfaToken, appId }), { mfaCode: '123456' })).status,
    ).toBe(401);

    const second = await authenticate(foyer, member.email, MEMBER_PASSWORD);
    expect(second.body.mfaState).toBe('REQUIRED');
    const required = legacyHeaders({ token: second.body.token as string, appId });
    const code = await lastCode(foyer, phoneNumber);
    const wrong = await call(foyer, 'POST', '/auth-proxy/commitMfaCode', required, { mfaCode: otherThan(code) });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'WRONG_MFA_CODE' } });
    const committed = await call(foyer, 'POST', '/auth-proxy/commitMfaCode', required, { mfaCode: code });
    expect(committed.status).toBe(200);
    const headers = legacyHeaders({
      token: second.body.token as string,
      mfaToken: committed.body.mfaToken as string,
      tenantUserId: member.tenantUserId,
      appId,
    });
    expect((await postGraphQL(foyer.urls.api, GET_ME, headers)).body.data).toMatchObject({ getTenant: { name: 'Secure' } });

    const third = await authenticate(foyer, member.email, MEMBER_PASSWORD);
    const recovering = legacyHeaders({ token: third.body.token as string, appId });
    expect((await call(foyer, 'POST', '/auth-proxy/resetUserMfaSetup', recovering, { backupCode: 'AAAA-BBBB-CCCC-DDDD' })).body.error).toBe(
      'WRONG_RECOVERY_CODE',
    );
    expect((await call(foyer, 'POST', '/auth-proxy/resetUserMfaSetup', recovering, { backupCode: finished.body.backupCode })).status).toBe(
      204,
    );
    expect((await call(foyer, 'POST', '/auth-proxy/startMfaUserSetup', recovering, { phoneNumber })).status).toBe(204);
  });
});
