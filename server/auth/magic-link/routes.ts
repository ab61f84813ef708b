// Magic links on the auth origin (ISSUE4-CONTRACT "Auth-service endpoints"): ask for a sign-in link
// by e-mail, and open it — in the same browser — to be signed in like a password login.
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import { normalizeUsername, resolveApp, signIn, usernameBodySchema } from '../sign-in.ts';
import { MAILED_LINK_LIMITS, recordWithinLimits } from '../../audit/limits.ts';
import { TOKEN_TTL_SECONDS } from '../tokens/service.ts';
import { nextStepAfterSignIn, sendMagicLink, useMagicLink } from './service.ts';
import type { AuthServiceOptions } from '../service-options.ts';
import { Type } from 'typebox';
import { authServiceRoute } from '../../http/openapi.ts';
import { refusals } from '../../../common/api/errors.ts';
import { MagicLinkSentSchema, TokenParams } from '../../../common/api/auth.ts';

export async function magicLinkRoutes(app: FastifyInstance, { context, sessions, deferred }: AuthServiceOptions) {
  const { db, config } = context;
  const failed = `${config.urls.ui}/auth/login?error=true&errorDetails=mle`;

  app.post<{ Body: { username: string } }>(
    '/auth/magic-link',
    {
      schema: {
        ...authServiceRoute('Mail a sign-in link that works in this browser', 'none'),
        ...usernameBodySchema,
        response: { 200: MagicLinkSentSchema, ...refusals(400, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const current = await sessions.read(request);
      const target = await resolveApp(db, request, current);
      if (!target.settings.magicLinkEnabled) {
        throw new HttpError(403, 'MAGIC_LINK_DISABLED', 'Magic links are not enabled for this app');
      }
      const email = normalizeUsername(request.body.username);
      const attempt = { appId: target.id, ip: request.ip, username: email };
      if (!(await recordWithinLimits(db, 'magic_link.requested', attempt, MAILED_LINK_LIMITS))) {
        throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many magic link requests; try again later');
      }
      // The link works only in this browser: it names this login session (a new one when there is none).
      const session = current?.appId === target.id ? current : await sessions.start(reply, { appId: target.id }, current);
      // Everything that depends on whether the e-mail is known happens after the answer.
      deferred.enqueue('magic link', () => sendMagicLink(context, target, email, session.idHash));
      return { expiresIn: TOKEN_TTL_SECONDS['magic-link'] };
    },
  );

  app.get<{ Params: { token: string } }>(
    '/auth/magic-link/:token',
    {
      schema: {
        ...authServiceRoute('Open a mailed sign-in link (a browser navigation to the next step)', 'none'),
        params: TokenParams,
        response: { 303: Type.Null({ description: 'To the next step, or to the login page when the link is spent' }) },
      },
    },
    async (request, reply) => {
      const session = await sessions.read(request);
      // Expired, used, unknown, or opened in another browser: one answer for all.
      const used = session && (await useMagicLink(db, request.params.token, session, request.ip));
      if (!session || !used) return reply.redirect(failed, 303);
      const { answer } = await signIn(context, sessions, reply, {
        app: used.app,
        user: used.user,
        previous: session,
        ip: request.ip,
        method: 'magic-link',
      });
      return reply.redirect(nextStepAfterSignIn(config, answer), 303);
    },
  );
}
