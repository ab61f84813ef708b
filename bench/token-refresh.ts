// Token refresh on the auth service (POST /token, grant_type=refresh_token, through Fastify
// inject: oidc-provider's rotation, the membership check and a freshly signed access token) beside
// its floor, signing an access token's claims with the same RS256 key and nothing else; elapsed
// time, then CPU time (which other work on the machine disturbs less). The first
// refresh token comes from a real sign-in (authorization code with PKCE), as an app would get it.
// On the embedded database (bench/token-refresh.bench.ts) and on PostgreSQL
// (bench/token-refresh-postgres.bench.ts), whose own process's CPU time is not counted.
import { importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import * as client from 'openid-client';
import { startFoyer } from '../server/testing.ts';
import { loadSigningKeys } from '../server/auth/signing-keys.ts';
import { DEMO_PASSWORD } from '../server/seed/demo.ts';
import { accessTokenClaims, findMembership } from '../tests/server/support/tokens.ts';
import { authorizationRequest, callbackUri, relyingParty, signIn } from '../tests/server/oidc/sign-in.ts';
import { compareCpuMs, compareMs, SERVER_WARM_UP } from './measure.ts';
import type { Figure } from './types.ts';

const EMAIL = 'owner@demo.foyer.test';

/** The figures of a Foyer on the database of this test run's kind (server/testing.ts openTestDatabase). */
export async function tokenRefreshFigures(database: string): Promise<Figure[]> {
  const foyer = await startFoyer();
  try {
    const rp = await relyingParty(foyer);
    const pending = await authorizationRequest(rp, callbackUri(foyer));
    const { callback } = await signIn(foyer, {
      authorizeUrl: pending.url,
      redirectUri: callbackUri(foyer),
      email: EMAIL,
      password: DEMO_PASSWORD,
      workspace: 'Acme',
    });
    const tokens = await client.authorizationCodeGrant(rp, callback, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
    });
    let refreshToken = tokens.refresh_token;
    if (!refreshToken) throw new Error('The sign-in issued no refresh token');

    // Each refresh rotates: the next run uses the token the previous one answered.
    const refresh = async () => {
      const response = await foyer.foyer.auth.inject({
        method: 'POST',
        url: '/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: foyer.demo.appId,
          refresh_token: refreshToken!,
        }).toString(),
      });
      if (response.statusCode !== 200) throw new Error(`Refresh answered ${response.statusCode}: ${response.body}`);
      refreshToken = (response.json() as { refresh_token: string }).refresh_token;
    };

    const jwk = (await loadSigningKeys(foyer.db)).privateJwks.at(-1) as JWK & { kid: string };
    const key = (await importJWK(jwk, 'RS256')) as CryptoKey;
    const claims = accessTokenClaims(await findMembership(foyer.db, EMAIL, 'Acme'));
    const sign = () => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: jwk.kid })
        .setIssuer(foyer.urls.auth)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(key);
    };

    const elapsed = await compareMs(refresh, sign, { runs: 20, warmup: SERVER_WARM_UP });
    const cpu = await compareCpuMs(refresh, sign, { runs: 15, batch: 10 });
    return [
      {
        name: `POST /token, refresh_token grant (rotating), ${database}`,
        value: elapsed.value,
        unit: 'ms',
        spread: elapsed.spread,
        floor: { name: 'bare RS256 JWT signing', value: elapsed.floor },
      },
      {
        name: `the same, CPU time${database === 'PostgreSQL' ? ' (Node process only)' : ''}`,
        value: cpu.value,
        unit: 'ms',
        spread: cpu.spread,
        floor: { name: 'bare RS256 JWT signing, CPU time', value: cpu.floor },
      },
    ];
  } finally {
    await foyer.close();
  }
}
