// The moment a mailed link (a signup, invitation or reset link, a magic link) first proves that an
// identity's address is its owner's. Until then anyone could have been signing in to it: a social
// signup on an e-mail the provider did not verify (made before such signups were refused) gives a
// stranger an identity at someone else's address, and the owner's later signup would inherit it
// (pre-account hijacking). So the first proof ends every way in set up before it: the provider links,
// the passkeys and every session and refresh token. The link's own sign-in starts after it.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { federatedIdentities, passkeys, users } from '../db/schema.ts';
import { recordAudit } from '../audit/service.ts';
import { endIdentitySessions } from './sessions/service.ts';
import type { TokenPurpose } from './tokens/service.ts';

/**
 * Marks the identity's address proven by a link of `purpose`, inside the caller's transaction. Answers
 * whether this was the first proof, which dropped what came before it (and was audited as
 * 'identity.email_proven'); a later proof changes nothing.
 */
export async function proveEmail(
  tx: Database,
  input: { appId: string; userId: string; ip: string; purpose: TokenPurpose },
): Promise<boolean> {
  const { appId, userId, ip, purpose } = input;
  const [proven] = await tx
    .update(users)
    .set({ emailVerifiedAt: sql`now()` })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)))
    .returning({ id: users.id });
  if (!proven) return false;
  const links = await tx
    .delete(federatedIdentities)
    .where(eq(federatedIdentities.userId, userId))
    .returning({ provider: federatedIdentities.provider });
  const keys = await tx.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
  await endIdentitySessions(tx, userId);
  await recordAudit(tx, {
    type: 'identity.email_proven',
    appId,
    userId,
    ip,
    detail: { method: purpose, providerLinks: links.map((link) => link.provider), passkeys: keys.length },
  });
  return true;
}
