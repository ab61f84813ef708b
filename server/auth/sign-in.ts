// What every way of signing in shares — a password, a set-password link, a magic link: finding the
// app and the identity a request names, and turning the browser's login session into a signed-in
// one with the same answer as POST /auth/authenticate.
import { and, eq, sql } from 'drizzle-orm';
import type { AppSettings } from '../db/app-settings.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import { apps, tenants, tenantUsers, users } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import { recordAudit } from '../audit/service.ts';
import { requireApp, unknownApp, type App } from '../apps/lookup.ts';
import { enabledMembership, listEnabledMemberships } from './memberships.ts';
import { LOGIN_SESSION_TTL_SECONDS, type LoginSession, type LoginSessions } from './login-session.ts';
import { issueCode, mfaMethodsOf, secondFactorState, type SecondFactorState } from './mfa/service.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords.ts';
import { releaseAttempt, reserveLoginAttempt } from '../audit/limits.ts';
import { UsernameBody } from '../../common/api/auth.ts';
import { flushWrites } from '../db/write-batch.ts';

export type User = typeof users.$inferSelect;

/** What signing in uses of the identity: its password hash, its second factors and what a texted code needs. */
export type SignInUser = Pick<User, 'id' | 'email' | 'locale' | 'passwordHash' | 'mfaTotpSecret' | 'mfaPhoneNumber'>;

/** What signing in decides on of the app. */
export interface SignInApp {
  id: string;
  settings: Pick<AppSettings, 'passwordEnabled' | 'mfaEnabled'>;
}

/** A workspace open to the user, as the answer and the second factor need it. */
export interface SignInMembership {
  id: string;
  tenant: { mfa: boolean };
}

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
 * The id of the app being signed in to: the pending authorization's app, else the x-app-id header (a
 * login screen opened without an authorization request), else the session's app.
 */
export function requestedAppId(request: FastifyRequest, session: LoginSession | undefined): string {
  if (session?.interactionUid) return session.appId;
  const header = request.headers['x-app-id'];
  if (typeof header === 'string' && header !== '') return header;
  if (session) return session.appId;
  throw new HttpError(400, 'APP_REQUIRED', 'Start signing in from the app, or name the app in the x-app-id header');
}

/** The app being signed in to (requestedAppId), read. */
export function resolveApp(db: Database, request: FastifyRequest, session: LoginSession | undefined): Promise<App> {
  return requireApp(db, requestedAppId(request, session));
}

/** Password sign-in is on unless the app switched it off (AppConfig.passwordEnabled). */
export function passwordSignInEnabled(app: { settings: Pick<AppSettings, 'passwordEnabled'> }): boolean {
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

/**
 * What a passed first factor leads to: the workspaces open to the user (`read` when the caller has
 * them already: checkPasswordSignIn) and the second factor due.
 */
export async function firstFactorOutcome(
  db: Database,
  app: SignInApp,
  user: SignInUser,
  read?: SignInMembership[],
): Promise<{ memberships: SignInMembership[]; mfaState: MfaState }> {
  const memberships = read ?? (await listEnabledMemberships(db, user.id, app.id));
  return { memberships, mfaState: secondFactorState(app, user, memberships) };
}

/**
 * The read of a password sign-in, one statement prepared once per database: the app's two switches
 * that decide it, the identity with this (normalised) e-mail, and the workspaces open to it, each only
 * with the columns signing in uses. Reading and decoding whole rows in three statements, each built
 * anew by drizzle, was about a third of a sign-in's CPU beside its argon2id verification
 * (bench/password-login.bench.ts).
 */
function preparePasswordSignInRead(db: Database) {
  const workspaces = sql<
    SignInMembership[]
  >`(select coalesce(json_agg(json_build_object('id', ${tenantUsers.id}, 'tenant', json_build_object('mfa', ${tenants.mfa}))), '[]'::json)
    from ${tenantUsers} inner join ${tenants} on ${tenants.id} = ${tenantUsers.tenantId}
    where ${tenantUsers.userId} = ${users.id} and ${enabledMembership} and ${tenants.appId} = ${apps.id})`;
  return db
    .select({
      appId: apps.id,
      passwordEnabled: sql<AppSettings['passwordEnabled'] | null>`${apps.settings}->'passwordEnabled'`,
      mfaEnabled: sql<AppSettings['mfaEnabled'] | null>`${apps.settings}->'mfaEnabled'`,
      user: {
        id: users.id,
        email: users.email,
        locale: users.locale,
        passwordHash: users.passwordHash,
        mfaTotpSecret: users.mfaTotpSecret,
        mfaPhoneNumber: users.mfaPhoneNumber,
      },
      workspaces,
    })
    .from(apps)
    .leftJoin(users, and(eq(users.appId, apps.id), sql`lower(${users.email}) = ${sql.placeholder('email')}`))
    .where(eq(apps.id, sql.placeholder('appId')))
    .limit(1)
    .prepare('password_sign_in_read');
}

const passwordSignInReads = new WeakMap<Database, ReturnType<typeof preparePasswordSignInRead>>();

/** The app (undefined when there is none), the identity with `email` and its workspaces, in one statement. */
async function readPasswordSignIn(
  db: Database,
  appId: string,
  email: string,
): Promise<{ app: SignInApp; user: SignInUser | undefined; memberships: SignInMembership[] } | undefined> {
  if (appId.length === 0 || appId.length > 100) return undefined;
  let read = passwordSignInReads.get(db);
  if (!read) passwordSignInReads.set(db, (read = preparePasswordSignInRead(db)));
  const [row] = await read.execute({ appId, email });
  if (!row) return undefined;
  const settings = {
    ...(row.passwordEnabled === null ? {} : { passwordEnabled: row.passwordEnabled }),
    ...(row.mfaEnabled === null ? {} : { mfaEnabled: row.mfaEnabled }),
  };
  return { app: { id: row.appId, settings }, user: row.user ?? undefined, memberships: row.user ? row.workspaces : [] };
}

/**
 * Checks a password sign-in (the first factor) to the app `appId` under the login attempt limits:
 * recorded as a failure before the password is verified (server/audit/limits.ts), taken back on
 * success. Unknown users cost the same statements and hash verification, so timing reveals no
 * account. 404 for an unknown app, 403 where the app switched passwords off, 429 over the limits, 401
 * WRONG_CREDENTIALS otherwise; the app, the identity and its workspaces when the password is right.
 */
export async function checkPasswordSignIn(
  db: Database,
  appId: string,
  input: { username: string; password: string; ip: string },
): Promise<{ app: SignInApp; user: SignInUser; memberships: SignInMembership[] }> {
  const name = normalizeUsername(input.username);
  const read = await readPasswordSignIn(db, appId, name);
  if (!read) throw unknownApp();
  const { app, user, memberships } = read;
  if (!passwordSignInEnabled(app)) {
    throw new HttpError(403, 'PASSWORD_SIGN_IN_DISABLED', 'This app does not allow signing in with a password');
  }
  const reservation = await reserveLoginAttempt(db, { appId: app.id, ip: input.ip, username: name }, user?.id);
  if (reservation === null) {
    throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many failed sign-in attempts; try again later');
  }
  const valid = await verifyPassword(user?.passwordHash ?? DUMMY_PASSWORD_HASH, input.password);
  if (!user || !user.passwordHash || !valid) throw new HttpError(401, 'WRONG_CREDENTIALS', 'Wrong credentials');
  await releaseAttempt(db, reservation);
  return { app, user, memberships };
}

/**
 * Signs the browser in as `user` for `app` once a factor proved who it is: a fresh login session
 * (new id, so one seen before is worthless) that keeps the pending authorization, authenticated
 * unless a second factor is still due, then what firstFactorPassed does. The user's workspaces are
 * read here unless the caller read them already (a password sign-in, checkPasswordSignIn).
 */
export async function signIn(
  context: FoyerContext,
  sessions: LoginSessions,
  reply: FastifyReply,
  input: {
    app: SignInApp;
    user: SignInUser;
    memberships?: SignInMembership[];
    previous: LoginSession | undefined;
    ip: string;
    method: SignInMethod;
  },
): Promise<{ answer: SignInAnswer; session: LoginSession }> {
  const { app, user, previous } = input;
  const { memberships, mfaState } = await firstFactorOutcome(context.db, app, user, input.memberships);
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
  return { answer, session };
}

/**
 * What follows a first factor once its login session exists: a code texted when a phone is the only
 * second factor due, and a 'login.success' audit event (which also clears the password failures
 * counted for this address). Answers what POST /auth/authenticate answers.
 */
export async function firstFactorPassed(
  context: FoyerContext,
  input: {
    app: SignInApp;
    user: SignInUser;
    session: LoginSession;
    memberships: readonly SignInMembership[];
    mfaState: MfaState;
    ip: string;
    method: SignInMethod;
  },
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
