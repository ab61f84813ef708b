// Two-factor by SMS against a whole Foyer: setup, sign-in with a texted code, recovery, and what a
// sign-in whose second factor is still due must never reach.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, auditEvents, mfaCodes, tenants, users } from '../../../server/db/schema.ts';
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

const newPhoneNumber = () => `+4670${randomInt(1_000_000, 9_999_999)}`;

/** A member of Acme who went through setup: their number and recovery code. */
async function setUpMember(): Promise<{ member: Member; phoneNumber: string; backupCode: string }> {
  const member = await newMember(foyer, 'Acme');
  const phoneNumber = newPhoneNumber();
  const { browser } = await signInWithPassword(foyer, member);
  expect((await call(foyer, browser, '/auth/startMfaUserSetup', { phoneNumber })).status).toBe(204);
  const finished = await call(foyer, browser, '/auth/finishMfaUserSetup', { mfaCode: await lastCode(foyer, phoneNumber) });
  expect(finished.status).toBe(200);
  const { backupCode } = (await finished.json()) as { backupCode: string };
  return { member, phoneNumber, backupCode };
}

describe('setup', () => {
  it('answers SETUP, texts a code to the number, and signs in once the code comes back', async () => {
    const member = await newMember(foyer, 'Acme');
    const { browser, answer } = await signInWithPassword(foyer, member);
    expect(answer).toMatchObject({ session: true, mfaState: 'SETUP', tenantUserId: member.tenantUserId });
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);

    const phoneNumber = newPhoneNumber();
    // People write numbers in groups; the server keeps the E.164 form.
    const spaced = `${phoneNumber.slice(0, 3)} ${phoneNumber.slice(3, 6)} ${phoneNumber.slice(6)}`;
    expect((await call(foyer, browser, '/auth/startMfaUserSetup', { phoneNumber: spaced })).status).toBe(204);
    const code = await lastCode(foyer, phoneNumber);
    const [stored] = await foyer.db.select().from(mfaCodes).where(eq(mfaCodes.userId, member.id));
    expect(stored!.codeHash).not.toContain(code);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(9 * 60 * 1000);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000);

    const before = browser.cookie(foyer.urls.auth, 'foyer_login');
    const finished = await call(foyer, browser, '/auth/finishMfaUserSetup', { mfaCode: code });
    expect(finished.status).toBe(200);
    const { backupCode } = (await finished.json()) as { backupCode: string };
    expect(backupCode).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
    // A new session id once the second factor passed.
    expect(browser.cookie(foyer.urls.auth, 'foyer_login')).not.toBe(before);

    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.id));
    expect(user!.mfaPhoneNumber).toBe(phoneNumber);
    expect(user!.mfaRecoveryCodeHash).toMatch(/^\$argon2id\$/);
    expect((await workspaces(foyer, browser)).map((entry) => entry.id)).toEqual([member.tenantUserId]);
    const callback = new URL(await choose(foyer, browser, member.tenantUserId, callbackUri(foyer)));
    expect(callback.searchParams.get('code')).toBeTruthy();
    const events = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, member.id), eq(auditEvents.type, 'mfa.setup_finished')));
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0]!.detail)).not.toContain(phoneNumber);
  });

  it('refuses numbers that are not E.164 with 400 INVALID_PHONE_NUMBER and texts nothing', async () => {
    const member = await newMember(foyer, 'Acme');
    const { browser } = await signInWithPassword(foyer, member);
    for (const phoneNumber of ['0701234567', '+0701234567', '+46 70 ABC', '+4670123456789012', '+46', 'phone', '+46;70 123']) {
      const response = await call(foyer, browser, '/auth/startMfaUserSetup', { phoneNumber });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ statusCode: 400, error: 'INVALID_PHONE_NUMBER' });
    }
    const missing = await call(foyer, browser, '/auth/startMfaUserSetup', {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
    expect(await foyer.db.select().from(mfaCodes).where(eq(mfaCodes.userId, member.id))).toEqual([]);
  });

  it('does not apply when the app does not offer two-factor, whatever the workspace says', async () => {
    const member = await newMember(foyer, 'Acme');
    const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
    await foyer.db
      .update(apps)
      .set({ settings: { ...app!.settings, mfaEnabled: false } })
      .where(eq(apps.id, app!.id));
    try {
      const { browser, answer } = await signInWithPassword(foyer, member);
      expect(answer.mfaState).toBe('DISABLED');
      expect((await workspaces(foyer, browser)).map((entry) => entry.id)).toEqual([member.tenantUserId]);
      const late = await call(foyer, browser, '/auth/startMfaUserSetup', { phoneNumber: newPhoneNumber() });
      expect(late.status).toBe(401);
    } finally {
      await foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, app!.id));
    }
  });

  it('does not apply to a member of workspaces without the flag', async () => {
    const member = await newMember(foyer, 'Globex');
    const { answer } = await signInWithPassword(foyer, member);
    expect(answer.mfaState).toBe('DISABLED');
  });
});

describe('sign-in with a phone set up', () => {
  it('answers REQUIRED, texts a new code, and passes with it', async () => {
    const { member, phoneNumber } = await setUpMember();
    const sent = await textsTo(foyer, phoneNumber);
    const { browser, answer } = await signInWithPassword(foyer, member);
    expect(answer).toMatchObject({ session: true, mfaState: 'REQUIRED' });
    expect(await textsTo(foyer, phoneNumber)).toBe(sent + 1);
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);

    const code = await lastCode(foyer, phoneNumber);
    const wrong = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: otherThan(code) });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ statusCode: 401, message: 'Wrong security code', error: 'WRONG_MFA_CODE' });
    expect((await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: code })).status).toBe(204);
    expect((await workspaces(foyer, browser)).map((entry) => entry.id)).toEqual([member.tenantUserId]);
    // The code is used up.
    expect((await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: code })).status).toBe(401);
  });

  it('refuses the sixth try even with the right code, until a new code is sent', async () => {
    const { member, phoneNumber } = await setUpMember();
    const { browser } = await signInWithPassword(foyer, member);
    const code = await lastCode(foyer, phoneNumber);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: otherThan(code) });
      expect(await response.json()).toMatchObject({ statusCode: 401, error: 'WRONG_MFA_CODE' });
    }
    const sixth = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: code });
    expect(sixth.status).toBe(401);
    expect(await sixth.json()).toMatchObject({ error: 'MFA_CODE_EXPIRED' });
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);

    expect((await call(foyer, browser, '/auth/resendMfaCode')).status).toBe(204);
    const fresh = await lastCode(foyer, phoneNumber);
    expect((await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: fresh })).status).toBe(204);
  });

  it('refuses an expired code', async () => {
    const { member, phoneNumber } = await setUpMember();
    const { browser } = await signInWithPassword(foyer, member);
    const code = await lastCode(foyer, phoneNumber);
    await foyer.db
      .update(mfaCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(mfaCodes.userId, member.id));
    const response = await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: code });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'MFA_CODE_EXPIRED' });
  });

  it('keeps a code to the browser it was sent for', async () => {
    const { member, phoneNumber } = await setUpMember();
    const first = await signInWithPassword(foyer, member);
    const code = await lastCode(foyer, phoneNumber);
    const second = await signInWithPassword(foyer, member);
    // The second sign-in texted its own code; the first browser's code does not open the second.
    expect((await call(foyer, second.browser, '/auth/commitMfaCode', { mfaCode: code })).status).toBe(401);
    expect((await call(foyer, first.browser, '/auth/commitMfaCode', { mfaCode: code })).status).toBe(204);
  });

  it('limits the texts sent for one user', async () => {
    const { member, phoneNumber } = await setUpMember();
    const { browser } = await signInWithPassword(foyer, member);
    // Setup and this sign-in sent two; three more are allowed in the window.
    for (let resend = 0; resend < 3; resend += 1) expect((await call(foyer, browser, '/auth/resendMfaCode')).status).toBe(204);
    const refused = await call(foyer, browser, '/auth/resendMfaCode');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ statusCode: 429, error: 'TOO_MANY_REQUESTS' });
    expect(await textsTo(foyer, phoneNumber)).toBe(5);
  });

  it('refuses setup calls that would replace the phone', async () => {
    const { member } = await setUpMember();
    const { browser } = await signInWithPassword(foyer, member);
    const replaced = await call(foyer, browser, '/auth/startMfaUserSetup', { phoneNumber: newPhoneNumber() });
    expect(replaced.status).toBe(409);
    expect(await replaced.json()).toMatchObject({ error: 'MFA_ALREADY_SET_UP' });
  });
});

describe('recovery', () => {
  it('removes the phone with the recovery code, back to setup; the code never works again', async () => {
    const { member, backupCode, phoneNumber } = await setUpMember();
    const { browser } = await signInWithPassword(foyer, member);
    const wrong = await call(foyer, browser, '/auth/resetUserMfaSetup', { backupCode: 'AAAA-BBBB-CCCC-DDDD' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ statusCode: 401, message: 'Wrong recovery code', error: 'WRONG_RECOVERY_CODE' });

    // Case and grouping do not matter.
    const typed = backupCode.toLowerCase().replace(/-/g, ' ');
    expect((await call(foyer, browser, '/auth/resetUserMfaSetup', { backupCode: typed })).status).toBe(204);
    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.id));
    expect(user).toMatchObject({ mfaPhoneNumber: null, mfaRecoveryCodeHash: null });
    // Still not signed in: setup comes next, in the same session.
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
    const oldCode = await lastCode(foyer, phoneNumber);
    expect((await call(foyer, browser, '/auth/commitMfaCode', { mfaCode: oldCode })).status).toBe(409);

    const newNumber = newPhoneNumber();
    expect((await call(foyer, browser, '/auth/startMfaUserSetup', { phoneNumber: newNumber })).status).toBe(204);
    const finished = await call(foyer, browser, '/auth/finishMfaUserSetup', { mfaCode: await lastCode(foyer, newNumber) });
    const { backupCode: next } = (await finished.json()) as { backupCode: string };
    expect(next).not.toBe(backupCode);

    const again = await signInWithPassword(foyer, member);
    expect(again.answer.mfaState).toBe('REQUIRED');
    const reused = await call(foyer, again.browser, '/auth/resetUserMfaSetup', { backupCode });
    expect(reused.status).toBe(401);
    expect(await reused.json()).toMatchObject({ error: 'WRONG_RECOVERY_CODE' });
    expect((await call(foyer, again.browser, '/auth/resetUserMfaSetup', { backupCode: next })).status).toBe(204);
  });

  it('works once even when sent twice at the same moment', async () => {
    const { member, backupCode } = await setUpMember();
    const one = await signInWithPassword(foyer, member);
    const two = await signInWithPassword(foyer, member);
    const answers = await Promise.all([
      call(foyer, one.browser, '/auth/resetUserMfaSetup', { backupCode }),
      call(foyer, two.browser, '/auth/resetUserMfaSetup', { backupCode }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 401]);
  });

  it('stops guessing after five wrong recovery codes', async () => {
    const { member, backupCode } = await setUpMember();
    const { browser } = await signInWithPassword(foyer, member);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await call(foyer, browser, '/auth/resetUserMfaSetup', { backupCode: `WRONG-${attempt}` })).status).toBe(401);
    }
    expect((await call(foyer, browser, '/auth/resetUserMfaSetup', { backupCode })).status).toBe(429);
  });
});

describe('before the second factor passed', () => {
  it('refuses tenantUsers, chooseTenantUser and finishing the authorization', async () => {
    for (const prepare of [async () => ({ member: await newMember(foyer, 'Acme') }), setUpMember]) {
      const { member } = await prepare();
      const { browser, answer, interactionUid } = await signInWithPassword(foyer, member);
      expect(['SETUP', 'REQUIRED']).toContain(answer.mfaState);
      expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
      const chosen = await browser.request(`${foyer.urls.auth}/auth/chooseTenantUser/${member.tenantUserId}`);
      expect(chosen.status).toBe(401);
      expect(chosen.headers.get('location')).toBeNull();
      const finish = await browser.request(`${foyer.urls.auth}/interaction/${interactionUid}/finish/${member.tenantUserId}`);
      expect(finish.status).toBe(403);
      expect(finish.headers.get('location')).toBeNull();
      // The authorization itself sends the browser back to the login, not to the workspace picker.
      const resumed = await browser.navigate(`${foyer.urls.auth}/interaction/${interactionUid}`, (url) => url.origin === foyer.urls.ui);
      expect(resumed.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
    }
  });

  it('refuses the two-factor calls without a first factor, and after both passed', async () => {
    const member = await newMember(foyer, 'Acme');
    const stranger = new Browser();
    for (const [path, body] of [
      ['/auth/startMfaUserSetup', { phoneNumber: newPhoneNumber() }],
      ['/auth/finishMfaUserSetup', { mfaCode: '123456' }],
      ['/auth/commitMfaCode', { mfaCode: '123456' }],
      ['/auth/resetUserMfaSetup', { backupCode: 'AAAA-BBBB-CCCC-DDDD' }],
      ['/auth/resendMfaCode', {}],
    ] as const) {
      const response = await call(foyer, stranger, path, body);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ statusCode: 401, error: 'UNAUTHENTICATED' });
    }
    const { browser } = await signInWithPassword(foyer, member);
    const phoneNumber = newPhoneNumber();
    await call(foyer, browser, '/auth/startMfaUserSetup', { phoneNumber });
    await call(foyer, browser, '/auth/finishMfaUserSetup', { mfaCode: await lastCode(foyer, phoneNumber) });
    const after = await call(foyer, browser, '/auth/startMfaUserSetup', { phoneNumber: newPhoneNumber() });
    expect(after.status).toBe(401);
  });
});
