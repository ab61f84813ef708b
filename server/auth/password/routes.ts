// Password reset and set password on the auth origin (ISSUE4-CONTRACT "Auth-service endpoints"):
// ask for a reset link, read what a mailed link is for, and use it to set (or confirm) the password,
// which also signs the browser in. An app with passwords off mails no reset link (the answer stays
// the same), refuses reset links and any password with 403 PASSWORD_SIGN_IN_DISABLED, and lets
// signup and invitation links confirm the e-mail without one.
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import { passwordPolicyOf } from '../../apps/settings.ts';
import { passwordProblems, passwordProblemTexts } from '../../../src/policy/password-policy.ts';
import { requireApp } from '../app-lookup.ts';
import { normalizeUsername, passwordSignInEnabled, resolveApp, signIn, usernameBodySchema } from '../session/sign-in.ts';
import { MAILED_LINK_LIMITS, recordWithinLimits } from '../../audit/limits.ts';
import { tokenField, tokenParamsSchema } from '../tokens/service.ts';
import { applyPasswordLink, findPasswordLink, linkExpired, passwordLinkUse, passwordsDisabled, sendResetLink } from './service.ts';
import type { AuthServiceOptions } from '../service-options.ts';

const setSchema = {
  body: {
    type: 'object',
    required: ['token'],
    properties: { token: tokenField, password: { type: 'string', maxLength: 1024 } },
  },
} as const;

export async function passwordRoutes(app: FastifyInstance, { context, sessions, deferred }: AuthServiceOptions) {
  const { db } = context;

  app.post<{ Body: { username: string } }>('/auth/password', { schema: usernameBodySchema }, async (request) => {
    const session = await sessions.read(request);
    const target = await resolveApp(db, request, session);
    const email = normalizeUsername(request.body.username);
    const attempt = { appId: target.id, ip: request.ip, username: email };
    if (!(await recordWithinLimits(db, 'password.reset_requested', attempt, MAILED_LINK_LIMITS))) {
      throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many reset requests; try again later');
    }
    // Everything that depends on whether the e-mail is known happens after the answer.
    deferred.enqueue('password reset link', () => sendResetLink(context, target, email));
    return {};
  });

  app.get<{ Params: { token: string } }>('/auth/password/:token', { schema: tokenParamsSchema }, async (request) => {
    const link = await findPasswordLink(db, request.params.token);
    if (!link) throw linkExpired();
    const { token, user } = link;
    const use = passwordLinkUse(await requireApp(db, token.appId), token, user);
    if (use === 'refused') throw passwordsDisabled();
    return { email: user.email, purpose: token.purpose, passwordChosen: use === 'confirm' };
  });

  app.put<{ Body: { token: string; password?: string } }>('/auth/password', { schema: setSchema }, async (request, reply) => {
    const link = await findPasswordLink(db, request.body.token);
    if (!link) throw linkExpired();
    const { token, user } = link;
    const target = await requireApp(db, token.appId);
    const use = passwordLinkUse(target, token, user);

    // Checked before the link is used, so a refused password leaves the link working. A link that
    // confirms a chosen password ignores one sent along: the chosen (or existing) password stays.
    // Where passwords are off, sending one at all is refused, so no screen claims it was set.
    if (use === 'refused' || (!passwordSignInEnabled(target) && request.body.password !== undefined)) throw passwordsDisabled();
    let password: string | undefined;
    if (use === 'choose') {
      password = request.body.password ?? '';
      const policy = passwordPolicyOf(target.settings);
      // An empty password is refused even when the app switched the policy off.
      const problems = password === '' ? (['password.policy.empty'] as const) : passwordProblems(password, policy);
      if (problems.length > 0) {
        return reply.status(400).send({
          statusCode: 400,
          error: 'PASSWORD_POLICY',
          message: problems.map((problem) => passwordProblemTexts[problem]).join('; '),
          details: { field: 'password', problems },
        });
      }
    }

    const previous = await sessions.read(request);
    const applied = await applyPasswordLink(db, target, request.body.token, token, user, password);
    if (!applied) throw linkExpired();
    const { answer } = await signIn(context, sessions, reply, { app: target, user, previous, ip: request.ip, method: token.purpose });
    return answer;
  });
}
