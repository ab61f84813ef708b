// Two-factor by authenticator app (RFC 6238 TOTP: SHA-1, six digits, 30-second steps). The shared
// secret is stored encrypted (AES-256-GCM under a key derived from config.secret, bound to the user
// id), so a copy of the database alone does not yield anyone's codes. A code is accepted one step
// early or late (clock drift) and only for a step later than the last one accepted, so a code seen
// over a shoulder or in a log cannot be used again.
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../../db/client.ts';
import { seal as sealSecret, sealingKey, unseal as openSecret } from '../../crypto/seal.ts';
import { mfaTotpSetups, users } from '../../db/schema.ts';
import type { Limit } from '../../audit/limits.ts';
import type { LoginSession } from '../login-session.ts';
import { MFA_CODE_MAX_WRONG_TRIES } from './service.ts';

type User = typeof users.$inferSelect;

const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of now that still count: phones' clocks drift, and typing takes a while. */
const WINDOW_STEPS = 1;
/** 160 bits, the size RFC 4226 recommends (and what authenticator apps expect). */
const SECRET_BYTES = 20;
/** Time to install an app, scan the code and type one back. */
export const TOTP_SETUP_TTL_SECONDS = 30 * 60;

/**
 * Authenticator codes at sign-in: five tries per app and user in 15 minutes, counted across login
 * sessions (the secret stays the same, so a new sign-in must not bring new tries); a verified second
 * factor starts the count afresh.
 */
export const TOTP_ATTEMPTS: Limit = {
  type: 'mfa.totp_attempt',
  max: MFA_CODE_MAX_WRONG_TRIES,
  windowMinutes: 15,
  per: ['app', 'username'],
  clearedBy: 'mfa.verified',
};

/** The key that encrypts TOTP secrets at rest, derived from the operator's secret. */
export function totpKey(configSecret: string): Buffer {
  return sealingKey(configSecret, 'mfa totp secret v1');
}

/** A base32 secret sealed for a user id, and opened again (server/crypto/seal.ts). */
export { sealSecret, openSecret };

function totpOf(secret: string, issuer: string, label: string): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/**
 * The time step `input` is the code of, within the window around `now`; undefined when it is no code
 * of this secret then.
 */
export function matchingStep(secret: string, input: string, now = Date.now()): number | undefined {
  const token = input.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(secret, '', '').validate({ token, timestamp: now, window: WINDOW_STEPS });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

export interface TotpSetupAnswer {
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as a PNG QR code. */
  qrCodeDataUrl: string;
}

/**
 * A new secret for the session's setup (replacing one started before), with the QR code the app
 * scans. Named after the app (issuer) and the user's e-mail, as authenticator apps list them.
 */
export async function startSetup(
  db: Database,
  key: Buffer,
  input: { session: LoginSession; user: User; issuer: string },
): Promise<TotpSetupAnswer> {
  const secret = new Secret({ size: SECRET_BYTES }).base32;
  const row = {
    loginSessionHash: input.session.idHash,
    userId: input.user.id,
    secret: sealSecret(key, input.user.id, secret),
    attempts: 0,
    expiresAt: new Date(Date.now() + TOTP_SETUP_TTL_SECONDS * 1000),
  };
  await db
    .insert(mfaTotpSetups)
    .values(row)
    .onConflictDoUpdate({ target: mfaTotpSetups.loginSessionHash, set: { ...row, createdAt: sql`now()` } });
  const otpauthUrl = totpOf(secret, input.issuer, input.user.email).toString();
  // qrcode (with its PNG encoder) is loaded by the first enrolment, not at start (npm run bench -- server-start).
  const { default: QRCode } = await import('qrcode');
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return { secret, otpauthUrl, qrCodeDataUrl };
}

export type SetupCheck = { ok: true; secret: string; step: number } | { ok: false; reason: 'wrong' | 'dead' };

/**
 * Tries a code against the session's pending secret. The try is counted before the code is compared
 * (parallel guesses cannot exceed the limit); after five wrong tries setup must start again with a new secret.
 */
export async function checkSetupCode(db: Database, key: Buffer, session: LoginSession, input: string): Promise<SetupCheck> {
  const [counted] = await db
    .update(mfaTotpSetups)
    .set({ attempts: sql`${mfaTotpSetups.attempts} + 1` })
    .where(
      and(
        eq(mfaTotpSetups.loginSessionHash, session.idHash),
        lt(mfaTotpSetups.attempts, MFA_CODE_MAX_WRONG_TRIES),
        gt(mfaTotpSetups.expiresAt, sql`now()`),
      ),
    )
    .returning();
  if (!counted) return { ok: false, reason: 'dead' };
  const secret = openSecret(key, counted.userId, counted.secret);
  const step = matchingStep(secret, input);
  if (step === undefined) return { ok: false, reason: 'wrong' };
  const [used] = await db
    .delete(mfaTotpSetups)
    .where(and(eq(mfaTotpSetups.loginSessionHash, session.idHash), eq(mfaTotpSetups.secret, counted.secret)))
    .returning({ secret: mfaTotpSetups.secret });
  return used ? { ok: true, secret, step } : { ok: false, reason: 'dead' };
}

/**
 * Makes the proven secret the user's second factor, with its first step used up and `recoveryCodeHash`
 * as the recovery code. False when the user set up a second factor meanwhile (another browser).
 */
export async function enrollTotp(
  db: Database,
  key: Buffer,
  user: User,
  proven: { secret: string; step: number; recoveryCodeHash: string },
): Promise<boolean> {
  const [enrolled] = await db
    .update(users)
    .set({
      mfaTotpSecret: sealSecret(key, user.id, proven.secret),
      mfaTotpLastStep: proven.step,
      mfaRecoveryCodeHash: proven.recoveryCodeHash,
    })
    .where(and(eq(users.id, user.id), isNull(users.mfaPhoneNumber), isNull(users.mfaTotpSecret)))
    .returning({ id: users.id });
  return Boolean(enrolled);
}

/**
 * Checks a sign-in code against the user's app. A matching code is accepted only if its step is later
 * than the last accepted one, recorded in the same conditional update, so of two requests with one
 * code only one passes. 'unreadable' when the secret was sealed under another config.secret.
 */
export async function verifySignInCode(
  db: Database,
  key: Buffer,
  user: User,
  input: string,
): Promise<'ok' | 'wrong' | 'replayed' | 'unreadable'> {
  const sealed = user.mfaTotpSecret;
  if (!sealed) return 'wrong';
  let secret: string;
  try {
    secret = openSecret(key, user.id, sealed);
  } catch {
    return 'unreadable';
  }
  const step = matchingStep(secret, input);
  if (step === undefined) return 'wrong';
  const [accepted] = await db
    .update(users)
    .set({ mfaTotpLastStep: step })
    .where(and(eq(users.id, user.id), eq(users.mfaTotpSecret, sealed), or(isNull(users.mfaTotpLastStep), lt(users.mfaTotpLastStep, step))))
    .returning({ id: users.id });
  return accepted ? 'ok' : 'replayed';
}

/** Drops the session's unfinished setup (after a recovery, or when SMS was chosen instead). */
export async function discardSetup(db: Database, session: LoginSession): Promise<void> {
  await db.delete(mfaTotpSetups).where(eq(mfaTotpSetups.loginSessionHash, session.idHash));
}
