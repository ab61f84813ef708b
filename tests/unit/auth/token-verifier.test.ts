// @vitest-environment node
// Token checks of docs/SPEC.md section 5 against a key set served by a real local HTTP server.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, WeakKeyError, type TokenVerifier } from '../../../src/auth/oauth/token-verifier.ts';
import { createSigningKey, type TestSigningKey } from './support/keys.ts';

const appId = 'app-under-test';
let server: Server;
let authUrl: string;
let goodKey: TestSigningKey;
let weakKey: TestSigningKey;
let unpublishedKey: TestSigningKey;
let jwksStatus = 200;
let verify: TokenVerifier;

const nowSeconds = () => Math.floor(Date.now() / 1000);

function claims(overrides: Record<string, unknown> = {}) {
  return { iss: authUrl, aud: appId, sub: 'tenant-user-1', iat: nowSeconds(), exp: nowSeconds() + 600, ...overrides };
}

beforeAll(async () => {
  [goodKey, weakKey, unpublishedKey] = await Promise.all([
    createSigningKey('good'),
    createSigningKey('weak', 1024),
    createSigningKey('unpublished'),
  ]);
  server = createServer((request, response) => {
    if (request.url === '/.well-known/jwks.json' && jwksStatus === 200) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [goodKey.publicJwk, weakKey.publicJwk] }));
      return;
    }
    response.writeHead(request.url === '/.well-known/jwks.json' ? jwksStatus : 404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  verify = createTokenVerifier({ authUrl, appId, fetch, now: Date.now });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('token verification', () => {
  it('accepts a token signed by a published 2048-bit key with the right issuer and audience', async () => {
    const payload = await verify(await goodKey.sign(claims({ role: 'OWNER' })));
    expect(payload).toMatchObject({ sub: 'tenant-user-1', role: 'OWNER', iss: authUrl });
  });

  it('accepts an audience list that includes the app id', async () => {
    await expect(verify(await goodKey.sign(claims({ aud: ['other-app', appId] })))).resolves.toMatchObject({
      sub: 'tenant-user-1',
    });
  });

  it('rejects a wrong issuer', async () => {
    await expect(verify(await goodKey.sign(claims({ iss: 'http://evil.test' })))).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
      claim: 'iss',
    });
  });

  it('rejects an issuer that only differs by a trailing slash', async () => {
    await expect(verify(await goodKey.sign(claims({ iss: `${authUrl}/` })))).rejects.toMatchObject({ claim: 'iss' });
  });

  it('rejects a wrong audience', async () => {
    await expect(verify(await goodKey.sign(claims({ aud: 'another-app' })))).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
      claim: 'aud',
    });
  });

  it('rejects an expired token', async () => {
    const token = await goodKey.sign(claims({ iat: nowSeconds() - 1200, exp: nowSeconds() - 600 }));
    await expect(verify(token)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  it('rejects a token without expiry', async () => {
    const { exp: _omitted, ...withoutExp } = claims();
    await expect(verify(await goodKey.sign(withoutExp))).rejects.toMatchObject({ claim: 'exp' });
  });

  it('rejects a token that is not valid yet', async () => {
    await expect(verify(await goodKey.sign(claims({ nbf: nowSeconds() + 600 })))).rejects.toMatchObject({
      claim: 'nbf',
    });
  });

  it('rejects a token signed by a 1024-bit key even when the key set publishes it', async () => {
    await expect(verify(await weakKey.sign(claims()))).rejects.toBeInstanceOf(WeakKeyError);
  });

  it('rejects a token signed by a key the key set does not publish', async () => {
    await expect(verify(await unpublishedKey.sign(claims()))).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
  });

  it('rejects a tampered token', async () => {
    const token = await goodKey.sign(claims({ role: 'VIEWER' }));
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify(claims({ role: 'OWNER' }))).toString('base64url');
    await expect(verify(`${header}.${forged}.${signature}`)).rejects.toMatchObject({
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
  });

  it('fails when the key set answers non-200', async () => {
    jwksStatus = 503;
    try {
      const freshVerifier = createTokenVerifier({ authUrl, appId, fetch, now: Date.now });
      await expect(freshVerifier(await goodKey.sign(claims()))).rejects.toThrow(/200 OK/);
    } finally {
      jwksStatus = 200;
    }
  });
});
