// Sign in with Apple's two departures from plain OpenID Connect. Its client secret is no fixed string
// but an ES256 JWT the app signs with its own key (the .p8 file from Apple's developer account: team
// id as iss, the Services ID as sub, Apple as aud, the key id in the header), made afresh for every
// token request. And it sends the person's name only once, beside the code in its form post, as the
// `user` JSON of the first authorization; the ID token never carries it.
import { importPKCS8, SignJWT } from 'jose';
import type * as client from 'openid-client';

export const APPLE_AUDIENCE = 'https://appleid.apple.com';
/** Apple accepts up to six months; a secret lives only as long as the one token request needs. */
export const APPLE_SECRET_TTL_SECONDS = 5 * 60;

export interface AppleKey {
  teamId: string;
  keyId: string;
  /** The .p8 file's PKCS #8 PEM (an EC P-256 private key). */
  privateKey: string;
}

/** A client secret for Apple's token endpoint, signed with the app's key. */
export async function appleClientSecret(key: AppleKey, clientId: string, now = Math.floor(Date.now() / 1000)): Promise<string> {
  const signingKey = await importPKCS8(key.privateKey.trim(), 'ES256');
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: key.keyId })
    .setIssuer(key.teamId)
    .setSubject(clientId)
    .setAudience(APPLE_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + APPLE_SECRET_TTL_SECONDS)
    .sign(signingKey);
}

/** Whether `pem` is a private key Apple's client secret can be signed with (a .p8 file's text). */
export async function isApplePrivateKey(pem: string): Promise<boolean> {
  try {
    await importPKCS8(pem.trim(), 'ES256');
    return true;
  } catch {
    return false;
  }
}

/** openid-client's client authentication for Apple: client_id and a fresh client_secret JWT in the body. */
export function appleClientAuthentication(key: AppleKey): client.ClientAuth {
  return async (_server, clientMetadata, body) => {
    body.set('client_id', clientMetadata.client_id);
    body.set('client_secret', await appleClientSecret(key, clientMetadata.client_id));
  };
}

/** The name in Apple's `user` form field (first authorization only); nothing else in it is trusted. */
export function appleUserName(user: string | undefined): { firstName: string | null; lastName: string | null } {
  const none = { firstName: null, lastName: null };
  if (!user) return none;
  let parsed: unknown;
  try {
    parsed = JSON.parse(user);
  } catch {
    return none;
  }
  const name = (parsed as { name?: unknown } | null)?.name as Record<string, unknown> | undefined;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 100) : null);
  return name && typeof name === 'object' ? { firstName: text(name.firstName), lastName: text(name.lastName) } : none;
}
