// What every way of signing in shares — a password, a set-password link, a magic link: finding the
// app and the identity a request names, and turning the browser's login session into a signed-in
// one with the same answer as POST /auth/authenticate.
import { and, eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { AppSettings } from '../db/app-settings.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../context.ts';
import { isEmbedded, type Database } from '../db/client.ts';
import { apps, auditEvents, tenants, tenantUsers, users } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import { recordAudit, type AuditType } from '../audit/service.ts';
import { requireApp, unknownApp, type App } from '../apps/lookup.ts';
import { enabledMembership, listEnabledMemberships } from './memberships.ts';
import { LOGIN_SESSION_TTL_SECONDS, type LoginSession, type LoginSessions } from './login-session.ts';
import { issueCode, mfaMethodsOf, secondFactorState, type SecondFactorState } from './mfa/service.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords.ts';
import { recordLoginSuccess, rowsOf, underLoginAttemptLocks, withinLoginLimits } from '../audit/limits.ts';
import { currentUserAgent } from '../http/request-device.ts';
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

/** The values of a password sign-in's statement (passwordSignInStatement). */
type PasswordSignInValues = {
  appId: string;
  email: string;
  ip: string;
  userAgent: string | null;
};

/**
 * A password sign-in's one statement before the password is verified: the app's two switches that
 * decide it, the identity with this (normalised) e-mail and the workspaces open to it, each only with
 * the columns signing in uses, and the attempt recorded as a 'login.failure' when the app lets
 * passwords sign in and both login limits are below their maximum (server/audit/limits.ts), its id
 * answered (null when refused). The same statement for an unknown e-mail, a wrong password and a right
 * one. Built once with placeholders: building statements with drizzle, and each statement's round
 * with PGlite (parse, plan, commit on the main thread), were much of a sign-in's CPU beside its
 * argon2id verification (bench/password-login.bench.ts).
 */
const passwordSignInStatement = new PgDialect().sqlToQuery(
  (() => {
    const attempt = { appId: sql.placeholder('appId'), ip: sql.placeholder('ip'), username: sql.placeholder('email') };
    return sql`
      with target as (
        select ${apps.id} as id, ${apps.settings}->'passwordEnabled' as password_enabled, ${apps.settings}->'mfaEnabled' as mfa_enabled
        from ${apps} where ${apps.id} = ${attempt.appId}
      ), account as (
        select ${users.id} as id, ${users.email} as email, ${users.locale} as locale, ${users.passwordHash} as password_hash,
          ${users.mfaTotpSecret} as mfa_totp_secret, ${users.mfaPhoneNumber} as mfa_phone_number
        from ${users} where ${users.appId} = ${attempt.appId} and lower(${users.email}) = ${attempt.username}
        limit 1
      ), reservation as (
        insert into ${auditEvents} (type, app_id, user_id, ip, user_agent, detail)
        select ${'login.failure' satisfies AuditType}, target.id, (select id from account), ${attempt.ip}::text, ${sql.placeholder('userAgent')}::text,
          jsonb_build_object('username', ${attempt.username}::text)
        from target
        where target.password_enabled is distinct from 'false'::jsonb and ${withinLoginLimits(attempt)}
        returning id
      )
      select target.id as app_id, target.password_enabled, target.mfa_enabled, account.id as user_id, account.email, account.locale,
        account.password_hash, account.mfa_totp_secret, account.mfa_phone_number,
        (select coalesce(json_agg(json_build_object('id', ${tenantUsers.id}, 'tenant', json_build_object('mfa', ${tenants.mfa}))), '[]'::json)
          from ${tenantUsers} inner join ${tenants} on ${tenants.id} = ${tenantUsers.tenantId}
          where ${tenantUsers.userId} = account.id and ${enabledMembership} and ${tenants.appId} = target.id) as workspaces,
        (select id from reservation) as reservation
      from target left join account on true`;
  })(),
);

/** A row of passwordSignInStatement. */
interface PasswordSignInRow {
  app_id: string;
  password_enabled: AppSettings['passwordEnabled'] | null;
  mfa_enabled: AppSettings['mfaEnabled'] | null;
  user_id: string | null;
  email: string;
  locale: string | null;
  password_hash: string | null;
  mfa_totp_secret: string | null;
  mfa_phone_number: string | null;
  workspaces: SignInMembership[];
  /** A serial: a number, or its text from a driver that reads integers as text. */
  reservation: number | string | null;
}

type PreparedSignIn = ReturnType<Database['_']['session']['prepareQuery']>;

/** The embedded database's prepared passwordSignInStatement. PostgreSQL's runs in its transaction (underLoginAttemptLocks). */
const preparedSignIns = new WeakMap<Database, PreparedSignIn>();

function passwordSignInQuery(db: Database): PreparedSignIn {
  const prepare = () => db._.session.prepareQuery(passwordSignInStatement, undefined, undefined, false);
  if (!isEmbedded(db)) return prepare();
  let query = preparedSignIns.get(db);
  if (!query) preparedSignIns.set(db, (query = prepare()));
  return query;
}

/**
 * The app (undefined when there is none), the identity with `email` and its workspaces, and the
 * attempt's reservation (null when the app refuses passwords or a login limit is reached), in one
 * statement.
 */
async function readPasswordSignIn(
  db: Database,
  values: PasswordSignInValues,
): Promise<{ app: SignInApp; user: SignInUser | undefined; memberships: SignInMembership[]; reservation: number | null } | undefined> {
  if (values.appId.length === 0 || values.appId.length > 100) return undefined;
  const attempt = { appId: values.appId, ip: values.ip, username: values.email };
  const [row] = await underLoginAttemptLocks(db, attempt, async (locked) =>
    rowsOf<PasswordSignInRow>(await passwordSignInQuery(locked).execute(values)),
  );
  if (!row) return undefined;
  const settings = {
    ...(row.password_enabled === null ? {} : { passwordEnabled: row.password_enabled }),
    ...(row.mfa_enabled === null ? {} : { mfaEnabled: row.mfa_enabled }),
  };
  const user: SignInUser | undefined =
    row.user_id === null
      ? undefined
      : {
          id: row.user_id,
          email: row.email,
          locale: row.locale,
          passwordHash: row.password_hash,
          mfaTotpSecret: row.mfa_totp_secret,
          mfaPhoneNumber: row.mfa_phone_number,
        };
  return {
    app: { id: row.app_id, settings },
    user,
    memberships: user ? row.workspaces : [],
    reservation: row.reservation === null ? null : Number(row.reservation),
  };
}

/**
 * Checks a password sign-in (the first factor) to the app `appId` under the login attempt limits:
 * recorded as a failure before the password is verified (server/audit/limits.ts), in the statement
 * that reads the app and the identity; on success the caller makes that record the sign-in's
 * 'login.success' (its `reservation`, for signIn). Unknown users cost the same statement and hash
 * verification, so timing reveals no account. 404 for an unknown app, 403 where the app switched
 * passwords off, 429 over the limits, 401 WRONG_CREDENTIALS otherwise; the app, the identity and its
 * workspaces when the password is right.
 */
export async function checkPasswordSignIn(
  db: Database,
  appId: string,
  input: { username: string; password: string; ip: string },
): Promise<{ app: SignInApp; user: SignInUser; memberships: SignInMembership[]; reservation: number }> {
  const email = normalizeUsername(input.username);
  const read = await readPasswordSignIn(db, { appId, email, ip: input.ip, userAgent: currentUserAgent() ?? null });
  if (!read) throw unknownApp();
  const { app, user, memberships, reservation } = read;
  if (!passwordSignInEnabled(app)) {
    throw new HttpError(403, 'PASSWORD_SIGN_IN_DISABLED', 'This app does not allow signing in with a password');
  }
  if (reservation === null) {
    throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many failed sign-in attempts; try again later');
  }
  const valid = await verifyPassword(user?.passwordHash ?? DUMMY_PASSWORD_HASH, input.password);
  if (!user || !user.passwordHash || !valid) throw new HttpError(401, 'WRONG_CREDENTIALS', 'Wrong credentials');
  return { app, user, memberships, reservation };
}

/**
 * Signs the browser in as `user` for `app` once a factor proved who it is: a fresh login session
 * (new id, so one seen before is worthless) that keeps the pending authorization, authenticated
 * unless a second factor is still due, then what firstFactorPassed does. The user's workspaces are
 * read here unless the caller read them already (a password sign-in, checkPasswordSignIn, which also
 * gives its attempt's reservation to become the 'login.success' event).
 */
export async function signIn(
  context: FoyerContext,
  sessions: LoginSessions,
  reply: FastifyReply,
  input: {
    app: SignInApp;
    user: SignInUser;
    memberships?: SignInMembership[];
    reservation?: number;
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
  const answer = await firstFactorPassed(context, {
    app,
    user,
    session,
    memberships,
    mfaState,
    ip: input.ip,
    method: input.method,
    ...(input.reservation === undefined ? {} : { reservation: input.reservation }),
  });
  return { answer, session };
}

/**
 * What follows a first factor once its login session exists: a code texted when a phone is the only
 * second factor due, and a 'login.success' audit event (which also clears the password failures
 * counted for this address): the attempt's `reservation` made that event, after a password. Answers
 * what POST /auth/authenticate answers.
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
    reservation?: number;
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
  const detail = { username: normalizeUsername(user.email), method: input.method };
  if (input.reservation === undefined) {
    await recordAudit(context.db, { type: 'login.success', appId: app.id, userId: user.id, ip: input.ip, detail });
  } else {
    await recordLoginSuccess(context.db, input.reservation, detail);
  }
  return {
    session: true,
    expiresIn: LOGIN_SESSION_TTL_SECONDS,
    mfaState,
    ...(memberships.length === 1 ? { tenantUserId: memberships[0]!.id } : {}),
  };
}
