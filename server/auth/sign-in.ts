// What every way of signing in shares — a password, a set-password link, a magic link: finding the
// app and the identity a request names, and turning the browser's login session into a signed-in
// one with the same answer as POST /auth/authenticate.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import { recordAudit } from '../audit/service.ts';
import { requireApp, type App } from '../apps/lookup.ts';
import { listEnabledMemberships, type Membership } from './memberships.ts';
import { LOGIN_SESSION_TTL_SECONDS, type LoginSession, type LoginSessions } from './login-session.ts';
import { issueCode, mfaMethodsOf, secondFactorState, type SecondFactorState } from './mfa/service.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords.ts';
import { releaseAttempt, reserveLoginAttempt } from '../audit/limits.ts';
import { UsernameBody } from '../../common/api/auth.ts';
import { flushWrites } from '../db/write-batch.ts';

export type User = typeof users.$inferSelect;

/** No second factor due, a method to set up first, or a code to enter (server/auth/mfa). */
export type MfaState = SecondFactorState;

export interface SignInAnswer {
  session: true;
  expiresIn: number;
  mfaState: MfaState;
  /** Present when exactly one workspace is open to the user, so the screens can skip the picker. */
  tenantUserId?: string;
}

export type SignInMethod = 'password' | 'reset' | 'signup' | 'invite' | 'magic-link' | 'passkey' | 'federation';

/** A body naming an e-mail (common/api/auth.ts), for route schemas. */
export const usernameBodySchema = { body: UsernameBody } as const;

/** E-mails are compared trimmed and lower-cased. */
export const normalizeUsername = (value: string) => value.trim().toLowerCase();

/**
 * The app being signed in to: the pending authorization's app, else the x-app-id header (a login
 * screen opened without an authorization request), else the session's app.
 */
export async function resolveApp(db: Database, request: FastifyRequest, session: LoginSession | undefined): Promise<App> {
  if (session?.interactionUid) return requireApp(db, session.appId);
  const header = request.headers['x-app-id'];
  if (typeof header === 'string' && header !== '') return requireApp(db, header);
  if (session) return requireApp(db, session.appId);
  throw new HttpError(400, 'APP_REQUIRED', 'Start signing in from the app, or name the app in the x-app-id header');
}

/** Password sign-in is on unless the app switched it off (AppConfig.passwordEnabled). */
export function passwordSignInEnabled(app: App): boolean {
  return app.settings.passwordEnabled !== false;
}

/** The app's identity with this (normalised) e-mail. */
export async function findUserByEmail(db: Database, appId: string, email: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.appId, appId), sql`lower(${users.email}) = ${email}`))
    .limit(1);
  return user;
}

/** What a passed first factor leads to: the workspaces open to the user and the second factor due. */
export async function firstFactorOutcome(db: Database, app: App, user: User): Promise<{ memberships: Membership[]; mfaState: MfaState }> {
  const memberships = await listEnabledMemberships(db, user.id, app.id);
  return { memberships, mfaState: secondFactorState(app, user, memberships) };
}

/**
 * Checks a password sign-in (the first factor) under the login attempt limits: recorded as a failure
 * before the password is verified (server/audit/limits.ts), taken back on success. Unknown users cost
 * the same hash verification, so timing reveals no account. 403 where the app switched passwords
 * off, 429 over the limits, 401 WRONG_CREDENTIALS otherwise.
 */
export async function checkPasswordSignIn(
  db: Database,
  app: App,
  input: { username: string; password: string; ip: string },
): Promise<User> {
  if (!passwordSignInEnabled(app)) {
    throw new HttpError(403, 'PASSWORD_SIGN_IN_DISABLED', 'This app does not allow signing in with a password');
  }
  const name = normalizeUsername(input.username);
  const user = await findUserByEmail(db, app.id, name);
  const reservation = await reserveLoginAttempt(db, { appId: app.id, ip: input.ip, username: name }, user?.id);
  if (reservation === null) {
    throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many failed sign-in attempts; try again later');
  }
  const valid = await verifyPassword(user?.passwordHash ?? DUMMY_PASSWORD_HASH, input.password);
  if (!user || !user.passwordHash || !valid) throw new HttpError(401, 'WRONG_CREDENTIALS', 'Wrong credentials');
  await releaseAttempt(db, reservation);
  return user;
}

/**
 * Signs the browser in as `user` for `app` once a factor proved who it is: a fresh login session
 * (new id, so one seen before is worthless) that keeps the pending authorization, authenticated
 * unless a second factor is still due, then what firstFactorPassed does.
 */
export async function signIn(
  context: FoyerContext,
  sessions: LoginSessions,
  reply: FastifyReply,
  input: { app: App; user: User; previous: LoginSession | undefined; ip: string; method: SignInMethod },
): Promise<{ answer: SignInAnswer; memberships: Membership[]; session: LoginSession }> {
  const { app, user, previous } = input;
  const { memberships, mfaState } = await firstFactorOutcome(context.db, app, user);
  const session = await sessions.start(
    reply,
    {
      appId: app.id,
      userId: user.id,
      authenticated: mfaState === 'DISABLED',
      interactionUid: previous?.appId === app.id ? previous.interactionUid : null,
    },
    previous,
  );
  const answer = await firstFactorPassed(context, { app, user, session, memberships, mfaState, ip: input.ip, method: input.method });
  return { answer, memberships, session };
}

/**
 * What follows a first factor once its login session exists: a code texted when a phone is the only
 * second factor due, and a 'login.success' audit event (which also clears the password failures
 * counted for this address). Answers what POST /auth/authenticate answers.
 */
export async function firstFactorPassed(
  context: FoyerContext,
  input: { app: App; user: User; session: LoginSession; memberships: Membership[]; mfaState: MfaState; ip: string; method: SignInMethod },
): Promise<SignInAnswer> {
  const { app, user, session, memberships, mfaState } = input;
  // Over the send limit no code goes out; the user asks for a new one later (and is told to wait).
  // A user who also has an authenticator app gets a text only on asking for one.
  const methods = mfaMethodsOf(user);
  if (mfaState === 'REQUIRED' && methods.length === 1 && methods[0] === 'sms') {
    // The code's row names the login session, which a batching request has not written yet.
    await flushWrites(context.db);
    await issueCode(context, { session, user, purpose: 'sign-in', phoneNumber: user.mfaPhoneNumber!, ip: input.ip });
  }
  await recordAudit(context.db, {
    type: 'login.success',
    appId: app.id,
    userId: user.id,
    ip: input.ip,
    detail: { username: normalizeUsername(user.email), method: input.method },
  });
  return {
    session: true,
    expiresIn: LOGIN_SESSION_TTL_SECONDS,
    mfaState,
    ...(memberships.length === 1 ? { tenantUserId: memberships[0]!.id } : {}),
  };
}
