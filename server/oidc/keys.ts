// The token signing key lives in the database, so restarts and several instances sign and verify
// with the same key. The first instance to start creates it.
import { asc, sql } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../db/client.ts';
import { signingKeys } from '../db/schema.ts';

export interface SigningKeys {
  /** Private JWKs for oidc-provider's `jwks` setting, newest last. */
  privateJwks: JWK[];
  /** What /.well-known/jwks.json publishes. */
  publicJwks: { keys: JWK[] };
}

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

export async function loadSigningKeys(db: Database): Promise<SigningKeys> {
  let rows = await db.select().from(signingKeys).orderBy(asc(signingKeys.createdAt));
  if (rows.length === 0) {
    const jwk = await createKey();
    await db.transaction(async (tx) => {
      // Instances starting at once on an empty database must agree on one key: each creates its
      // key under this lock only when nobody has yet, so the later ones publish the first one's.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('foyer.signing-keys', 0))`);
      const [existing] = await tx.select({ kid: signingKeys.kid }).from(signingKeys).limit(1);
      if (!existing) await tx.insert(signingKeys).values({ kid: jwk.kid, privateJwk: { ...jwk } });
    });
    rows = await db.select().from(signingKeys).orderBy(asc(signingKeys.createdAt));
  }
  const privateJwks = rows.map((row) => row.privateJwk as JWK);
  return { privateJwks, publicJwks: { keys: privateJwks.map(toPublic) } };
}
