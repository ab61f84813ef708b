// The profile's calls on the auth service (passkeys, sessions) are authorised by the API's access
// token (Authorization: Bearer), verified and re-checked against its membership as GraphQL does.
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { unauthorized } from '../http/errors.ts';
import type { AccessTokenVerifier } from './access-tokens.ts';
import { resolveCaller } from './callers.ts';
import { requireApp, type App } from '../apps/lookup.ts';
import type { User } from './sign-in.ts';

export interface BearerUser {
  app: App;
  user: User;
  /** The verified token's jti: which sign-in session the call comes from. */
  tokenId: string | undefined;
}

/** The signed-in user an access token names, or a 401. */
export async function bearerUser(db: Database, verifier: AccessTokenVerifier, request: FastifyRequest): Promise<BearerUser> {
  const headers = new Headers();
  const authorization = request.headers.authorization;
  if (authorization) headers.set('authorization', authorization);
  const caller = await resolveCaller(db, verifier, headers);
  if (caller.kind !== 'member' || !caller.privileges.has('AUTHENTICATED')) throw unauthorized('Sign in first', 'UNAUTHENTICATED');
  const [user] = await db.select().from(users).where(eq(users.id, caller.userId)).limit(1);
  if (!user) throw unauthorized('Sign in first', 'UNAUTHENTICATED');
  // resolveCaller has verified the token, so its payload can be read as it is.
  const { jti } = decodeJwt(authorization!.replace(/^Bearer +/i, '').trim());
  return { app: await requireApp(db, user.appId), user, tokenId: typeof jti === 'string' ? jti : undefined };
}
