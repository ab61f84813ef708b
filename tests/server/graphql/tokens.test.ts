// The access-token verifier on its own: keys added by another instance are picked up when a token
// names them, and unknown key ids do not reload the keys more than once per interval.
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../server/testing.ts';
import type { DatabaseHandle } from '../../../server/db/client.ts';
import { signingKeys } from '../../../server/db/schema.ts';
import { loadSigningKeys, sealedKeyColumns } from '../../../server/auth/signing-keys.ts';
import { loadConfig } from '../../../server/config.ts';
import { AccessTokenVerifier, appResource } from '../../../server/auth/access-tokens.ts';

const ISSUER = 'http://localhost:3070';
const CONFIG = loadConfig({});
let database: DatabaseHandle;

beforeAll(async () => {
  database = await openTestDatabase();
  await loadSigningKeys(database.db, CONFIG);
});
afterAll(() => database?.close());

/** Another instance rotating in a key: a new row in signing_keys. */
async function addSigningKey(): Promise<{ privateKey: CryptoKey; kid: string }> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  await database.db.insert(signingKeys).values(sealedKeyColumns({ ...jwk, kid, alg: 'RS256', use: 'sig' }, CONFIG.secret));
  return { privateKey, kid };
}

function sign(key: { privateKey: CryptoKey; kid: string }) {
  const appId = 'app-1';
  return new SignJWT({ aid: appId, tid: 'tenant-1', scope: 'AUTHENTICATED', role: 'VIEWER' })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid })
    .setSubject('tenant-user-1')
    .setAudience([appId, appResource(appId)])
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key.privateKey);
}

describe('AccessTokenVerifier', () => {
  it('accepts a token signed with a key added after it first loaded the keys', async () => {
    const verifier = new AccessTokenVerifier(database.db, ISSUER, 0);
    await verifier.verify('warm.up.keys');
    const rotated = await addSigningKey();
    expect(await verifier.verify(await sign(rotated))).toEqual({
      ok: true,
      claims: { sub: 'tenant-user-1', aid: 'app-1', tid: 'tenant-1', scope: 'AUTHENTICATED' },
    });
  });

  it('does not reload the keys again within the interval', async () => {
    const verifier = new AccessTokenVerifier(database.db, ISSUER, 60 * 60 * 1000);
    await verifier.verify('warm.up.keys');
    const rotated = await addSigningKey();
    expect(await verifier.verify(await sign(rotated))).toEqual({ ok: false, reason: 'ERR_JWKS_NO_MATCHING_KEY' });
  });
});
