// Invitations and the other row actions, end to end: the invite mail's set-password link works
// through PUT /auth/password and the invitee signs in to the workspace; existing identities are
// linked, pending and shown nothing of until they accept from the mail; failures are reported per address while the rest are invited; deleting removes
// one membership only; the reset link a member is sent works.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freePort, startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, auditEvents, outbox, tenantUsers, users, userTokens } from '../../../server/db/schema.ts';
import { hashToken } from '../../../server/auth/tokens/service.ts';
import { errorCodes } from '../support/graphql.ts';
import { findMembership, type Membership } from '../support/tokens.ts';
import { Browser } from '../oidc/browser.ts';
import { authorizationRequest, callbackUri, relyingParty, signIn, workspaces } from '../oidc/sign-in.ts';
import { call, createMember, mailTo, NEW_PASSWORD, tokenOf } from '../password/helpers.ts';
import { addMember, ask, snapshot } from './users-workspace.ts';

let foyer: TestFoyer;
let owner: Membership;

beforeAll(async () => {
  foyer = await startFoyer();
  owner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
});
afterAll(() => foyer?.close());

const INVITE = 'mutation ($names: [String!]!) { createUsers(userNames: $names) { id email fullName role enabled } }';
const UPDATE = 'mutation ($user: UserInput!) { updateUser(user: $user) { id enabled } }';
const DELETE = 'mutation ($id: String!) { deleteUser(userId: $id) }';
const RESET = 'mutation ($id: String!) { sendPasswordResetLink(userId: $id) }';

const newAddress = () => `${randomUUID().slice(0, 8)}@invited.foyer.test`;
const setPassword = (browser: Browser, token: string, password: string) =>
  call(foyer, browser, 'PUT', '/auth/password', { token, password }, { appId: null });

/** The set-password link in a mail's text. */
function mailLink(text: string): string {
  const link = /https?:\/\/\S+\/auth\/set-password\/[\w-]+/.exec(text)?.[0];
  if (!link) throw new Error(`no set-password link in: ${text}`);
  return link;
}

interface InviteFailure {
  fields: Record<string, string>;
  reasons: Record<string, string>;
  invited: { id: string; email: string }[];
}

describe('a new identity', () => {
  it('is mailed a set-password link that makes the membership usable for signing in', async () => {
    const address = newAddress();
    const answer = await ask(foyer, owner, INVITE, { names: [`  ${address} `, '', '   '] });
    expect(answer.body.errors).toBeUndefined();
    const [invited] = answer.body.data?.createUsers as { id: string }[];
    expect(answer.body.data?.createUsers).toEqual([{ id: invited!.id, email: address, fullName: null, role: 'VIEWER', enabled: true }]);

    const mail = await mailTo(foyer, address);
    expect(mail.map((message) => message.kind)).toEqual(['invite']);
    expect(mail[0]!.link).toMatch(new RegExp(`^${foyer.urls.ui}/auth/set-password/[\\w-]{43}$`));
    const token = tokenOf(mail[0]!.link);
    const [stored] = await foyer.db
      .select()
      .from(userTokens)
      .where(eq(userTokens.idHash, hashToken(token)));
    expect(stored).toMatchObject({ purpose: 'invite', tenantUserId: invited!.id });

    const described = await call(foyer, new Browser(), 'GET', `/auth/password/${token}`, undefined, { appId: null });
    expect(await described.json()).toEqual({ email: address, purpose: 'invite', passwordChosen: false });
    const set = await setPassword(new Browser(), token, NEW_PASSWORD);
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ session: true, tenantUserId: invited!.id });

    // A full sign-in by an app: the new password and the invited membership.
    const rp = await relyingParty(foyer);
    const pending = await authorizationRequest(rp, callbackUri(foyer));
    const { callback } = await signIn(foyer, {
      authorizeUrl: pending.url,
      redirectUri: callbackUri(foyer),
      email: address,
      password: NEW_PASSWORD,
      workspace: 'Acme',
    });
    const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
    expect(tokens.claims()?.sub).toBe(invited!.id);

    const [event] = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'user.invited'), eq(auditEvents.tenantUserId, owner.tenantUserId)));
    expect(event).toMatchObject({
      appId: foyer.demo.appId,
      detail: { tenantId: owner.tenantId, role: 'VIEWER', newIdentity: true, target: { tenantUserId: invited!.id, email: address } },
    });
  });

  it('whose membership is disabled before the link is used stays disabled', async () => {
    const address = newAddress();
    const [invited] = (await ask(foyer, owner, INVITE, { names: [address] })).body.data?.createUsers as { id: string }[];
    expect((await ask(foyer, owner, UPDATE, { user: { id: invited!.id, enabled: false } })).body.data?.updateUser).toEqual({
      id: invited!.id,
      enabled: false,
    });
    const token = tokenOf((await mailTo(foyer, address))[0]!.link);
    const set = await setPassword(new Browser(), token, NEW_PASSWORD);
    expect(await set.json()).toMatchObject({ statusCode: 400, error: 'LINK_EXPIRED' });
    const [membership] = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, invited!.id));
    expect(membership!.enabled).toBe(false);
  });
});

describe('an existing identity', () => {
  it('gets the answer a new address gets, stays pending until it accepts from the mailed link, and shows nothing of the identity meanwhile', async () => {
    const FULL = `mutation ($names: [String!]!) { createUsers(userNames: $names) {
      id email username firstName lastName fullName role enabled onboarded consentsToPrivacyPolicy teams customParams { label value } } }`;
    const LIST =
      'query ($search: String) { listUsers(search: $search) { id email firstName lastName fullName customParams { label value } } }';
    const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
    await foyer.db
      .update(apps)
      .set({ settings: { ...app!.settings, customSignupFields: [{ label: 'vat', type: 'text', userLabel: 'VAT number' }] } })
      .where(eq(apps.id, foyer.demo.appId));
    onTestFinished(async () => {
      await foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, foyer.demo.appId));
    });
    // Someone who joined Globex, with names and a custom value collected there.
    const member = await createMember(foyer, { workspaces: ['Globex'] });
    await foyer.db
      .update(users)
      .set({ firstName: 'Secret', lastName: 'Person', consentsToPrivacyPolicy: true })
      .where(eq(users.id, member.userId));
    await foyer.db
      .update(tenantUsers)
      .set({ customParams: { vat: 'SE556677889901' } })
      .where(eq(tenantUsers.id, member.memberships.Globex!));

    const known = await ask(foyer, owner, FULL, { names: [member.email] });
    const unknown = await ask(foyer, owner, FULL, { names: [newAddress()] });
    const shape = (answer: typeof known) => {
      const [user] = answer.body.data?.createUsers as Record<string, unknown>[];
      const { id: _id, email: _email, username: _username, ...rest } = user!;
      return rest;
    };
    expect(shape(known)).toEqual(shape(unknown));
    const [invited] = known.body.data?.createUsers as { id: string }[];

    // Pending: not in the invitee's picker, nothing of the identity in the inviting workspace.
    const browser = new Browser();
    expect((await call(foyer, browser, 'POST', '/auth/authenticate', { username: member.email, password: member.password })).status).toBe(
      200,
    );
    expect((await workspaces(foyer, browser)).map((workspace) => workspace.tenant.name)).toEqual(['Globex']);
    const listed = (await ask(foyer, owner, LIST, { search: member.email })).body.data?.listUsers as Record<string, unknown>[];
    expect(listed).toEqual([{ id: invited!.id, email: member.email, firstName: null, lastName: null, fullName: null, customParams: [] }]);
    expect((await ask(foyer, owner, LIST, { search: 'Secret' })).body.data?.listUsers).toEqual([]);

    // The mail carries a link that accepts (the identity keeps its password).
    const notices = await foyer.db.select().from(outbox).where(eq(outbox.recipient, member.email));
    expect(notices.map((notice) => notice.kind)).toEqual(['invite-existing']);
    expect(notices[0]!.subject).toContain('Acme');
    expect(notices[0]!.text).toContain('The link works once and expires in 7 days.');
    const token = tokenOf(mailLink(notices[0]!.text));
    const described = await call(foyer, new Browser(), 'GET', `/auth/password/${token}`, undefined, { appId: null });
    expect(await described.json()).toEqual({ email: member.email, purpose: 'invite', passwordChosen: true });
    const accepted = await call(foyer, new Browser(), 'PUT', '/auth/password', { token }, { appId: null });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ session: true });

    // Joined: the workspace sees the names; the custom value stays with the membership that collected it.
    const again = new Browser();
    expect((await call(foyer, again, 'POST', '/auth/authenticate', { username: member.email, password: member.password })).status).toBe(
      200,
    );
    expect((await workspaces(foyer, again)).map((workspace) => workspace.tenant.name).sort()).toEqual(['Acme', 'Globex']);
    expect((await ask(foyer, owner, LIST, { search: 'Secret' })).body.data?.listUsers).toEqual([
      { id: invited!.id, email: member.email, firstName: 'Secret', lastName: 'Person', fullName: 'Secret Person', customParams: [] },
    ]);
    expect(await foyer.db.select().from(users).where(eq(users.email, member.email))).toHaveLength(1);
  });

  it('without a password yet is sent a set-password link', async () => {
    const member = await createMember(foyer, { workspaces: ['Globex'], password: null });
    await ask(foyer, owner, INVITE, { names: [member.email] });
    expect((await mailTo(foyer, member.email)).map((mail) => mail.kind)).toEqual(['invite']);
  });
});

describe('addresses that cannot be invited', () => {
  it('are reported one by one, while the others are invited all the same', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const good = newAddress();
    const answer = await ask(foyer, owner, INVITE, { names: ['not-an-address', ` ${member.email} `, good, good.toUpperCase(), ''] });
    expect(answer.status).toBe(400);
    expect(errorCodes(answer)).toEqual(['BAD_USER_INPUT']);
    const failure = answer.body.errors![0]!.extensions as unknown as InviteFailure;
    expect(failure.fields).toEqual({
      'not-an-address': 'Enter a valid e-mail address',
      [member.email]: 'Already a member of this workspace',
    });
    expect(failure.reasons).toEqual({ 'not-an-address': 'INVALID_EMAIL', [member.email]: 'ALREADY_MEMBER' });
    expect(failure.invited).toEqual([{ id: expect.any(String), email: good }]);

    // The good address was invited once; the member was left alone.
    expect((await mailTo(foyer, good)).map((mail) => mail.kind)).toEqual(['invite']);
    const [invitedMembership] = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, failure.invited[0]!.id));
    expect(invitedMembership?.tenantId).toBe(owner.tenantId);
    expect(await foyer.db.select().from(outbox).where(eq(outbox.recipient, member.email))).toEqual([]);
    expect(await foyer.db.select().from(users).where(eq(users.email, 'not-an-address'))).toEqual([]);
  });

  it('a list of blanks is refused with 400 and invites nobody', async () => {
    const before = await snapshot(foyer, owner.tenantId);
    const answer = await ask(foyer, owner, INVITE, { names: ['', '   '] });
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: { userNames: 'Enter at least one e-mail address' },
    });
    expect(await snapshot(foyer, owner.tenantId)).toEqual(before);
  });

  it('more than twenty addresses at once are refused', async () => {
    const answer = await ask(foyer, owner, INVITE, { names: Array.from({ length: 21 }, newAddress) });
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0]!.extensions).toMatchObject({ fields: { userNames: 'At most 20 addresses at a time' } });
  });

  it('a member who sent a hundred mails in the hour is refused with 429, nothing invited', async () => {
    const tenantId = owner.tenantId;
    const busy = await addMember(foyer, tenantId, { role: 'ADMIN' });
    await foyer.db
      .insert(auditEvents)
      .values(
        Array.from({ length: 99 }, () => ({ type: 'user.invited', appId: foyer.demo.appId, tenantUserId: busy.tenantUserId, detail: {} })),
      );
    const before = await snapshot(foyer, tenantId);
    const twoMore = await ask(foyer, busy, INVITE, { names: [newAddress(), newAddress()] });
    expect(twoMore.status).toBe(429);
    expect(errorCodes(twoMore)).toEqual(['TOO_MANY_REQUESTS']);
    expect(twoMore.headers.get('retry-after')).toBe('3600');
    expect(await snapshot(foyer, tenantId)).toEqual(before);
    // The hundredth still goes out; then reset links count against the same allowance.
    expect((await ask(foyer, busy, INVITE, { names: [newAddress()] })).body.errors).toBeUndefined();
    const viewer = await addMember(foyer, tenantId, { role: 'VIEWER' });
    expect(errorCodes(await ask(foyer, busy, RESET, { id: viewer.tenantUserId }))).toEqual(['TOO_MANY_REQUESTS']);
  });
});

describe('deleting a member', () => {
  it("removes this workspace's membership only: the identity and its other workspaces stay", async () => {
    const member = await createMember(foyer, { workspaces: ['Acme', 'Globex'] });
    const answer = await ask(foyer, owner, DELETE, { id: member.memberships.Acme });
    expect(answer.body.data?.deleteUser).toBe(true);
    const left = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.userId, member.userId));
    expect(left.map((membership) => membership.id)).toEqual([member.memberships.Globex]);
    const browser = new Browser();
    expect((await call(foyer, browser, 'POST', '/auth/authenticate', { username: member.email, password: member.password })).status).toBe(
      200,
    );
    expect((await workspaces(foyer, browser)).map((workspace) => workspace.tenant.name)).toEqual(['Globex']);
    // Gone is gone: a second delete finds nobody.
    expect(errorCodes(await ask(foyer, owner, DELETE, { id: member.memberships.Acme }))).toEqual(['NOT_FOUND']);
  });

  it('retires the invitation link of an invitee who never used it', async () => {
    const address = newAddress();
    const [invited] = (await ask(foyer, owner, INVITE, { names: [address] })).body.data?.createUsers as { id: string }[];
    expect((await ask(foyer, owner, DELETE, { id: invited!.id })).body.data?.deleteUser).toBe(true);
    const set = await setPassword(new Browser(), tokenOf((await mailTo(foyer, address))[0]!.link), NEW_PASSWORD);
    expect(await set.json()).toMatchObject({ statusCode: 400, error: 'LINK_EXPIRED' });
  });
});

describe('sending a reset link', () => {
  it('mails the member a link that sets a new password', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const answer = await ask(foyer, owner, RESET, { id: member.memberships.Acme });
    expect(answer.body.data?.sendPasswordResetLink).toBe(true);
    const mail = await mailTo(foyer, member.email);
    expect(mail.map((message) => message.kind)).toEqual(['reset']);
    const set = await setPassword(new Browser(), tokenOf(mail[0]!.link), NEW_PASSWORD);
    expect(set.status).toBe(200);
    const browser = new Browser();
    expect((await call(foyer, browser, 'POST', '/auth/authenticate', { username: member.email, password: NEW_PASSWORD })).status).toBe(200);
    expect((await call(foyer, browser, 'POST', '/auth/authenticate', { username: member.email, password: member.password })).status).toBe(
      401,
    );
  });
});

describe('when the mail cannot go out', () => {
  let down: TestFoyer;
  let downOwner: Membership;

  beforeAll(async () => {
    // An SMTP server address where nothing listens: every delivery fails.
    down = await startFoyer({ smtpUrl: `smtp://127.0.0.1:${await freePort()}` });
    downOwner = await findMembership(down.db, 'owner@demo.foyer.test', 'Acme');
  });
  afterAll(() => down?.close());

  it('an invitation is taken back and reported for its address', async () => {
    const address = newAddress();
    const answer = await ask(down, downOwner, INVITE, { names: [address] });
    expect(answer.status).toBe(400);
    const failure = answer.body.errors![0]!.extensions as unknown as InviteFailure;
    expect(failure).toMatchObject({ reasons: { [address]: 'MAIL_NOT_SENT' }, invited: [] });
    expect(await down.db.select().from(users).where(eq(users.email, address))).toEqual([]);
    expect(await down.db.select().from(auditEvents).where(eq(auditEvents.type, 'user.invited'))).toEqual([]);
  });

  it('a reset link answers SERVICE_UNAVAILABLE (503) and the unsent link is dead', async () => {
    const member = await createMember(down, { workspaces: ['Acme'] });
    const answer = await ask(down, downOwner, RESET, { id: member.memberships.Acme });
    expect(answer.status).toBe(503);
    expect(errorCodes(answer)).toEqual(['SERVICE_UNAVAILABLE']);
    const links = await down.db.select().from(userTokens).where(eq(userTokens.userId, member.userId));
    expect(links).toHaveLength(1);
    expect(links[0]!.usedAt).toBeInstanceOf(Date);
  });
});

describe('a pending invitation', () => {
  const RESEND = 'mutation ($id: String!) { resendInvitation(userId: $id) }';
  const LIST = '{ listUsers(limit: 100) { id email invitationPending } }';

  it('shows as pending, is mailed again with a new link that replaces the old one, and is refused to others', async () => {
    const address = newAddress();
    const [invited] = (await ask(foyer, owner, INVITE, { names: [address] })).body.data?.createUsers as { id: string }[];
    const listed = (await ask(foyer, owner, LIST)).body.data?.listUsers as { id: string; invitationPending: boolean }[];
    expect(listed.find((user) => user.id === invited!.id)?.invitationPending).toBe(true);
    expect(listed.find((user) => user.id === owner.tenantUserId)?.invitationPending).toBe(false);

    const first = tokenOf((await mailTo(foyer, address))[0]!.link);
    const resent = await ask(foyer, owner, RESEND, { id: invited!.id });
    expect(resent.body.data?.resendInvitation).toBe(true);
    const mail = await mailTo(foyer, address);
    expect(mail.map((message) => message.kind)).toEqual(['invite', 'invite']);
    const second = tokenOf(mail[1]!.link);
    expect(second).not.toBe(first);
    const browser = new Browser();
    expect(await (await call(foyer, browser, 'GET', `/auth/password/${first}`, undefined, { appId: null })).json()).toMatchObject({
      error: 'LINK_EXPIRED',
    });
    expect((await call(foyer, browser, 'GET', `/auth/password/${second}`, undefined, { appId: null })).status).toBe(200);

    // Not pending (the owner), another workspace's caller, and a viewer without USER_WRITE.
    expect(errorCodes(await ask(foyer, owner, RESEND, { id: owner.tenantUserId }))).toEqual(['NOT_FOUND']);
    const globexOwner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Globex');
    expect(errorCodes(await ask(foyer, globexOwner, RESEND, { id: invited!.id }))).toEqual(['NOT_FOUND']);
    const viewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
    expect(errorCodes(await ask(foyer, viewer, RESEND, { id: invited!.id }))).toEqual(['FORBIDDEN']);
    expect(await mailTo(foyer, address)).toHaveLength(2);
  });
});
