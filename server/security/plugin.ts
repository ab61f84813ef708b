// The hosted screens' way back into the app (SPEC.md section 7, ORIGINAL-CONTRACT.md 2.5) on the API
// host: POST /security/setCookie turns the runtime's access token (Authorization: Bearer) into an
// httpOnly cookie of this host, so a full-page move that follows can be authenticated;
// GET /security/handoverToApp reads it once and sends the browser to the app's sign-in start (its
// initiate-login URI, the hosted home, or its UI URL), where the app signs the person in itself.
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { decodeJwt } from 'jose';
import type { FoyerContext } from '../context.ts';
import { unauthorized } from '../http/errors.ts';
import { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { resolveCaller } from '../auth/callers.ts';
import { signInStartUrl } from '../apps/sign-in-start.ts';

export const SECURITY_PREFIX = '/security';
export const HANDOVER_COOKIE = 'Authorization';

export async function securityPlugin(app: FastifyInstance, { config, db }: FoyerContext): Promise<void> {
  const verifier = new AccessTokenVerifier(db, config.urls.auth);
  await app.register(cookie);
  await app.register(cors, { origin: config.urls.ui, credentials: true, methods: ['POST'], allowedHeaders: ['authorization', 'content-type'], maxAge: 600 });
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, path: SECURITY_PREFIX, secure: config.urls.api.startsWith('https:') };

  /** The signed-in member an access token names (verified, its membership still enabled), or undefined. */
  async function memberOf(accessToken: string | undefined) {
    if (!accessToken) return undefined;
    const caller = await resolveCaller(db, verifier, new Headers({ authorization: `Bearer ${accessToken}` }));
    return caller.kind === 'member' && caller.privileges.has('AUTHENTICATED') ? caller : undefined;
  }

  app.post('/setCookie', async (request, reply: FastifyReply) => {
    const accessToken = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!(await memberOf(accessToken))) throw unauthorized('Sign in first', 'UNAUTHENTICATED');
    const { exp } = decodeJwt(accessToken!);
    reply.setCookie(HANDOVER_COOKIE, accessToken!, { ...cookieOptions, expires: new Date((exp ?? 0) * 1000) });
    return reply.status(204).send();
  });

  app.get('/handoverToApp', async (request, reply) => {
    const member = await memberOf(request.cookies[HANDOVER_COOKIE]);
    reply.clearCookie(HANDOVER_COOKIE, cookieOptions);
    // A page load: never a raw answer, the hosted error screen instead.
    if (!member) return reply.redirect(`${config.urls.ui}/auth/error?error=UNAUTHENTICATED`, 303);
    return reply.redirect(signInStartUrl(member.app, config.urls.ui), 303);
  });
}
