// Passkeys (WebAuthn) with @simplewebauthn/server: the relying party is the hosted UI (origin exactly
// config.urls.ui, RP ID its host name), challenges are single use, expire and are bound to the login
// session (sign-in) or the user (registration) they were issued to, and a credential's signature
// counter must grow.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { FoyerContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { passkeyChallenges, passkeys, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { App } from '../../apps/lookup.ts';

/**
 * @simplewebauthn/server with its certificate packages, loaded by the first passkey ceremony rather
 * than at start: about a megabyte of code most starts never run (npm run bench -- server-start).
 */
const webauthn = () => import('@simplewebauthn/server');

type User = typeof users.$inferSelect;
export type Passkey = typeof passkeys.$inferSelect;

export const PASSKEY_CHALLENGE_TTL_SECONDS = 5 * 60;
/** Matches the challenge lifetime, so the browser gives up when the server would. */
const CEREMONY_TIMEOUT_MS = PASSKEY_CHALLENGE_TTL_SECONDS * 1000;
/** docs/SPEC.md section 9: a WebAuthn user id is 1 to 64 bytes; Foyer's are 32. */
const USER_HANDLE_BYTES = 32;
const MAX_PASSKEYS_PER_USER = 20;

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export interface RelyingParty {
  /** The hosted UI origin: the only page passkey ceremonies may come from. */
  origin: string;
  /** Its host name: localhost or a domain name (WebAuthn refuses IP addresses). */
  id: string;
}

/** The relying party of the hosted UI, or undefined when its host cannot be an RP ID (an IP address). */
export function relyingPartyOf(uiUrl: string): RelyingParty | undefined {
  const url = new URL(uiUrl);
  const id = url.hostname.toLowerCase();
  const isIp = /^\d+(\.\d+){3}$/.test(id) || id.startsWith('[');
  if (isIp || !(id === 'localhost' || (id.includes('.') && DOMAIN_NAME.test(id)))) return undefined;
  return { origin: url.origin, id };
}

export function passkeysEnabled(app: App): boolean {
  return app.settings.passkeysEnabled === true;
}

/** A sign-in assertion that proves nothing answers 401 like a wrong password; a refused registration 400. */
const notCompleted = (message: string, statusCode = 401) => new HttpError(statusCode, 'PASSKEY_NOT_VERIFIED', message);

/** Stores a fresh challenge; it works once, until it expires, for the session or user it names. */
async function storeChallenge(
  db: Database,
  challenge: string,
  binding: { purpose: 'authentication'; loginSessionHash: string } | { purpose: 'registration'; userId: string },
): Promise<void> {
  await db.insert(passkeyChallenges).values({
    challenge,
    purpose: binding.purpose,
    loginSessionHash: 'loginSessionHash' in binding ? binding.loginSessionHash : null,
    userId: 'userId' in binding ? binding.userId : null,
    expiresAt: new Date(Date.now() + PASSKEY_CHALLENGE_TTL_SECONDS * 1000),
  });
}

/**
 * Uses up the challenge the response was signed over, when it is live and was issued to this session
 * or user; answers whether it was. Deleting it first makes a replayed response worthless.
 */
async function takeChallenge(
  db: Database,
  challenge: string,
  binding: { purpose: 'authentication'; loginSessionHash: string } | { purpose: 'registration'; userId: string },
): Promise<boolean> {
  if (challenge.length === 0 || challenge.length > 200) return false;
  const owner =
    binding.purpose === 'authentication'
      ? eq(passkeyChallenges.loginSessionHash, binding.loginSessionHash)
      : eq(passkeyChallenges.userId, binding.userId);
  const taken = await db
    .delete(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.challenge, challenge),
        eq(passkeyChallenges.purpose, binding.purpose),
        owner,
        gt(passkeyChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({ challenge: passkeyChallenges.challenge });
  return taken.length === 1;
}

/** The challenge in a response's client data, or '' when it cannot be read. */
function signedChallenge(clientDataJSON: string): string {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' ? data.challenge : '';
  } catch {
    return '';
  }
}

export async function authenticationOptions(
  context: FoyerContext,
  rp: RelyingParty,
  loginSessionHash: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  // No allowCredentials: discoverable credentials, the authenticator offers the user's passkeys.
  const options = await (
    await webauthn()
  ).generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred', timeout: CEREMONY_TIMEOUT_MS });
  await storeChallenge(context.db, options.challenge, { purpose: 'authentication', loginSessionHash });
  return options;
}

/**
 * Checks a sign-in assertion for the app: the session's challenge, the origin and RP ID, the
 * signature with the stored key, the user handle and a growing counter. Answers the passkey's user.
 */
export async function verifyAuthentication(
  context: FoyerContext,
  rp: RelyingParty,
  input: { app: App; loginSessionHash: string; response: AuthenticationResponseJSON },
): Promise<{ user: User; passkey: Passkey }> {
  const { db } = context;
  const { response } = input;
  const challenge = signedChallenge(response.response.clientDataJSON);
  if (!(await takeChallenge(db, challenge, { purpose: 'authentication', loginSessionHash: input.loginSessionHash }))) {
    throw notCompleted('The passkey challenge is unknown, used or expired');
  }
  const [row] = await db
    .select({ passkey: passkeys, user: users })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(and(eq(passkeys.id, response.id), eq(users.appId, input.app.id)))
    .limit(1);
  if (!row) throw notCompleted('Unknown passkey');
  const { passkey, user } = row;
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== user.passkeyUserHandle) throw notCompleted('The passkey belongs to another user');

  let verification;
  try {
    verification = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
    });
  } catch (error) {
    throw notCompleted(error instanceof Error ? error.message : 'The passkey response is invalid');
  }
  if (!verification.verified) throw notCompleted('The passkey signature is invalid');
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  // Only the sign-in that still sees the old counter wins, so two uses of one assertion cannot both pass.
  const updated = await db
    .update(passkeys)
    .set({ counter: newCounter, backedUp: credentialBackedUp, lastUsedAt: new Date() })
    .where(and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter)))
    .returning();
  if (updated.length !== 1) throw notCompleted('The passkey was used concurrently');
  return { user, passkey: updated[0]! };
}

/** The user's WebAuthn user handle, created at the first registration. */
async function userHandleOf(db: Database, user: User): Promise<string> {
  if (user.passkeyUserHandle) return user.passkeyUserHandle;
  const handle = randomBytes(USER_HANDLE_BYTES).toString('base64url');
  const [row] = await db
    .update(users)
    .set({ passkeyUserHandle: sql`coalesce(${users.passkeyUserHandle}, ${handle})` })
    .where(eq(users.id, user.id))
    .returning({ handle: users.passkeyUserHandle });
  return row!.handle!;
}

export async function listPasskeys(db: Database, userId: string): Promise<Passkey[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.createdAt);
}

export async function registrationOptions(
  context: FoyerContext,
  rp: RelyingParty,
  input: { app: App; user: User },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { db } = context;
  const handle = await userHandleOf(db, input.user);
  const existing = await listPasskeys(db, input.user.id);
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: input.app.name,
    rpID: rp.id,
    userName: input.user.email,
    userID: new Uint8Array(Buffer.from(handle, 'base64url')),
    userDisplayName: [input.user.firstName, input.user.lastName].filter(Boolean).join(' ') || input.user.email,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(db, options.challenge, { purpose: 'registration', userId: input.user.id });
  return options;
}

/** Stores the new passkey when the response answers the user's challenge from the hosted UI. */
export async function verifyRegistration(
  context: FoyerContext,
  rp: RelyingParty,
  input: { user: User; response: RegistrationResponseJSON },
): Promise<Passkey> {
  const { db } = context;
  const challenge = signedChallenge(input.response.response.clientDataJSON);
  if (!(await takeChallenge(db, challenge, { purpose: 'registration', userId: input.user.id }))) {
    throw notCompleted('The passkey challenge is unknown, used or expired', 400);
  }
  let verification;
  try {
    verification = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    throw notCompleted(error instanceof Error ? error.message : 'The passkey response is invalid', 400);
  }
  if (!verification.verified) throw notCompleted('The passkey registration could not be verified', 400);
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const [{ count }] = (await db
    .select({ count: sql<number>`count(*)::int` })
    .from(passkeys)
    .where(eq(passkeys.userId, input.user.id))) as [{ count: number }];
  if (count >= MAX_PASSKEYS_PER_USER) throw new HttpError(400, 'TOO_MANY_PASSKEYS', 'This account has the most passkeys allowed');
  const [row] = await db
    .insert(passkeys)
    .values({
      id: credential.id,
      userId: input.user.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? input.response.response.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      name: passkeyName(input.response, count + 1),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new HttpError(409, 'PASSKEY_EXISTS', 'This passkey is already registered');
  return row;
}

/** A name to tell passkeys apart in the profile: the authenticator kind and a number. */
function passkeyName(response: RegistrationResponseJSON, number: number): string {
  const kind = response.authenticatorAttachment === 'cross-platform' ? 'Security key' : 'Passkey';
  return `${kind} ${number}`;
}

/** Removes one of the user's passkeys; false when the user has no passkey with that id. */
export async function deletePasskey(db: Database, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return deleted.length === 1;
}

/** Renames one of the user's passkeys; false when the user has no passkey with that id. */
export async function renamePasskey(db: Database, userId: string, id: string, name: string): Promise<boolean> {
  const renamed = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return renamed.length === 1;
}

export async function purgeExpiredChallenges(db: Database): Promise<void> {
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, sql`now()`));
}
