// Access tokens for API tests, signed with the server's own signing key from the database and
// carrying exactly the claims the auth service issues (docs/ORIGINAL-CONTRACT.md 2.4). The full
// OIDC flow that issues them for real is covered by the auth service's tests.
import { and, eq } from 'drizzle-orm';
import { generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { Database } from '../../../server/db/client.ts';
import { tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { loadSigningKeys } from '../../../server/auth/signing-keys.ts';
import { appResource } from '../../../server/auth/access-tokens.ts';
import { privilegesOf } from '../../../common/roles.ts';

export interface Membership {
  tenantUserId: string;
  tenantId: string;
  appId: string;
  role: string;
  email: string;
  plan: string | null;
}

/** The membership of the user with `email` in the workspace named `workspace`. */
export async function findMembership(db: Database, email: string, workspace: string): Promise<Membership> {
  const [row] = await db
    .select({ tenantUser: tenantUsers, tenant: tenants, user: users })
    .from(tenantUsers)
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(users.email, email), eq(tenants.name, workspace)));
  if (!row) throw new Error(`${email} is not a member of ${workspace}`);
  return {
    tenantUserId: row.tenantUser.id,
    tenantId: row.tenant.id,
    appId: row.tenant.appId,
    role: row.tenantUser.role,
    email: row.user.email,
    plan: row.tenant.plan,
  };
}

export interface MintOptions {
  /** Public auth URL the token claims to come from. */
  issuer: string;
  /** Claims to replace or add (e.g. aud, scope). */
  claims?: JWTPayload;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  /** Sign with this key instead of the server's. */
  key?: { privateKey: CryptoKey; kid: string };
  typ?: string;
}

export function accessTokenClaims(membership: Membership): JWTPayload {
  return {
    sub: membership.tenantUserId,
    aud: [membership.appId, appResource(membership.appId)],
    aid: membership.appId,
    tid: membership.tenantId,
    role: membership.role,
    scope: privilegesOf(membership.role).join(' '),
    plan: membership.plan,
    email: membership.email,
  };
}

export async function mintAccessToken(db: Database, membership: Membership, options: MintOptions): Promise<string> {
  let key = options.key;
  if (!key) {
    const jwk = (await loadSigningKeys(db)).privateJwks.at(-1) as JWK & { kid: string };
    key = { privateKey: (await importJWK(jwk, 'RS256')) as CryptoKey, kid: jwk.kid };
  }
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...accessTokenClaims(membership), ...options.claims })
    .setProtectedHeader({ alg: 'RS256', typ: options.typ ?? 'at+jwt', kid: key.kid })
    .setIssuer(options.issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 3600))
    .sign(key.privateKey);
}

/** A well-formed RS256 key the server has never seen, presented under `kid`. */
export async function foreignKey(kid: string): Promise<{ privateKey: CryptoKey; kid: string }> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  return { privateKey, kid };
}

export async function serverKeyId(db: Database): Promise<string> {
  return (await loadSigningKeys(db)).publicJwks.keys.at(-1)!.kid!;
}
