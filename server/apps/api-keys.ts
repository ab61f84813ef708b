// An app's API keys: several per app, each named, shown once when made, stored only as its SHA-256,
// revoked by deleting it. The last use is written at most once a minute per key, so a busy back end
// does not turn every call into a write.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { apiKeys } from '../db/schema.ts';
import type { ApiKeySummary } from '../../common/api/admin.ts';

export { MAX_API_KEY_NAME_LENGTH } from '../../common/api/limits.ts';

const KEY_PREFIX = 'fyk_';
/** Longer values are no key of ours; refused before hashing. */
const MAX_KEY_LENGTH = 200;
export const MAX_API_KEYS_PER_APP = 20;
export const DEFAULT_API_KEY_NAME = 'API key';
const LAST_USED_RESOLUTION_MS = 60_000;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
const newKey = () => `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

export type { ApiKeySummary } from '../../common/api/admin.ts';

const summaryColumns = { id: apiKeys.id, name: apiKeys.name, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt };

function toSummary(row: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }): ApiKeySummary {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}

/** Replaces every key of the app with a new one and answers it (the only time it is seen). */
export async function replaceApiKey(db: Database, appId: string): Promise<string> {
  const key = newKey();
  await db.transaction(async (tx) => {
    await tx.delete(apiKeys).where(eq(apiKeys.appId, appId));
    await tx.insert(apiKeys).values({ id: randomUUID(), appId, keyHash: hashKey(key) });
  });
  return key;
}

/** Adds a named key beside the app's others; the answer is the only time the key is seen. */
export async function createApiKey(db: Database, appId: string, name: string): Promise<ApiKeySummary & { key: string }> {
  const key = newKey();
  const [row] = await db
    .insert(apiKeys)
    .values({ id: randomUUID(), appId, keyHash: hashKey(key), name })
    .returning(summaryColumns);
  return { ...toSummary(row!), key };
}

export async function countApiKeys(db: Database, appId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(eq(apiKeys.appId, appId));
  return row?.total ?? 0;
}

/** The app's keys, newest first, without anything that would let one be used. */
export async function listApiKeys(db: Database, appId: string): Promise<ApiKeySummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(apiKeys)
    .where(eq(apiKeys.appId, appId))
    .orderBy(desc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map(toSummary);
}

/** Deletes the key when it is the app's; answers what was revoked (undefined: no such key of this app). */
export async function revokeApiKey(db: Database, appId: string, keyId: string): Promise<ApiKeySummary | undefined> {
  const [row] = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.appId, appId), eq(apiKeys.id, keyId)))
    .returning(summaryColumns);
  return row ? toSummary(row) : undefined;
}

/** When each key's last use was last written by this process: skips the write within the minute. */
const lastUseWritten = new Map<string, number>();

async function noteUse(db: Database, keyId: string): Promise<void> {
  const now = Date.now();
  if (now - (lastUseWritten.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
  lastUseWritten.set(keyId, now);
  // Other instances write too; the condition keeps it to one write a minute between them.
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now - LAST_USED_RESOLUTION_MS)))));
}

/** The live key `key` is (its id and app), noting its use; undefined for anything else. */
export async function findApiKey(db: Database, key: string): Promise<{ id: string; appId: string } | undefined> {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) return undefined;
  const [row] = await db
    .select({ id: apiKeys.id, appId: apiKeys.appId })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hashKey(key)))
    .limit(1);
  if (!row) return undefined;
  await noteUse(db, row.id);
  return row;
}

/** The app a key belongs to, if it is a live key. */
export async function appOfApiKey(db: Database, key: string): Promise<string | undefined> {
  return (await findApiKey(db, key))?.appId;
}

/** When the app's newest key was made (the configurator's single-key view before several keys). */
export async function apiKeyCreatedAt(db: Database, appId: string): Promise<Date | null> {
  const [row] = await db
    .select({ createdAt: apiKeys.createdAt })
    .from(apiKeys)
    .where(eq(apiKeys.appId, appId))
    .orderBy(desc(apiKeys.createdAt))
    .limit(1);
  return row?.createdAt ?? null;
}
