// Real RSA signing keys for tests: jose signs with ≥ 2048-bit keys; the deliberately weak 1024-bit
// key is signed with WebCrypto directly, because jose (rightly) refuses to sign with it.

import { SignJWT, exportJWK, generateKeyPair, type JWK, type JWTPayload } from 'jose';

export interface TestSigningKey {
  kid: string;
  publicJwk: JWK;
  sign(claims: JWTPayload): Promise<string>;
}

function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export async function createSigningKey(kid: string, modulusLength = 2048): Promise<TestSigningKey> {
  if (modulusLength >= 2048) {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength, extractable: true });
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    return {
      kid,
      publicJwk,
      sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey),
    };
  }
  const pair = await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
  const publicJwk = { ...((await crypto.subtle.exportKey('jwk', pair.publicKey)) as JWK), kid, alg: 'RS256', use: 'sig' };
  return {
    kid,
    publicJwk,
    async sign(claims) {
      const signingInput = `${base64UrlJson({ alg: 'RS256', kid, typ: 'JWT' })}.${base64UrlJson(claims)}`;
      const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', pair.privateKey, new TextEncoder().encode(signingInput));
      return `${signingInput}.${Buffer.from(signature).toString('base64url')}`;
    },
  };
}
