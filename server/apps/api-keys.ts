// An app's API key: shown once when made, stored only as its SHA-256, and replaced (never added to)
// when regenerated, so exactly one key works at a time.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { apiKeys } from '../db/schema.ts';

const KEY_PREFIX = 'fyk_';
/** Longer values are no key of ours; refused before hashing. */
const MAX_KEY_LENGTH = 200;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Replaces every key of the app with a new one and answers it (the only time it is seen). */
export async function replaceApiKey(db: Database, appId: string): Promise<string> {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  await db.transaction(async (tx) => {
    await tx.delete(apiKeys).where(eq(apiKeys.appId, appId));
    await tx.insert(apiKeys).values({ id: randomUUID(), appId, keyHash: hashKey(key) });
  });
  return key;
}

/** The app a key belongs to, if it is a live key. */
export async function appOfApiKey(db: Database, key: string): Promise<string | undefined> {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) return undefined;
  const [row] = await db
    .select({ appId: apiKeys.appId })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hashKey(key)))
    .limit(1);
  return row?.appId;
}

export async function apiKeyCreatedAt(db: Database, appId: string): Promise<Date | null> {
  const [row] = await db.select({ createdAt: apiKeys.createdAt }).from(apiKeys).where(eq(apiKeys.appId, appId)).limit(1);
  return row?.createdAt ?? null;
}
