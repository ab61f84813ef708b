// Passkeys against a whole Foyer with real WebAuthn responses from a software authenticator:
// registration through a mailed link and from the profile, sign-in that answers like authenticate,
// and every replay, wrong origin, wrong RP ID, foreign challenge and foreign passkey refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, auditEvents, passkeys, tenants, userTokens, users } from '../../../server/db/schema.ts';
import { issueToken } from '../../../server/auth/tokens/service.ts';
import { Browser } from '../oidc/browser.ts';
import { authorizationRequest, callbackUri, postJson, relyingParty, workspaces } from '../oidc/sign-in.ts';
import { findMembership, mintAccessToken } from '../support/tokens.ts';
import { newMember, type Member } from '../mfa/support.ts';
import { SoftwareAuthenticator } from './authenticator.ts';

let foyer: TestFoyer;
let auth: string;
let ui: string;

beforeAll(async () => {
  foyer = await startFoyer();
  auth = foyer.urls.auth;
  ui = foyer.urls.ui;
});

afterAll(async () => {
  await foyer?.close();
});

interface Json {
  [key: string]: unknown;
}

async function resetLink(member: Member): Promise<string> {
  return issueToken(foyer.db, { appId: foyer.demo.appId, userId: member.id, purpose: 'reset' });
}

async function getJson(browser: Browser, url: string, headers: Record<string, string> = {}) {
  return browser.request(url, { headers: { accept: 'application/json', ...headers }, origin: ui });
}

/** Registers a passkey for `member` through a reset link, as the set-password screen does. */
async function registerThroughLink(member: Member, authenticator = new SoftwareAuthenticator()) {
  const token = await resetLink(member);
  const browser = new Browser();
  const options = (await (
    await getJson(browser, `${auth}/auth/passkeys/registration-options?forgotPasswordToken=${token}`)
  ).json()) as never;
  const response = authenticator.register(options, { origin: ui });
  const verified = await postJson(browser, `${auth}/auth/passkeys/verify-registration?forgotPasswordToken=${token}`, response, ui);
  expect(verified.status).toBe(200);
  expect(await verified.json()).toEqual({ verified: true });
  return authenticator;
}

/** A browser at the hosted login screen of a pending authorization, with fresh sign-in options. */
async function atLoginScreen(): Promise<Browser> {
  const browser = new Browser();
  const pending = await authorizationRequest(await relyingParty(foyer), callbackUri(foyer));
  const landing = await browser.navigate(pending.url, (url) => url.origin === ui);
  expect(landing.url).toBe(`${ui}/auth/login?appId=${foyer.demo.appId}`);
  return browser;
}

async function authenticationOptions(browser: Browser): Promise<{ challenge: string; rpId: string; allowCredentials?: unknown[] }> {
  const response = await getJson(browser, `${auth}/auth/passkeys/authentication-options`);
  expect(response.status).toBe(200);
  return (await response.json()) as never;
}

const verifyAuthentication = (browser: Browser, body: unknown) =>
  postJson(browser, `${auth}/auth/passkeys/verify-authentication`, body, ui);

describe('registration through a mailed link', () => {
  it('offers options for the link user: 32-byte user id, resident key required, existing passkeys excluded', async () => {
    const member = await newMember(foyer, 'Acme');
    const authenticator = await registerThroughLink(member);
    const token = await resetLink(member);
    const response = await getJson(new Browser(), `${auth}/auth/passkeys/registration-options?forgotPasswordToken=${token}`);
    const options = (await response.json()) as Json & {
      user: { id: string; name: string };
      rp: { id: string };
      excludeCredentials: { id: string }[];
    };
    expect(options.rp.id).toBe('localhost');
    expect(options.user.name).toBe(member.email);
    expect(Buffer.from(options.user.id, 'base64url').length).toBe(32);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true });
    expect(options.excludeCredentials.map((credential) => credential.id)).toEqual([authenticator.credentials[0]!.id.toString('base64url')]);
    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.id));
    expect(user!.passkeyUserHandle).toBe(options.user.id);
  });

  it('refuses registration without a live link', async () => {
    const member = await newMember(foyer, 'Acme');
    const browser = new Browser();
    for (const query of ['forgotPasswordToken=not-a-token', 'forgotPasswordToken=' + 'a'.repeat(43), '']) {
      const response = await getJson(browser, `${auth}/auth/passkeys/registration-options?${query}`);
      expect([400, 401]).toContain(response.status);
    }
    // A used link no longer authorises the step it started.
    const token = await resetLink(member);
    const options = (await (
      await getJson(browser, `${auth}/auth/passkeys/registration-options?forgotPasswordToken=${token}`)
    ).json()) as never;
    await foyer.db.update(userTokens).set({ usedAt: new Date() }).where(eq(userTokens.userId, member.id));
    const response = new SoftwareAuthenticator().register(options, { origin: ui });
    const refused = await postJson(browser, `${auth}/auth/passkeys/verify-registration?forgotPasswordToken=${token}`, response, ui);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'LINK_EXPIRED' });
    expect(await foyer.db.select().from(passkeys).where(eq(passkeys.userId, member.id))).toEqual([]);
  });

  it('refuses a wrong origin, a wrong RP ID and a replayed or foreign registration challenge', async () => {
    const member = await newMember(foyer, 'Acme');
    const other = await newMember(foyer, 'Acme');
    const token = await resetLink(member);
    const otherToken = await resetLink(other);
    const browser = new Browser();
    const url = (secret: string) => `${auth}/auth/passkeys/registration-options?forgotPasswordToken=${secret}`;
    const verifyUrl = (secret: string) => `${auth}/auth/passkeys/verify-registration?forgotPasswordToken=${secret}`;
    const fresh = async () => (await (await getJson(browser, url(token))).json()) as never;

    const authenticator = new SoftwareAuthenticator();
    for (const ceremony of [{ origin: 'http://evil.localhost:8080' }, { origin: ui, rpId: 'evil.test' }]) {
      const refused = await postJson(browser, verifyUrl(token), authenticator.register(await fresh(), ceremony), ui);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ statusCode: 400, error: 'PASSKEY_NOT_VERIFIED' });
    }
    // The other user's challenge does not register a passkey for this user, nor this one's for them.
    const othersOptions = (await (await getJson(browser, url(otherToken))).json()) as never;
    const foreign = await postJson(browser, verifyUrl(token), authenticator.register(othersOptions, { origin: ui }), ui);
    expect(foreign.status).toBe(400);

    const options = await fresh();
    const response = authenticator.register(options, { origin: ui });
    expect((await postJson(browser, verifyUrl(token), response, ui)).status).toBe(200);
    const replayed = await postJson(browser, verifyUrl(token), response, ui);
    expect(replayed.status).toBe(400);
    expect(await foyer.db.select().from(passkeys).where(eq(passkeys.userId, member.id))).toHaveLength(1);
    expect(await foyer.db.select().from(passkeys).where(eq(passkeys.userId, other.id))).toHaveLength(0);
  });

  it('answers malformed bodies with 400, never 500', async () => {
    const member = await newMember(foyer, 'Acme');
    const token = await resetLink(member);
    const browser = new Browser();
    const verifyUrl = `${auth}/auth/passkeys/verify-registration?forgotPasswordToken=${token}`;
    const options = (await (
      await getJson(browser, `${auth}/auth/passkeys/registration-options?forgotPasswordToken=${token}`)
    ).json()) as never;
    const good = new SoftwareAuthenticator().register(options, { origin: ui });
    const bodies: unknown[] = [
      {},
      { ...good, type: 'password' },
      { ...good, response: { ...good.response, attestationObject: '!!' } },
      { ...good, response: { ...good.response, attestationObject: 'AAAA' } },
      { ...good, response: { ...good.response, clientDataJSON: Buffer.from('not json').toString('base64url') } },
      'text',
    ];
    for (const body of bodies) {
      const response = await postJson(browser, verifyUrl, body, ui);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ statusCode: 400 });
    }
  });
});

describe('sign-in', () => {
  it('signs in like authenticate: session, mfaState, tenantUserId, workspaces, audit', async () => {
    const member = await newMember(foyer, 'Acme');
    const authenticator = await registerThroughLink(member);
    const browser = await atLoginScreen();
    const options = await authenticationOptions(browser);
    expect(options.rpId).toBe('localhost');
    expect(options.allowCredentials ?? []).toEqual([]);
    const response = await verifyAuthentication(browser, authenticator.authenticate(options, { origin: ui }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      session: true,
      expiresIn: expect.any(Number),
      mfaState: 'DISABLED',
      tenantUserId: member.tenantUserId,
    });
    expect((await workspaces(foyer, browser)).map((workspace) => workspace.id)).toEqual([member.tenantUserId]);
    const [stored] = await foyer.db.select().from(passkeys).where(eq(passkeys.userId, member.id));
    expect(stored!.counter).toBe(1);
    expect(stored!.lastUsedAt).not.toBeNull();
    const events = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, member.id), eq(auditEvents.type, 'login.success')));
    expect(events.map((event) => event.detail)).toEqual([expect.objectContaining({ method: 'passkey' })]);
  });

  it('refuses a replayed assertion and a replayed challenge', async () => {
    const member = await newMember(foyer, 'Acme');
    const authenticator = await registerThroughLink(member);
    const browser = await atLoginScreen();
    const options = await authenticationOptions(browser);
    const assertion = authenticator.authenticate(options, { origin: ui });
    expect((await verifyAuthentication(browser, assertion)).status).toBe(200);
    // The same response again (the sign-in replaced the session, so also from a fresh one).
    const replay = await verifyAuthentication(browser, assertion);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ statusCode: 401, error: 'PASSKEY_NOT_VERIFIED' });
    // A new assertion (counter grown) over the used challenge.
    await authenticationOptions(browser);
    const overUsedChallenge = authenticator.authenticate(options, { origin: ui });
    expect((await verifyAuthentication(browser, overUsedChallenge)).status).toBe(401);
  });

  it('refuses an assertion whose counter did not grow', async () => {
    const member = await newMember(foyer, 'Acme');
    const authenticator = await registerThroughLink(member);
    const browser = await atLoginScreen();
    const credential = authenticator.credentials[0]!;
    expect(
      (await verifyAuthentication(browser, authenticator.authenticate(await authenticationOptions(browser), { origin: ui }))).status,
    ).toBe(200);
    credential.counter = 0; // a cloned authenticator reports an old counter
    const cloned = authenticator.authenticate(await authenticationOptions(browser), { origin: ui });
    expect((await verifyAuthentication(browser, cloned)).status).toBe(401);
  });

  it('refuses a wrong origin, a wrong RP ID, a forged signature and another session’s challenge', async () => {
    const member = await newMember(foyer, 'Acme');
    const authenticator = await registerThroughLink(member);
    const browser = await atLoginScreen();
    const wrongOrigin = authenticator.authenticate(await authenticationOptions(browser), { origin: 'http://localhost:1' });
    expect((await verifyAuthentication(browser, wrongOrigin)).status).toBe(401);
    const wrongRpId = authenticator.authenticate(await authenticationOptions(browser), { origin: ui, rpId: 'evil.test' });
    expect((await verifyAuthentication(browser, wrongRpId)).status).toBe(401);
    const forged = authenticator.authenticate(await authenticationOptions(browser), { origin: ui });
    const signature = Buffer.from(forged.response.signature, 'base64url');
    signature[signature.length - 1]! ^= 1;
    const tampered = { ...forged, response: { ...forged.response, signature: signature.toString('base64url') } };
    expect((await verifyAuthentication(browser, tampered)).status).toBe(401);

    const victim = await atLoginScreen();
    const victimsOptions = await authenticationOptions(victim);
    const stolen = authenticator.authenticate(victimsOptions, { origin: ui });
    expect((await verifyAuthentication(browser, stolen)).status).toBe(401);
    // Without a login session nothing was started.
    expect((await verifyAuthentication(new Browser(), stolen)).status).toBe(400);

    const failures = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'login.failure'), eq(auditEvents.appId, foyer.demo.appId)));
    expect(failures.filter((event) => event.detail.method === 'passkey').length).toBeGreaterThanOrEqual(4);
  });

  it('refuses a passkey of another app’s user and one whose user handle differs', async () => {
    const member = await newMember(foyer, 'Acme');
    const authenticator = await registerThroughLink(member);
    const browser = await atLoginScreen();
    const options = await authenticationOptions(browser);
    const assertion = authenticator.authenticate(options, { origin: ui });
    const otherHandle = { ...assertion, response: { ...assertion.response, userHandle: Buffer.alloc(32, 7).toString('base64url') } };
    expect((await verifyAuthentication(browser, otherHandle)).status).toBe(401);
  });

  it('still applies two-factor: a required second factor leaves the session unauthenticated', async () => {
    const member = await newMember(foyer, 'Acme', { mfaPhoneNumber: '+46701234567' });
    const authenticator = await registerThroughLink(member);
    await foyer.db.update(tenants).set({ mfa: true }).where(eq(tenants.name, 'Acme'));
    try {
      const browser = await atLoginScreen();
      const response = await verifyAuthentication(
        browser,
        authenticator.authenticate(await authenticationOptions(browser), { origin: ui }),
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ session: true, mfaState: 'REQUIRED' });
      const picker = await browser.request(`${auth}/auth/tenantUsers`, { origin: ui });
      expect(picker.status).toBe(401);
    } finally {
      await foyer.db.update(tenants).set({ mfa: false }).where(eq(tenants.name, 'Acme'));
    }
  });

  it('answers 403 when the app has passkeys switched off, and 400 for malformed assertions', async () => {
    const browser = await atLoginScreen();
    const options = await authenticationOptions(browser);
    for (const body of [
      {},
      { id: 'x', rawId: 'x', type: 'public-key', response: {} },
      { id: '../', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'a', authenticatorData: 'a', signature: 'a' } },
    ]) {
      expect((await verifyAuthentication(browser, body)).status).toBe(400);
    }
    const garbage = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
    };
    expect((await verifyAuthentication(browser, garbage)).status).toBe(401);
    expect(options.challenge).toBeTruthy();

    const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
    await foyer.db
      .update(apps)
      .set({ settings: { ...app!.settings, passkeysEnabled: false } })
      .where(eq(apps.id, app!.id));
    try {
      const refused = await getJson(browser, `${auth}/auth/passkeys/authentication-options`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: 'PASSKEYS_DISABLED' });
    } finally {
      await foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, app!.id));
    }
  });
});

describe('profile management with the access token', () => {
  async function bearerFor(email: string) {
    const membership = await findMembership(foyer.db, email, 'Acme');
    return `Bearer ${await mintAccessToken(foyer.db, membership, { issuer: auth })}`;
  }

  it('lists, registers and deletes only the signed-in user’s passkeys', async () => {
    const member = await newMember(foyer, 'Acme');
    const other = await newMember(foyer, 'Acme');
    await registerThroughLink(member);
    const othersAuthenticator = await registerThroughLink(other);
    const authorization = await bearerFor(member.email);
    const browser = new Browser();

    const listed = await getJson(browser, `${auth}/auth/passkeys`, { authorization });
    expect(listed.status).toBe(200);
    const list = (await listed.json()) as { id: string; name: string; createdAt: string; lastUsedAt: string | null }[];
    expect(list).toEqual([{ id: expect.any(String), name: 'Passkey 1', createdAt: expect.any(String), lastUsedAt: null }]);

    const options = (await (await getJson(browser, `${auth}/auth/passkeys/registration-options`, { authorization })).json()) as never;
    const added = await browser.request(`${auth}/auth/passkeys/verify-registration`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(new SoftwareAuthenticator().register(options, { origin: ui })),
      origin: ui,
    });
    expect(added.status).toBe(200);
    expect(await foyer.db.select().from(passkeys).where(eq(passkeys.userId, member.id))).toHaveLength(2);

    const othersId = othersAuthenticator.credentials[0]!.id.toString('base64url');
    const foreign = await browser.request(`${auth}/auth/passkeys/${othersId}`, {
      method: 'DELETE',
      headers: { authorization },
      origin: ui,
    });
    expect(foreign.status).toBe(404);
    expect(await foyer.db.select().from(passkeys).where(eq(passkeys.id, othersId))).toHaveLength(1);

    const own = await browser.request(`${auth}/auth/passkeys/${list[0]!.id}`, { method: 'DELETE', headers: { authorization }, origin: ui });
    expect(own.status).toBe(204);
    expect(await foyer.db.select().from(passkeys).where(eq(passkeys.userId, member.id))).toHaveLength(1);
  });

  it('renames only the signed-in user’s own passkeys, to a non-blank name of at most 64 characters', async () => {
    const member = await newMember(foyer, 'Acme');
    const other = await newMember(foyer, 'Acme');
    await registerThroughLink(member);
    const othersId = (await registerThroughLink(other)).credentials[0]!.id.toString('base64url');
    const authorization = await bearerFor(member.email);
    const browser = new Browser();
    const [own] = (await (await getJson(browser, `${auth}/auth/passkeys`, { authorization })).json()) as { id: string }[];
    const rename = (id: string, name: unknown) =>
      browser.request(`${auth}/auth/passkeys/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ name }),
        origin: ui,
      });

    expect((await rename(own!.id, '  Work laptop  ')).status).toBe(204);
    expect((await foyer.db.select({ name: passkeys.name }).from(passkeys).where(eq(passkeys.id, own!.id)))[0]!.name).toBe('Work laptop');

    const foreign = await rename(othersId, 'Mine now');
    expect(foreign.status).toBe(404);
    expect((await foyer.db.select({ name: passkeys.name }).from(passkeys).where(eq(passkeys.id, othersId)))[0]!.name).toBe('Passkey 1');
    const blank = await rename(own!.id, '   ');
    expect(blank.status).toBe(400);
    expect(await blank.json()).toMatchObject({ error: 'PASSKEY_NAME_REQUIRED' });
    for (const bad of ['x'.repeat(65), null, { name: 'nested' }]) expect((await rename(own!.id, bad)).status).toBe(400);
  });

  it('refuses calls without a valid access token', async () => {
    const browser = new Browser();
    for (const authorization of [undefined, 'Bearer nonsense', 'Basic abc']) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      expect((await getJson(browser, `${auth}/auth/passkeys`, headers)).status).toBe(401);
      expect((await getJson(browser, `${auth}/auth/passkeys/registration-options`, headers)).status).toBe(401);
      expect((await browser.request(`${auth}/auth/passkeys/AAAA`, { method: 'DELETE', headers, origin: ui })).status).toBe(401);
      const rename = {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x' }),
        origin: ui,
      };
      expect((await browser.request(`${auth}/auth/passkeys/AAAA`, rename)).status).toBe(401);
    }
  });
});
