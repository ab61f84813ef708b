// Two-factor endpoints (docs/ORIGINAL-CONTRACT.md 2.3, plus the authenticator-app calls startTotpSetup,
// finishTotpSetup and GET mfaMethods): they work only on a login session whose first factor passed and
// whose second is still due, and the one that passes it renews the session as signed in. The same
// endpoints serve the legacy mode under /auth-proxy (server/auth-proxy/routes.ts), where the login
// session is the auth token's and passing answers its MFA token.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { recordAudit } from '../../audit/service.ts';
import { recordAttemptWithinLimit, releaseAttempt, reserveAttempt } from '../../audit/limits.ts';
import { requireApp } from '../../apps/lookup.ts';
import { toE164 } from '../../notify/phone.ts';
import type { LoginSession } from '../login-session.ts';
import {
  checkCode,
  discardCodes,
  enrollPhone,
  issueCode,
  mfaMethodsOf,
  newRecoveryCodeWithHash,
  pendingSetup,
  recover,
  RECOVERY_FAILURES,
  type CheckOutcome,
  type MfaMethod,
} from './service.ts';
import { checkSetupCode, discardSetup, enrollTotp, startSetup, TOTP_ATTEMPTS, totpKey, verifySignInCode } from './totp.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { Type } from 'typebox';
import { authServiceRoute } from '../../http/openapi.ts';
import { refusals } from '../../../common/api/errors.ts';
import {
  BackupCodeBody,
  CommitMfaCodeBody,
  MfaCodeBody,
  MfaMethodsSchema,
  MfaSetupFinishedSchema,
  PhoneNumberBody,
  SecondFactorPassedSchema,
  TotpSetupSchema,
} from '../../../common/api/auth.ts';

const tooMany = () => new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many attempts; try again later');
const wrongCode = () => new HttpError(401, 'WRONG_MFA_CODE', 'Wrong security code');
const deadCode = () => new HttpError(401, 'MFA_CODE_EXPIRED', 'This security code has expired or was tried too often; ask for a new one');
const wrongRecoveryCode = () => new HttpError(401, 'WRONG_RECOVERY_CODE', 'Wrong recovery code');
const alreadySetUp = () => new HttpError(409, 'MFA_ALREADY_SET_UP', 'Two-factor is set up already; enter the security code');

/** The last digits only: enough for an operator to tell numbers apart, not to text anyone. */
const numberHint = (phoneNumber: string) => `…${phoneNumber.slice(-2)}`;

/** How a mode finds the sign-in waiting for its second factor, and what passing it does. */
export interface SecondFactorSteps {
  /** The login session a request continues (any state); undefined when it names none. */
  session(request: FastifyRequest): Promise<LoginSession | undefined>;
  /** The second factor passed; answers what the reply adds (the auth token's MFA token in legacy mode). */
  passed(reply: FastifyReply, session: LoginSession & { userId: string }): Promise<Record<string, string>>;
  /** How the routes read in the OpenAPI document: their tag and how a caller is authenticated. */
  documented: Omit<ReturnType<typeof authServiceRoute>, 'summary'>;
}

export async function mfaRoutes(app: FastifyInstance, { context, sessions }: AuthServiceOptions) {
  await secondFactorRoutes(app, context, '/auth', {
    session: (request) => sessions.read(request),
    documented: authServiceRoute(''),
    // A new session id, signed in, keeping the pending authorization.
    async passed(reply, session) {
      await sessions.start(
        reply,
        { appId: session.appId, userId: session.userId, authenticated: true, interactionUid: session.interactionUid },
        session,
      );
      return {};
    },
  });
}

/** The two-factor endpoints under `prefix`, on the login sessions `steps` finds. */
export async function secondFactorRoutes(app: FastifyInstance, context: FoyerContext, prefix: string, steps: SecondFactorSteps) {
  const { db } = context;
  const secretKey = totpKey(context.config.secret);
  const route = (summary: string) => ({ ...steps.documented, summary });
  const refused = refusals(400, 401, 409, 429);

  /** The request's session and user, when a first factor passed and the second is still due. */
  async function pendingSignIn(request: FastifyRequest) {
    const session = await steps.session(request);
    if (!session?.userId || session.authenticatedAt) {
      throw unauthorized('No sign-in is waiting for a second factor', 'UNAUTHENTICATED');
    }
    const [user] = await db
      .select()
      .from(users)
      .where(and(eq(users.id, session.userId), eq(users.appId, session.appId)))
      .limit(1);
    if (!user) throw unauthorized('No sign-in is waiting for a second factor', 'UNAUTHENTICATED');
    const who = { appId: session.appId, userId: user.id, ip: request.ip, username: user.email.toLowerCase() };
    return { session, user, who };
  }

  async function refuse(
    outcome: Exclude<CheckOutcome, { ok: true }> | { ok: false; reason: 'replayed' },
    who: { appId: string; userId: string; ip: string },
    method: MfaMethod,
  ) {
    await recordAudit(db, {
      type: 'mfa.failure',
      appId: who.appId,
      userId: who.userId,
      ip: who.ip,
      detail: { reason: outcome.reason, method },
    });
    return outcome.reason === 'dead' ? deadCode() : wrongCode();
  }

  /** The pending sign-in's user has no second factor yet (setup is allowed only then). */
  function requireNoSecondFactor(user: { mfaPhoneNumber: string | null; mfaTotpSecret: string | null }) {
    if (user.mfaPhoneNumber || user.mfaTotpSecret) throw alreadySetUp();
  }

  app.get(
    `${prefix}/mfaMethods`,
    {
      schema: {
        ...route('The second factors of the sign-in waiting for one, the authenticator app first'),
        response: { 200: MfaMethodsSchema, ...refusals(401) },
      },
    },
    async (request) => {
      const { user } = await pendingSignIn(request);
      return { methods: mfaMethodsOf(user) };
    },
  );

  app.post<{ Body: { phoneNumber: string } }>(
    `${prefix}/startMfaUserSetup`,
    {
      schema: {
        ...route('Set up texted codes: text a code to the number'),
        body: PhoneNumberBody,
        response: { 204: Type.Null(), ...refused },
      },
    },
    async (request, reply) => {
      const { session, user } = await pendingSignIn(request);
      requireNoSecondFactor(user);
      const phoneNumber = toE164(request.body.phoneNumber);
      if (!phoneNumber) {
        throw new HttpError(
          400,
          'INVALID_PHONE_NUMBER',
          'The phone number must be in international format: a plus, the country code and the number',
        );
      }
      const outcome = await issueCode(context, { session, user, purpose: 'setup', phoneNumber, ip: request.ip });
      if (outcome === 'throttled') throw tooMany();
      return reply.status(204).send();
    },
  );

  app.post<{ Body: { mfaCode: string } }>(
    `${prefix}/finishMfaUserSetup`,
    {
      schema: {
        ...route('Finish setting up texted codes with the code texted; answers the recovery code once'),
        body: MfaCodeBody,
        response: { 200: MfaSetupFinishedSchema, ...refused },
      },
    },
    async (request, reply) => {
      const { session, user, who } = await pendingSignIn(request);
      requireNoSecondFactor(user);
      const outcome = await checkCode(db, session, 'setup', request.body.mfaCode);
      if (!outcome.ok) throw await refuse(outcome, who, 'sms');
      const backupCode = await enrollPhone(db, user, outcome.code.phoneNumber);
      if (!backupCode) throw alreadySetUp();
      await recordAudit(db, {
        type: 'mfa.setup_finished',
        appId: who.appId,
        userId: who.userId,
        ip: who.ip,
        detail: { method: 'sms', phoneNumber: numberHint(outcome.code.phoneNumber) },
      });
      const added = await steps.passed(reply, { ...session, userId: user.id });
      return { ...added, backupCode };
    },
  );

  /** The authenticator app: a new secret to scan (or type), replacing a setup this session started before. */
  app.post(
    `${prefix}/startTotpSetup`,
    { schema: { ...route('Set up an authenticator app: a new secret to scan or type'), response: { 200: TotpSetupSchema, ...refused } } },
    async (request) => {
      const { session, user } = await pendingSignIn(request);
      requireNoSecondFactor(user);
      const signedInTo = await requireApp(db, session.appId);
      return startSetup(db, secretKey, { session, user, issuer: signedInTo.name || 'Foyer' });
    },
  );

  app.post<{ Body: { mfaCode: string } }>(
    `${prefix}/finishTotpSetup`,
    {
      schema: {
        ...route('Finish setting up an authenticator app with its code; answers the recovery code once'),
        body: MfaCodeBody,
        response: { 200: MfaSetupFinishedSchema, ...refused },
      },
    },
    async (request, reply) => {
      const { session, user, who } = await pendingSignIn(request);
      requireNoSecondFactor(user);
      const outcome = await checkSetupCode(db, secretKey, session, request.body.mfaCode);
      if (!outcome.ok) throw await refuse(outcome, who, 'totp');
      const { recoveryCode, hash } = await newRecoveryCodeWithHash();
      if (!(await enrollTotp(db, secretKey, user, { secret: outcome.secret, step: outcome.step, recoveryCodeHash: hash }))) {
        throw alreadySetUp();
      }
      await recordAudit(db, { type: 'mfa.setup_finished', appId: who.appId, userId: who.userId, ip: who.ip, detail: { method: 'totp' } });
      const added = await steps.passed(reply, { ...session, userId: user.id });
      return { ...added, backupCode: recoveryCode };
    },
  );

  /** The second factor at sign-in, by the chosen method (by default the app when the user has one). */
  app.post<{ Body: { mfaCode: string; method?: MfaMethod } }>(
    `${prefix}/commitMfaCode`,
    {
      schema: {
        ...route('Pass the second factor with a code of the chosen method (by default the authenticator app)'),
        body: CommitMfaCodeBody,
        response: { 200: SecondFactorPassedSchema, 204: Type.Null(), ...refused },
      },
    },
    async (request, reply) => {
      const { session, user, who } = await pendingSignIn(request);
      const methods = mfaMethodsOf(user);
      if (methods.length === 0) throw new HttpError(409, 'MFA_NOT_SET_UP', 'Two-factor is not set up yet');
      const method = request.body.method ?? methods[0]!;
      if (!methods.includes(method))
        throw new HttpError(409, 'MFA_METHOD_NOT_SET_UP', `Two-factor by ${method} is not set up for this account`);
      if (method === 'sms') {
        const outcome = await checkCode(db, session, 'sign-in', request.body.mfaCode);
        if (!outcome.ok) throw await refuse(outcome, who, method);
      } else {
        // Counted before the check and across sign-ins: the sixth try fails even with the right code.
        if (!(await recordAttemptWithinLimit(db, TOTP_ATTEMPTS, who))) throw tooMany();
        const outcome = await verifySignInCode(db, secretKey, user, request.body.mfaCode);
        if (outcome === 'unreadable') {
          throw new HttpError(
            409,
            'MFA_SECRET_UNREADABLE',
            'The authenticator app can no longer be checked (the server secret changed); use the recovery code',
          );
        }
        if (outcome !== 'ok') throw await refuse({ ok: false, reason: outcome }, who, method);
      }
      await recordAudit(db, {
        type: 'mfa.verified',
        appId: who.appId,
        userId: who.userId,
        ip: who.ip,
        detail: { username: who.username, method },
      });
      const added = await steps.passed(reply, { ...session, userId: user.id });
      return Object.keys(added).length > 0 ? added : reply.status(204).send();
    },
  );

  /** A new code: to the user's phone at sign-in, or to the number being set up. */
  app.post(
    `${prefix}/resendMfaCode`,
    { schema: { ...route('Text a new code'), response: { 204: Type.Null(), ...refused } } },
    async (request, reply) => {
      const { session, user } = await pendingSignIn(request);
      if (user.mfaTotpSecret && !user.mfaPhoneNumber) {
        throw new HttpError(409, 'MFA_METHOD_NOT_SET_UP', 'Two-factor by sms is not set up for this account');
      }
      const setup = user.mfaPhoneNumber ? undefined : await pendingSetup(db, session);
      const phoneNumber = user.mfaPhoneNumber ?? setup?.phoneNumber;
      if (!phoneNumber) throw new HttpError(409, 'MFA_SETUP_NOT_STARTED', 'Enter a phone number first');
      const purpose = user.mfaPhoneNumber ? 'sign-in' : 'setup';
      const outcome = await issueCode(context, { session, user, purpose, phoneNumber, ip: request.ip });
      if (outcome === 'throttled') throw tooMany();
      return reply.status(204).send();
    },
  );

  app.post<{ Body: { backupCode: string } }>(
    `${prefix}/resetUserMfaSetup`,
    {
      schema: {
        ...route('Remove the second factor with the recovery code, to set up a new one'),
        body: BackupCodeBody,
        response: { 204: Type.Null(), ...refused },
      },
    },
    async (request, reply) => {
      const { session, user, who } = await pendingSignIn(request);
      // Recorded as a failure before the code is checked (server/audit/limits.ts), taken back on success.
      const reservation = await reserveAttempt(db, RECOVERY_FAILURES.type, who, [RECOVERY_FAILURES], who.userId);
      if (reservation === null) throw tooMany();
      if (!(await recover(db, user, request.body.backupCode))) throw wrongRecoveryCode();
      await releaseAttempt(db, reservation);
      await discardCodes(db, session);
      await discardSetup(db, session);
      await recordAudit(db, {
        type: 'mfa.recovered',
        appId: who.appId,
        userId: who.userId,
        ip: who.ip,
        detail: { username: who.username },
      });
      return reply.status(204).send();
    },
  );
}
