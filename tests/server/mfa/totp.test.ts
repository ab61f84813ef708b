// Two-factor by authenticator app against a whole Foyer: setup with a scanned secret, sign-in with
// codes computed here as the app would (otpauth), the limits, replays, recovery, and what a sign-in
// whose second factor is still due must never reach.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP, URI } from 'otpauth';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, auditEvents, mfaTotpSetups, tenants, users } from '../../../server/db/schema.ts';
import { openSecret, sealSecret, totpKey } from '../../../server/auth/mfa/totp.ts';
import { Browser } from '../oidc/browser.ts';
import { callbackUri, choose, workspaces } from '../oidc/sign-in.ts';
import { call, lastCode, newMember, otherThan, signInWithPassword, textsTo, type Member } from './support.ts';

let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer();
  await foyer.db.update(tenants).set({ mfa: true }).where(eq(tenants.name, 'Acme'));
});

afterAll(async () => {
  await foyer?.close();
});

interface TotpSetup {
  secret: string;
  otpauthUrl: string;
  qrCodeDataUrl: string;
}

const STEP_MS = 30_000;

/** The code an authenticator app shows for `secret`, `stepsAhead` steps from now. */
function codeOf(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * STEP_MS });
}

async function startSetup(browser: Browser): Promise<TotpSetup> {
  const started = await call(foyer, browser, '/auth/startTotpSetup');
  expect(started.status).toBe(200);
  return (await started.json()) as TotpSetup;
}

/**
 * A member of Acme who set up the app: the secret and recovery code. Setup used the current step, so
 * sign-ins below use the next one (still inside the accepted window) or forget the last step first.
 */
async function setUpMember(): Promise<{ member: Member; secret: string; backupCode: string }> {
  const member = await newMember(foyer, 'Acme');
  const { browser } = await signInWithPassword(foyer, member);
  const { secret } = await startSetup(browser);
  const finished = await call(foyer, browser, '/auth/finishTotpSetup', { mfaCode: codeOf(secret) });
  expect(finished.status).toBe(200);
  const { backupCode } = (await finished.json()) as { backupCode: string };
  return { member, secret, backupCode };
}

/** As if the last accepted code were minutes old (the next sign-in may use the current step). */
async function forgetLastStep(member: Member) {
  await foyer.db.update(users).set({ mfaTotpLastStep: null }).where(eq(users.id, member.id));
}

async function methods(browser: Browser) {
  const response = await browser.request(`${foyer.urls.auth}/auth/mfaMethods`, { origin: foyer.urls.ui });
  expect(response.status).toBe(200);
  return ((await response.json()) as { methods: string[] }).methods;
}

describe('setup', () => {
  it('answers a secret with its QR code, stores it encrypted once a code proves it, and answers a recovery code', async () => {
    const member = await newMember(foyer, 'Acme');
    const { browser, answer } = await signInWithPassword(foyer, member);
    expect(answer).toMatchObject({ session: true, mfaState: 'SETUP' });
    expect(await methods(browser)).toEqual([]);

    const setup = await startSetup(browser);
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
    const parsed = URI.parse(setup.otpauthUrl) as TOTP;
    expect(parsed).toBeInstanceOf(TOTP);
    expect(parsed).toMatchObject({ label: member.email, issuer: app!.name, digits: 6, period: 30, algorithm: 'SHA1' });
    expect(parsed.secret.base32).toBe(setup.secret);
    expect(setup.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(setup.qrCodeDataUrl.split(',')[1]!, 'base64').subarray(1, 4).toString()).toBe('PNG');

    // The pending secret is stored sealed, never in clear.
    const [pending] = await foyer.db.select().from(mfaTotpSetups).where(eq(mfaTotpSetups.userId, member.id));
    expect(pending!.secret).not.toContain(setup.secret);
    expect(openSecret(totpKey(foyer.config.secret), member.id, pending!.secret)).toBe(setup.secret);
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);

    const wrong = await call(foyer, browser, '/auth/finishTotpSetup', { mfaCode: otherThan(codeOf(setup.secret)) });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ statusCode: 401, message: 'Wrong security code', error: 'WRONG_MFA_CODE' });

    const before = browser.cookie(foyer.urls.auth, 'foyer_login');
    const finished = await call(foyer, browser, '/auth/finishTotpSetup', { mfaCode: codeOf(setup.secret) });
    expect(finished.status).toBe(200);
    const { backupCode } = (await finished.json()) as { backupCode: string };
    expect(backupCode).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
    expect(browser.cookie(foyer.urls.auth, 'foyer_login')).not.toBe(before);

    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.id));
    expect(user!.mfaPhoneNumber).toBeNull();
    expect(user!.mfaRecoveryCodeHash).toMatch(/^\$argon2id\$/);
    expect(user!.mfaTotpSecret).not.toContain(setup.secret);
    expect(openSecret(totpKey(foyer.config.secret), member.id, user!.mfaTotpSecret!)).toBe(setup.secret);
    // Sealed for this user: the value copied to another user's row does not open.
    expect(() => openSecret(totpKey(foyer.config.secret), 'another-user', user!.mfaTotpSecret!)).toThrow();
    expect(await foyer.db.select().from(mfaTotpSetups).where(eq(mfaTotpSetups.userId, member.id))).toEqual([]);

    expect((await workspaces(foyer, browser)).map((entry) => entry.id)).toEqual([member.tenantUserId]);
    const callback = new URL(await choose(foyer, browser, member.tenantUserId, callbackUri(foyer)));
    expect(callback.searchParams.get('code')).toBeTruthy();
    const events = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, member.id), eq(auditEvents.type, 'mfa.setup_finished')));
    expect(events.map((event) => event.detail)).toEqual([{ method: 'totp' }]);
  });

  it('needs a new secret after five wrong setup codes', async () => {
    const member = await newMember(foyer, 'Acme');
    const { browser } = await signInWithPassword(foyer, member);
    const first = await startSetup(browser);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await call(foyer, browser, '/auth/finishTotpSetup', { mfaCode: otherThan(codeOf(first.secret)) });
      expect(await response.json()).toMatchObject({ error: 'WRONG_MFA_CODE' });
    }
    const sixth = await call(foyer, browser, '/auth/finishTotpSetup', { mfaCode: codeOf(first.secret) });
    expect(await sixth.json()).toMatchObject({ statusCode: 401, error: 'MFA_CODE_EXPIRED' });

    const second = await startSetup(browser);
    expect(second.secret).not.toBe(first.secret);
    expect((await call(foyer, browser, '/auth/finishTotpSetup', { mfaCode: codeOf(first.secret) })).status).toBe(401);
    expect((await call(foyer, browser, '/auth/finishTotpSetup', { mfaCode: codeOf(second.secret) })).status).toBe(200);
  });

  it('refuses finishing before starting, and any setup once a second factor exists', async () => {
    const member = await newMember(foyer, 'Acme');
    const { browser } = await signInWithPassword(foyer, member);
    const early = await call(foyer, browser, '/auth/finishTotpSetup', { mfaCode: '123456' });
    expect(await early.json()).toMatchObject({ statusCode: 401, error: 'MFA_CODE_EXPIRED' });
    const missing = await call(foyer, browser, '/auth/finishTotpSetup', {});
    expect(await missing.json()).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });

    const { member: enrolled } = await setUpMember();
    const again = await signInWithPassword(foyer, enrolled);
    expect(again.answer.mfaState).toBe('REQUIRED');
    // Someone holding only the password must not add (or swap in) a factor of their own.
    for (const [path, body] of [
      ['/auth/startTotpSetup', {}],
      ['/auth/finishTotpSetup', { mfaCode: '123456' }],
      ['/auth/startMfaUserSetup', { phoneNumber: '+46701234567' }],
      ['/auth/finishMfaUserSetup', { mfaCode: '123456' }],
    ] as const) {
      const response = await call(foyer, again.browser, path, body);
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ statusCode: 409, error: 'MFA_ALREADY_SET_UP' });
    }
  });
});

describe('sign-in with an authenticator app', () => {
  it('answers REQUIRED with method totp, texts nothing, and passes with a code from the app', async () => {
    const { member, secret } = await setUpMember();
    const { browser, answer } = await signInWithPassword(foyer, member);
    expect(answer).toMatchObject({ session: true, mfaState: 'REQUIRED' });
    expect(await methods(browser)).toEqual(['totp']);
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
    // No phone: nothing to text, and SMS cannot be chosen.
    const resend = await call(foyer, browser, '/auth/resendMfaCode');
    expect(await resend.json()).toMatchObject({ statusCode: 409, error: 'MFA_METHOD_NOT_SET_UP' });
    const bySms = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret, 1), method: 'sms' });
    expect(await bySms.json()).toMatchObject({ statusCode: 409, error: 'MFA_METHOD_NOT_SET_UP' });
    const unknown = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret, 1), method: 'email' });
    expect(await unknown.json()).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });

    const wrong = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: otherThan(codeOf(secret, 1)) });
    expect(await wrong.json()).toEqual({ statusCode: 401, message: 'Wrong security code', error: 'WRONG_MFA_CODE' });
    // A code three steps away is no longer accepted (the window is one step either side).
    const stale = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret, -3) });
    expect(await stale.json()).toMatchObject({ error: 'WRONG_MFA_CODE' });

    const before = browser.cookie(foyer.urls.auth, 'foyer_login');
    expect((await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret, 1), method: 'totp' })).status).toBe(204);
    expect(browser.cookie(foyer.urls.auth, 'foyer_login')).not.toBe(before);
    expect((await workspaces(foyer, browser)).map((entry) => entry.id)).toEqual([member.tenantUserId]);
  });

  it('refuses a replayed code, in another sign-in and in two requests at once', async () => {
    const { member, secret } = await setUpMember();
    // The setup code's step is used up already.
    const [enrolled] = await foyer.db.select().from(users).where(eq(users.id, member.id));
    const setupCode = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: enrolled!.mfaTotpLastStep! * STEP_MS + 1000 });
    const setupStep = await signInWithPassword(foyer, member);
    const replayedSetup = await call(foyer, setupStep.browser, '/auth/commitMfaCode', { mfaCode: setupCode });
    expect(await replayedSetup.json()).toMatchObject({ statusCode: 401, error: 'WRONG_MFA_CODE' });

    await forgetLastStep(member);
    const code = codeOf(secret);
    const first = await signInWithPassword(foyer, member);
    expect((await call(foyer, first.browser, '/auth/commitMfaCode', { mfaCode: code })).status).toBe(204);
    const second = await signInWithPassword(foyer, member);
    const replayed = await call(foyer, second.browser, '/auth/commitMfaCode', { mfaCode: code });
    expect(await replayed.json()).toMatchObject({ statusCode: 401, error: 'WRONG_MFA_CODE' });
    expect((await second.browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
    const failures = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, member.id), eq(auditEvents.type, 'mfa.failure')));
    expect(failures.map((event) => event.detail)).toContainEqual({ reason: 'replayed', method: 'totp' });

    await forgetLastStep(member);
    const one = await signInWithPassword(foyer, member);
    const two = await signInWithPassword(foyer, member);
    const racing = codeOf(secret);
    const answers = await Promise.all([
      call(foyer, one.browser, '/auth/commitMfaCode', { mfaCode: racing }),
      call(foyer, two.browser, '/auth/commitMfaCode', { mfaCode: racing }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 401]);
  });

  it('refuses the sixth try even with the right code, in a new sign-in too', async () => {
    const { member, secret } = await setUpMember();
    const { browser } = await signInWithPassword(foyer, member);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: otherThan(codeOf(secret, 1)) });
      expect(await response.json()).toMatchObject({ statusCode: 401, error: 'WRONG_MFA_CODE' });
    }
    const sixth = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret, 1) });
    expect(sixth.status).toBe(429);
    expect(await sixth.json()).toMatchObject({ statusCode: 429, error: 'TOO_MANY_REQUESTS' });
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
    // The secret stays the same, so signing in again brings no new tries.
    const again = await signInWithPassword(foyer, member);
    expect((await call(foyer, again.browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret, 1) })).status).toBe(429);
  });

  it('starts counting afresh after the second factor passed', async () => {
    const { member, secret } = await setUpMember();
    const { browser } = await signInWithPassword(foyer, member);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: otherThan(codeOf(secret, 1)) })).status).toBe(401);
    }
    expect((await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret, 1) })).status).toBe(204);
    await forgetLastStep(member);
    const again = await signInWithPassword(foyer, member);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await call(foyer, again.browser, '/auth/commitMfaCode', { mfaCode: otherThan(codeOf(secret)) })).status).toBe(401);
    }
    expect((await call(foyer, again.browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret) })).status).toBe(204);
  });
});

describe('a user with an app and a phone', () => {
  it('lists both, texts only when SMS is picked, and takes a code of either', async () => {
    const phoneNumber = `+4670${randomInt(1_000_000, 9_999_999)}`;
    const secret = new Secret({ size: 20 }).base32;
    const member = await newMember(foyer, 'Acme', { mfaPhoneNumber: phoneNumber });
    await foyer.db
      .update(users)
      .set({ mfaTotpSecret: sealSecret(totpKey(foyer.config.secret), member.id, secret) })
      .where(eq(users.id, member.id));

    const byApp = await signInWithPassword(foyer, member);
    expect(byApp.answer.mfaState).toBe('REQUIRED');
    expect(await methods(byApp.browser)).toEqual(['totp', 'sms']);
    expect(await textsTo(foyer, phoneNumber)).toBe(0);
    // Without a method the app is meant.
    expect((await call(foyer, byApp.browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret) })).status).toBe(204);

    const bySms = await signInWithPassword(foyer, member);
    expect(await textsTo(foyer, phoneNumber)).toBe(0);
    expect((await call(foyer, bySms.browser, '/auth/resendMfaCode')).status).toBe(204);
    const code = await lastCode(foyer, phoneNumber);
    expect((await call(foyer, bySms.browser, '/auth/commitMfaCode', { mfaCode: code, method: 'sms' })).status).toBe(204);
    expect((await workspaces(foyer, bySms.browser)).map((entry) => entry.id)).toEqual([member.tenantUserId]);
  });
});

describe('a secret sealed under another server secret', () => {
  it('is refused with 409 MFA_SECRET_UNREADABLE (not a server error); the recovery code still works', async () => {
    const { member, secret, backupCode } = await setUpMember();
    await foyer.db
      .update(users)
      .set({ mfaTotpSecret: sealSecret(totpKey('a-previous-server-secret'), member.id, secret), mfaTotpLastStep: null })
      .where(eq(users.id, member.id));
    const { browser } = await signInWithPassword(foyer, member);
    const refused = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret) });
    expect(await refused.json()).toMatchObject({ statusCode: 409, error: 'MFA_SECRET_UNREADABLE' });
    expect((await call(foyer, browser, '/auth/resetUserMfaSetup', { backupCode })).status).toBe(204);
  });
});

describe('recovery', () => {
  it('removes the app with the recovery code, back to setup; the old secret no longer counts', async () => {
    const { member, secret, backupCode } = await setUpMember();
    const { browser } = await signInWithPassword(foyer, member);
    expect((await call(foyer, browser, '/auth/resetUserMfaSetup', { backupCode })).status).toBe(204);
    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.id));
    expect(user).toMatchObject({ mfaTotpSecret: null, mfaTotpLastStep: null, mfaRecoveryCodeHash: null });
    expect(await methods(browser)).toEqual([]);
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
    const old = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: codeOf(secret, 1) });
    expect(await old.json()).toMatchObject({ statusCode: 409, error: 'MFA_NOT_SET_UP' });

    // Setup again in the same session, with a new secret.
    const fresh = await startSetup(browser);
    expect(fresh.secret).not.toBe(secret);
    const finished = await call(foyer, browser, '/auth/finishTotpSetup', { mfaCode: codeOf(fresh.secret) });
    expect(finished.status).toBe(200);
    const again = await signInWithPassword(foyer, member);
    expect(again.answer.mfaState).toBe('REQUIRED');
    expect((await call(foyer, again.browser, '/auth/resetUserMfaSetup', { backupCode })).status).toBe(401);
  });
});

describe('before the second factor passed', () => {
  it('refuses tenantUsers, chooseTenantUser and finishing the authorization for an app user', async () => {
    const { member } = await setUpMember();
    const { browser, answer, interactionUid } = await signInWithPassword(foyer, member);
    expect(answer.mfaState).toBe('REQUIRED');
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
    const chosen = await browser.request(`${foyer.urls.auth}/auth/chooseTenantUser/${member.tenantUserId}`);
    expect(chosen.status).toBe(401);
    expect(chosen.headers.get('location')).toBeNull();
    const finish = await browser.request(`${foyer.urls.auth}/interaction/${interactionUid}/finish/${member.tenantUserId}`);
    expect(finish.status).toBe(403);
    expect(finish.headers.get('location')).toBeNull();
  });

  it('refuses the authenticator calls without a first factor', async () => {
    const stranger = new Browser();
    for (const [path, body] of [
      ['/auth/startTotpSetup', {}],
      ['/auth/finishTotpSetup', { mfaCode: '123456' }],
      ['/auth/commitMfaCode', { mfaCode: '123456', method: 'totp' }],
    ] as const) {
      const response = await call(foyer, stranger, path, body);
      expect(await response.json()).toMatchObject({ statusCode: 401, error: 'UNAUTHENTICATED' });
    }
    const listed = await stranger.request(`${foyer.urls.auth}/auth/mfaMethods`, { origin: foyer.urls.ui });
    expect(listed.status).toBe(401);
  });
});
