// Two-factor sign-in: when it applies and which methods a user has; by SMS, the codes a login session
// waits for (six digits from a CSPRNG, stored hashed, ten minutes, five wrong tries); the single-use
// recovery code either method comes with. The authenticator-app method is in totp.ts.
import { recipientLocale } from '../../notify/recipient-locale.ts';
import { randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FoyerContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { mfaCodes, users } from '../../db/schema.ts';
import { recordWithinLimits, type Limit, type RequestLimit } from '../../audit/limits.ts';
import type { App } from '../../apps/lookup.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
import type { LoginSession } from '../login-session.ts';

type User = typeof users.$inferSelect;
type MfaCode = typeof mfaCodes.$inferSelect;

export type SecondFactorState = 'DISABLED' | 'SETUP' | 'REQUIRED';

/** The second factors a user can have: a phone that receives texts, an authenticator app. */
export type MfaMethod = 'sms' | 'totp';

export const MFA_CODE_TTL_SECONDS = 10 * 60;
/** Wrong tries a code survives; the next try fails even with the right code. */
export const MFA_CODE_MAX_WRONG_TRIES = 5;

/**
 * Texts sent: at most five per app and user in 15 minutes (nobody's phone is flooded, and each costs
 * money with a real provider), thirty per app and client address.
 */
export const SMS_SEND_LIMITS: readonly RequestLimit[] = [
  { max: 5, windowMinutes: 15, per: ['app', 'username'] },
  { max: 30, windowMinutes: 15, per: ['app', 'ip'] },
];

/** Recovery-code guessing: five wrong codes per app and user in 15 minutes. */
export const RECOVERY_FAILURES: Limit = {
  type: 'mfa.recovery_failure',
  max: 5,
  windowMinutes: 15,
  per: ['app', 'username'],
  clearedBy: 'mfa.recovered',
};

/**
 * The one rule: two-factor applies when the app offers it and any workspace open to the user
 * requires it.
 */
export function twoFactorApplies(
  app: { settings: Pick<App['settings'], 'mfaEnabled'> },
  memberships: readonly { tenant: { mfa: boolean } }[],
): boolean {
  return Boolean(app.settings.mfaEnabled) && memberships.some((membership) => membership.tenant.mfa);
}

/** The methods the user set up, the authenticator app first (no text needs to go out for it). */
export function mfaMethodsOf(user: Pick<User, 'mfaTotpSecret' | 'mfaPhoneNumber'>): MfaMethod[] {
  return [...(user.mfaTotpSecret ? (['totp'] as const) : []), ...(user.mfaPhoneNumber ? (['sms'] as const) : [])];
}

/** Where a sign-in stands with its second factor: none due, a method to set up, or a code to enter. */
export function secondFactorState(
  app: { settings: Pick<App['settings'], 'mfaEnabled'> },
  user: Pick<User, 'mfaTotpSecret' | 'mfaPhoneNumber'>,
  memberships: readonly { tenant: { mfa: boolean } }[],
): SecondFactorState {
  if (!twoFactorApplies(app, memberships)) return 'DISABLED';
  return mfaMethodsOf(user).length > 0 ? 'REQUIRED' : 'SETUP';
}

function newCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** The code as typed: surrounding and grouping spaces do not count. */
const normalizeCode = (input: string) => input.replace(/\s/g, '');

// Unambiguous characters (no 0/O, 1/I/L): the code is read off a screen and typed back later.
const RECOVERY_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const RECOVERY_LENGTH = 16;

/** 16 characters of a 31-letter alphabet (79 bits), shown in groups of four. */
function newRecoveryCode(): string {
  let code = '';
  for (let index = 0; index < RECOVERY_LENGTH; index += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return code.match(/.{4}/g)!.join('-');
}

/** The recovery code as typed: case, spaces and hyphens do not count. */
const normalizeRecoveryCode = (input: string) => input.toUpperCase().replace(/[\s-]/g, '');

/** A new recovery code (answered once) and the hash that is stored. */
export async function newRecoveryCodeWithHash(): Promise<{ recoveryCode: string; hash: string }> {
  const recoveryCode = newRecoveryCode();
  return { recoveryCode, hash: await hashPassword(normalizeRecoveryCode(recoveryCode)) };
}

export type IssueOutcome = 'sent' | 'throttled';

/**
 * Replaces the session's code with a fresh one and texts it to `phoneNumber`, unless the send limits
 * are reached. Every send is audited (the limits count those events).
 */
export async function issueCode(
  context: FoyerContext,
  input: {
    session: LoginSession;
    user: Pick<User, 'id' | 'email' | 'locale'>;
    purpose: MfaCode['purpose'];
    phoneNumber: string;
    ip: string;
  },
): Promise<IssueOutcome> {
  const { db } = context;
  const { session, user } = input;
  const allowed = await recordWithinLimits(
    db,
    'mfa.code_sent',
    { appId: session.appId, ip: input.ip, username: user.email.toLowerCase() },
    SMS_SEND_LIMITS,
  );
  if (!allowed) return 'throttled';

  const code = newCode();
  const row = {
    loginSessionHash: session.idHash,
    userId: user.id,
    purpose: input.purpose,
    phoneNumber: input.phoneNumber,
    codeHash: await hashPassword(code),
    attempts: 0,
    expiresAt: new Date(Date.now() + MFA_CODE_TTL_SECONDS * 1000),
  };
  await db
    .insert(mfaCodes)
    .values(row)
    .onConflictDoUpdate({ target: mfaCodes.loginSessionHash, set: { ...row, createdAt: sql`now()` } });
  await context.notifier.sendSms({
    appId: session.appId,
    to: input.phoneNumber,
    kind: 'mfa-code',
    locale: await recipientLocale(db, session.appId, user),
    code,
    expiresInSeconds: MFA_CODE_TTL_SECONDS,
  });
  return 'sent';
}

/** The session's pending setup (the number being proven), if one was started. */
export async function pendingSetup(db: Database, session: LoginSession): Promise<MfaCode | undefined> {
  const [row] = await db
    .select()
    .from(mfaCodes)
    .where(and(eq(mfaCodes.loginSessionHash, session.idHash), eq(mfaCodes.purpose, 'setup')))
    .limit(1);
  return row;
}

export type CheckOutcome = { ok: true; code: MfaCode } | { ok: false; reason: 'wrong' | 'dead' };

/**
 * Tries `input` against the session's live code of `purpose`. The try is counted before the code is
 * compared, so parallel guesses cannot exceed the limit; a matching code is used up by deleting it,
 * so only one request can succeed with it.
 */
export async function checkCode(db: Database, session: LoginSession, purpose: MfaCode['purpose'], input: string): Promise<CheckOutcome> {
  const [counted] = await db
    .update(mfaCodes)
    .set({ attempts: sql`${mfaCodes.attempts} + 1` })
    .where(
      and(
        eq(mfaCodes.loginSessionHash, session.idHash),
        eq(mfaCodes.purpose, purpose),
        lt(mfaCodes.attempts, MFA_CODE_MAX_WRONG_TRIES),
        gt(mfaCodes.expiresAt, sql`now()`),
      ),
    )
    .returning();
  if (!counted) return { ok: false, reason: 'dead' };
  const code = normalizeCode(input);
  if (!/^\d{6}$/.test(code) || !(await verifyPassword(counted.codeHash, code))) return { ok: false, reason: 'wrong' };
  const [used] = await db
    .delete(mfaCodes)
    .where(and(eq(mfaCodes.loginSessionHash, session.idHash), eq(mfaCodes.codeHash, counted.codeHash)))
    .returning();
  return used ? { ok: true, code: used } : { ok: false, reason: 'dead' };
}

/**
 * Makes the proven number the user's second factor, with a new recovery code (answered once, stored
 * hashed). Undefined when the user set up a second factor meanwhile (another browser).
 */
export async function enrollPhone(db: Database, user: User, phoneNumber: string): Promise<string | undefined> {
  const { recoveryCode, hash } = await newRecoveryCodeWithHash();
  const [enrolled] = await db
    .update(users)
    .set({ mfaPhoneNumber: phoneNumber, mfaRecoveryCodeHash: hash })
    .where(and(eq(users.id, user.id), isNull(users.mfaPhoneNumber), isNull(users.mfaTotpSecret)))
    .returning({ id: users.id });
  return enrolled ? recoveryCode : undefined;
}

/**
 * Uses the recovery code: a match removes the phone, the authenticator app and the recovery code (so
 * two-factor is set up again); the removal is conditional on the very hash checked, so a code works once even when sent twice at once.
 */
export async function recover(db: Database, user: User, input: string): Promise<boolean> {
  const stored = user.mfaRecoveryCodeHash;
  if (!stored || !(await verifyPassword(stored, normalizeRecoveryCode(input)))) return false;
  const [reset] = await db
    .update(users)
    .set({ mfaPhoneNumber: null, mfaTotpSecret: null, mfaTotpLastStep: null, mfaRecoveryCodeHash: null })
    .where(and(eq(users.id, user.id), eq(users.mfaRecoveryCodeHash, stored)))
    .returning({ id: users.id });
  return Boolean(reset);
}

/** Drops whatever code the session still waits for (after a recovery, the number it went to is gone). */
export async function discardCodes(db: Database, session: LoginSession): Promise<void> {
  await db.delete(mfaCodes).where(eq(mfaCodes.loginSessionHash, session.idHash));
}
