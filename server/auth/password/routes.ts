// Password reset and set password on the auth origin (ISSUE4-CONTRACT "Auth-service endpoints"):
// ask for a reset link, read what a mailed link is for, and use it to set (or confirm) the password,
// which also signs the browser in. An app with passwords off mails no reset link (the answer stays
// the same), refuses reset links and any password with 403 PASSWORD_SIGN_IN_DISABLED, and lets
// signup and invitation links confirm the e-mail without one.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FoyerContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import type { DeferredWork } from '../deferred.ts';
import { HttpError } from '../../http/errors.ts';
import { passwordPolicyOf } from '../../apps/settings.ts';
import { passwordProblems, passwordProblemTexts, type PasswordProblem } from '../../../common/password-policy.ts';
import { matchesOwnerPattern } from '../../../common/owner-pattern.ts';
import { requireApp, type App } from '../../apps/lookup.ts';
import { normalizeUsername, passwordSignInEnabled, resolveApp, signIn, type User } from '../sign-in.ts';
import { MAILED_LINK_LIMITS, recordWithinLimits } from '../../audit/limits.ts';
import {
  applyPasswordLink,
  findPasswordLink,
  linkExpired,
  passwordLinkUse,
  passwordsDisabled,
  sendResetLink,
  type PasswordLinkToken,
} from './service.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { authServiceRoute } from '../../http/openapi.ts';
import { refusals } from '../../../common/api/errors.ts';
import { Empty, PasswordTokenSchema, SetPasswordBody, SignInAnswerSchema, TokenParams, UsernameBody } from '../../../common/api/auth.ts';
import { keyedIssue } from '../../http/field-issues.ts';

/** PUT /auth/password's body; PUT /auth-proxy/password takes the same. */
export const setPasswordSchema = { body: SetPasswordBody } as const;

/** What a mailed set-password link is for (GET /auth/password/{token}). */
export async function describePasswordLink(db: Database, secret: string) {
  const link = await findPasswordLink(db, secret);
  if (!link) throw linkExpired();
  const { token, user } = link;
  const use = passwordLinkUse(await requireApp(db, token.appId), token, user);
  if (use === 'refused') throw passwordsDisabled();
  return { email: user.email, purpose: token.purpose, passwordChosen: use === 'confirm' };
}

/** Asks for a reset link: limited per address and e-mail, mailed after the answer (the same whether or not the e-mail is known). */
export async function requestResetLink(
  context: FoyerContext,
  deferred: DeferredWork,
  target: App,
  username: string,
  ip: string,
): Promise<void> {
  const email = normalizeUsername(username);
  const attempt = { appId: target.id, ip, username: email };
  if (!(await recordWithinLimits(context.db, 'password.reset_requested', attempt, MAILED_LINK_LIMITS))) {
    throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many reset requests; try again later');
  }
  // Everything that depends on whether the e-mail is known happens after the answer.
  deferred.enqueue('password reset link', () => sendResetLink(context, target, email));
}

/**
 * Uses a set-password link (PUT /auth/password's body): the app and user it signed in, or the
 * policy problems of a refused password (answered by refusePassword).
 */
export async function usePasswordLink(
  db: Database,
  body: { token: string; password?: string },
  ip: string,
): Promise<{ app: App; user: User; purpose: PasswordLinkToken['purpose'] } | { problems: PasswordProblem[] }> {
  const link = await findPasswordLink(db, body.token);
  if (!link) throw linkExpired();
  const { token, user } = link;
  const target = await requireApp(db, token.appId);
  const use = passwordLinkUse(target, token, user);

  // Checked before the link is used, so a refused password leaves the link working. A link that
  // confirms a chosen password ignores one sent along: the chosen (or existing) password stays.
  // Where passwords are off, sending one at all is refused, so no screen claims it was set.
  if (use === 'refused' || (!passwordSignInEnabled(target) && body.password !== undefined)) throw passwordsDisabled();
  let password: string | undefined;
  if (use === 'choose') {
    password = body.password ?? '';
    const policy = passwordPolicyOf(target.settings);
    // An empty password is refused even when the app switched the policy off.
    const problems = password === '' ? (['password.policy.empty'] as const) : passwordProblems(password, policy, matchesOwnerPattern);
    if (problems.length > 0) return { problems: [...problems] };
  }
  if (!(await applyPasswordLink(db, target, body.token, token, user, password, ip))) throw linkExpired();
  return { app: target, user, purpose: token.purpose };
}

/** The 400 of a password the policy refuses, naming each problem. */
export function refusePassword(reply: FastifyReply, problems: PasswordProblem[]) {
  return reply.status(400).send({
    statusCode: 400,
    error: 'PASSWORD_POLICY',
    message: problems.map((problem) => passwordProblemTexts[problem]).join('; '),
    // problems: the runtime's translation keys; issues: the same as every field issue reads (server/http/field-issues.ts).
    details: { field: 'password', problems, issues: problems.map((problem) => keyedIssue(problem, passwordProblemTexts[problem])) },
  });
}

export async function passwordRoutes(app: FastifyInstance, { context, sessions, deferred }: AuthServiceOptions) {
  const { db } = context;

  app.post<{ Body: { username: string } }>(
    '/auth/password',
    {
      schema: {
        ...authServiceRoute('Mail a password reset link (the same answer whether or not the address is known)', 'none'),
        body: UsernameBody,
        response: { 200: Empty, ...refusals(400, 403, 404, 429) },
      },
    },
    async (request) => {
      const session = await sessions.read(request);
      await requestResetLink(context, deferred, await resolveApp(db, request, session), request.body.username, request.ip);
      return {};
    },
  );

  app.get<{ Params: { token: string } }>(
    '/auth/password/:token',
    {
      schema: {
        ...authServiceRoute('What a mailed set-password link stands for', 'none'),
        params: TokenParams,
        response: { 200: PasswordTokenSchema, ...refusals(400, 403, 404, 410) },
      },
    },
    (request) => describePasswordLink(db, request.params.token),
  );

  app.put<{ Body: { token: string; password?: string } }>(
    '/auth/password',
    {
      schema: {
        ...authServiceRoute('Use a mailed link: set (or confirm) the password, which signs the browser in', 'none'),
        ...setPasswordSchema,
        response: { 200: SignInAnswerSchema, ...refusals(400, 403, 404, 410) },
      },
    },
    async (request, reply) => {
      const previous = await sessions.read(request);
      const used = await usePasswordLink(db, request.body, request.ip);
      if ('problems' in used) return refusePassword(reply, used.problems);
      const { answer } = await signIn(context, sessions, reply, {
        app: used.app,
        user: used.user,
        previous,
        ip: request.ip,
        method: used.purpose,
      });
      return answer;
    },
  );
}
