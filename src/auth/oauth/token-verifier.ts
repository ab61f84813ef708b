// Verifies Foyer's JWTs (docs/SPEC.md section 5 "Token checks"): signature against the auth service's
// published key set, issuer = the auth base address, audience includes the app id, exp and nbf
// enforced, RS256 only, RSA keys of at least 2048 bits. Key-set fetch limits: docs/SPEC.md section 9.

import { createRemoteJWKSet, customFetch, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { FetchFn } from '../../http/transport.ts';

export const MIN_RSA_MODULUS_BITS = 2048;

export const jwksFetchLimits = {
  timeoutDuration: 5_000,
  cooldownDuration: 30_000,
  cacheMaxAge: 600_000,
} as const;

export interface TokenVerifierOptions {
  /** The auth base address; also the exact issuer. */
  authUrl: string;
  appId: string;
  fetch: FetchFn;
  now: () => number;
}

export type TokenVerifier = (token: string) => Promise<JWTPayload>;

export class WeakKeyError extends Error {
  constructor(bits: number | undefined) {
    super(`RSA key of ${bits ?? 'unknown'} bits; at least ${MIN_RSA_MODULUS_BITS} are required`);
    this.name = 'WeakKeyError';
  }
}

export function createTokenVerifier({ authUrl, appId, fetch, now }: TokenVerifierOptions): TokenVerifier {
  const keySet = createRemoteJWKSet(new URL(`${authUrl}/.well-known/jwks.json`), {
    ...jwksFetchLimits,
    [customFetch]: (url, init) => fetch(url, init),
  });
  // Checked here, on the key the signature is verified with, so a weak key is refused whatever
  // the JOSE library's own floor is.
  const strongKey: JWTVerifyGetKey = async (header, token) => {
    const key = await keySet(header, token);
    const bits = (key.algorithm as Partial<RsaHashedKeyAlgorithm>).modulusLength;
    if (typeof bits !== 'number' || bits < MIN_RSA_MODULUS_BITS) throw new WeakKeyError(bits);
    return key;
  };
  return async (token) => {
    const { payload } = await jwtVerify(token, strongKey, {
      issuer: authUrl,
      audience: appId,
      algorithms: ['RS256'],
      requiredClaims: ['exp'],
      currentDate: new Date(now()),
    });
    return payload;
  };
}
