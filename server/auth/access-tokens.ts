// Verifies the auth service's access tokens against the signing keys in the database: RS256, typ
// at+jwt, issuer = the public auth URL, audience = the token's own app claim and that app's resource
// (which no ID token names, so an ID token is never taken for an access token). Keys are reloaded when a token names a key this instance has not seen
// (a rotation by another instance), at most once per interval so forged key ids cannot flood the
// database.
import { createLocalJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Database } from '../db/client.ts';
import { loadPublicJwks } from './signing-keys.ts';

/** The claims the API relies on; role, plan and email are read fresh from the database instead. */
export interface AccessTokenClaims {
  /** Tenant user (membership) id. */
  sub: string;
  aid: string;
  tid: string;
  /** Space-separated privileges. */
  scope: string;
  /** The grant the token was issued under (oidc-provider's grant id). */
  gid?: string;
}

export type VerifiedToken = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: string };

const DEFAULT_KEY_RELOAD_INTERVAL_MS = 30_000;

type KeySet = ReturnType<typeof createLocalJWKSet>;

function hasStringClaims(payload: JWTPayload): payload is JWTPayload & AccessTokenClaims {
  return ['sub', 'aid', 'tid', 'scope'].every((name) => typeof payload[name] === 'string' && payload[name] !== '');
}

/** Each app is one resource server; its access tokens name it as a second audience. */
export function appResource(appId: string): string {
  return `urn:foyer:app:${appId}`;
}

function audienceIsApp(payload: JWTPayload & AccessTokenClaims): boolean {
  const { aud, aid } = payload;
  return Array.isArray(aud) && aud.length === 2 && aud[0] === aid && aud[1] === appResource(aid);
}

export class AccessTokenVerifier {
  private keys: Promise<KeySet> | undefined;
  private loadedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly issuer: string,
    private readonly keyReloadIntervalMs = DEFAULT_KEY_RELOAD_INTERVAL_MS,
  ) {}

  private loadKeys(): Promise<KeySet> {
    this.loadedAt = Date.now();
    const loading = loadPublicJwks(this.db).then((publicJwks) => createLocalJWKSet(publicJwks));
    // A failed load is retried by the next request instead of being cached.
    loading.catch(() => {
      if (this.keys === loading) this.keys = undefined;
    });
    this.keys = loading;
    return loading;
  }

  private async check(token: string, keys: KeySet) {
    return jwtVerify(token, keys, {
      issuer: this.issuer,
      algorithms: ['RS256'],
      typ: 'at+jwt',
      requiredClaims: ['exp', 'iat', 'sub'],
    });
  }

  async verify(token: string): Promise<VerifiedToken> {
    let payload: JWTPayload;
    try {
      try {
        payload = (await this.check(token, await (this.keys ?? this.loadKeys()))).payload;
      } catch (error) {
        const stale = Date.now() - this.loadedAt >= this.keyReloadIntervalMs;
        if (!(error instanceof errors.JWKSNoMatchingKey) || !stale) throw error;
        payload = (await this.check(token, await this.loadKeys())).payload;
      }
    } catch (error) {
      if (error instanceof errors.JOSEError) return { ok: false, reason: error.code };
      throw error;
    }
    if (!hasStringClaims(payload)) return { ok: false, reason: 'ERR_ACCESS_TOKEN_CLAIMS' };
    if (!audienceIsApp(payload)) return { ok: false, reason: 'ERR_ACCESS_TOKEN_AUDIENCE' };
    return {
      ok: true,
      claims: {
        sub: payload.sub,
        aid: payload.aid,
        tid: payload.tid,
        scope: payload.scope,
        ...(typeof payload.gid === 'string' ? { gid: payload.gid } : {}),
      },
    };
  }
}
