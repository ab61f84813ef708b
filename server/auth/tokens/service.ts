// Single-use tokens for links Foyer mails. The link carries a random secret; the database keeps its
// SHA-256, so a leaked table grants nothing. Issuing a token of one purpose retires the user's
// earlier unused tokens of that purpose, and a token is consumed atomically.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { userTokens } from '../../db/schema.ts';

export type TokenPurpose = 'reset' | 'signup' | 'invite' | 'magic-link';

/** Lifetimes in seconds; the reset lifetime can be configured (FOYER_RESET_TOKEN_TTL). */
export const TOKEN_TTL_SECONDS: Record<TokenPurpose, number> = {
  reset: 60 * 60,
  signup: 7 * 24 * 60 * 60,
  invite: 7 * 24 * 60 * 60,
  'magic-link': 15 * 60,
};

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssueTokenInput {
  appId: string;
  userId: string;
  purpose: TokenPurpose;
  tenantUserId?: string;
  pendingPasswordHash?: string;
  loginSessionHash?: string;
  ttlSeconds?: number;
}

export async function issueToken(db: Database, input: IssueTokenInput): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const ttl = input.ttlSeconds ?? TOKEN_TTL_SECONDS[input.purpose];
  await db.transaction(async (tx) => {
    await tx
      .update(userTokens)
      .set({ usedAt: now })
      .where(and(eq(userTokens.userId, input.userId), eq(userTokens.purpose, input.purpose), isNull(userTokens.usedAt)));
    await tx.insert(userTokens).values({
      idHash: hashToken(token),
      appId: input.appId,
      userId: input.userId,
      purpose: input.purpose,
      tenantUserId: input.tenantUserId ?? null,
      pendingPasswordHash: input.pendingPasswordHash ?? null,
      loginSessionHash: input.loginSessionHash ?? null,
      expiresAt: new Date(now.getTime() + ttl * 1000),
    });
  });
  return token;
}

export type UserToken = typeof userTokens.$inferSelect;

function live(token: string, purposes: TokenPurpose[]) {
  return and(
    eq(userTokens.idHash, hashToken(token)),
    inArray(userTokens.purpose, purposes),
    isNull(userTokens.usedAt),
    gt(userTokens.expiresAt, new Date()),
  );
}

/** The live (unused, unexpired) token of one of `purposes`, without consuming it. */
export async function findLiveToken(db: Database, token: string, purposes: TokenPurpose[]): Promise<UserToken | undefined> {
  const [row] = await db.select().from(userTokens).where(live(token, purposes)).limit(1);
  return row;
}

/** Marks a live token used; answers it only to the one caller that won, so a replay gets nothing. */
export async function consumeToken(db: Database, token: string, purposes: TokenPurpose[]): Promise<UserToken | undefined> {
  const [row] = await db.update(userTokens).set({ usedAt: new Date() }).where(live(token, purposes)).returning();
  return row;
}
