// The token signing key lives in the database, so restarts and several instances sign and verify
// with the same key. The first instance to start creates it. Its private half is sealed under the
// operator's secret (server/crypto/seal.ts), so a copy of the database cannot mint tokens; the row
// names the secret that sealed it, and a start with a new FOYER_SECRET opens it with the old one
// listed in FOYER_PREVIOUS_SECRETS and seals it again under the new one.
import { asc, eq, isNotNull, sql } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { signingKeys } from '../db/schema.ts';
import { seal, sealingKey, secretId, unseal } from '../crypto/seal.ts';

export interface SigningKeys {
  /** Private JWKs for oidc-provider's `jwks` setting, newest last. */
  privateJwks: JWK[];
  /** What /.well-known/jwks.json publishes. */
  publicJwks: { keys: JWK[] };
}

/** The secrets that may have sealed a key: the current one seals, the previous ones only open. */
export type KeySecrets = Pick<ServerConfig, 'secret' | 'previousSecrets'>;

const PURPOSE = 'signing key v1';
const PUBLIC_RSA_MEMBERS = ['kty', 'kid', 'alg', 'use', 'n', 'e'] as const;

function toPublic(jwk: JWK): JWK {
  return Object.fromEntries(PUBLIC_RSA_MEMBERS.filter((k) => jwk[k] !== undefined).map((k) => [k, jwk[k]])) as JWK;
}

async function createKey(): Promise<JWK & { kid: string }> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { ...jwk, kid, alg: 'RS256', use: 'sig' };
}

/** The stored form of a private key: its public half in the clear, the whole sealed for its kid. */
export function sealedKeyColumns(jwk: JWK & { kid: string }, secret: string) {
  return {
    kid: jwk.kid,
    privateJwk: null,
    publicJwk: { ...toPublic(jwk) },
    sealedJwk: seal(sealingKey(secret, PURPOSE), jwk.kid, JSON.stringify(jwk)),
    sealedWith: secretId(secret),
  };
}

function openKey(row: typeof signingKeys.$inferSelect, secrets: KeySecrets): JWK {
  if (row.sealedJwk === null) return row.privateJwk as JWK;
  const secret = [secrets.secret, ...secrets.previousSecrets].find((candidate) => secretId(candidate) === row.sealedWith);
  if (secret === undefined) {
    throw new Error(
      `The token signing key ${row.kid} is sealed under a secret this server does not have: ` +
        'set FOYER_SECRET back, or list the previous secret in FOYER_PREVIOUS_SECRETS',
    );
  }
  return JSON.parse(unseal(sealingKey(secret, PURPOSE), row.kid, row.sealedJwk)) as JWK;
}

/**
 * The secrets each database's keys are opened with, bound by createFoyer (server/app.ts) before the
 * provider loads them, so every caller of loadSigningKeys with that database uses the deployment's.
 */
const boundSecrets = new WeakMap<Database, KeySecrets>();

export function bindKeySecrets(db: Database, secrets: KeySecrets): void {
  boundSecrets.set(db, secrets);
}

/** Seals keys stored in the clear (from before migration 0008) or under a previous secret. */
async function resealKeys(db: Database, secrets: KeySecrets): Promise<void> {
  const current = secretId(secrets.secret);
  const rows = await db.select().from(signingKeys);
  for (const row of rows) {
    if (row.sealedJwk !== null && row.sealedWith === current) continue;
    const jwk = openKey(row, secrets) as JWK & { kid: string };
    await db.update(signingKeys).set(sealedKeyColumns(jwk, secrets.secret)).where(eq(signingKeys.kid, row.kid));
  }
}

export async function loadSigningKeys(db: Database, secrets: KeySecrets | undefined = boundSecrets.get(db)): Promise<SigningKeys> {
  if (!secrets) throw new Error('loadSigningKeys needs the secrets that seal the keys (bindKeySecrets)');
  const current = secretId(secrets.secret);
  const [stale] = await db
    .select({ kid: signingKeys.kid })
    .from(signingKeys)
    .where(sql`${signingKeys.sealedWith} is distinct from ${current} or ${isNotNull(signingKeys.privateJwk)}`)
    .limit(1);
  let rows = await db.select().from(signingKeys).orderBy(asc(signingKeys.createdAt));
  if (rows.length === 0 || stale) {
    const jwk = rows.length === 0 ? await createKey() : undefined;
    await db.transaction(async (tx) => {
      // Instances starting at once on an empty database must agree on one key: each creates its
      // key under this lock only when nobody has yet, so the later ones publish the first one's.
      // Resealing runs under it too, so two instances do not seal the same key twice.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('foyer.signing-keys', 0))`);
      const [existing] = await tx.select({ kid: signingKeys.kid }).from(signingKeys).limit(1);
      if (!existing && jwk) await tx.insert(signingKeys).values(sealedKeyColumns(jwk, secrets.secret));
      else await resealKeys(tx, secrets);
    });
    rows = await db.select().from(signingKeys).orderBy(asc(signingKeys.createdAt));
  }
  const privateJwks = rows.map((row) => openKey(row, secrets));
  return { privateJwks, publicJwks: { keys: rows.map((row) => row.publicJwk as JWK) } };
}

/** The published keys, newest last: token verification needs no secret. */
export async function loadPublicJwks(db: Database): Promise<{ keys: JWK[] }> {
  const rows = await db.select({ publicJwk: signingKeys.publicJwk }).from(signingKeys).orderBy(asc(signingKeys.createdAt));
  return { keys: rows.map((row) => row.publicJwk as JWK) };
}
