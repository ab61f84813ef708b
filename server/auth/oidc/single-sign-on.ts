// oidc-provider's single sign-on session of a browser: who /authorize answers for without asking.
// Logging out and choosing another workspace outside an authorization request both end it, so the
// next authorization request cannot quietly issue a code for the previous workspace.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { revokeGrantFamily } from './adapter.ts';

/**
 * Revokes the grant the browser's session holds for `appId` (every refresh token under it dies) and
 * ends the session. Answers the account (membership id) it was signed in as, if any.
 */
export async function endSingleSignOn(
  provider: Provider,
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  appId: string,
): Promise<string | undefined> {
  const session = await provider.Session.get(provider.createContext(request.raw, reply.raw));
  const accountId = session.accountId;
  if (!accountId) return undefined;
  const grantId = session.authorizations?.[appId]?.grantId;
  if (grantId) await revokeGrantFamily(db, grantId);
  await session.destroy();
  return accountId;
}
