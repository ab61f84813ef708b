// A local stand-in for a real social provider's OpenID endpoints (Microsoft's, Apple's), reached
// through ServerConfig.providerFetch: every request Foyer makes to the provider's real origin goes to
// this HTTP server instead, so openid-client runs its whole discovery, token and ID token checks on
// the provider's own addresses. The test decides what the discovery document names as issuer and
// which claims the next ID token carries, and reads each token request Foyer made.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CustomFetch } from 'openid-client';

export interface ProviderStandIn {
  /** For ServerConfig.providerFetch: the provider's origin answered here, any other address refused. */
  fetch: CustomFetch;
  /** The claims of the ID token the next token request is answered with (aud, iat and exp are added). */
  nextIdToken(claims: Record<string, unknown>): void;
  /** The form bodies of the token requests received, oldest first. */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

/**
 * `origin`: the provider's real origin (https://login.microsoftonline.com). `documentIssuer`: the
 * issuer the discovery document at a path names (Microsoft's multi-tenant ones name a template).
 */
export async function startProviderStandIn(origin: string, documentIssuer: (path: string) => string): Promise<ProviderStandIn> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'stand-in', alg: 'RS256', use: 'sig' };
  const tokenRequests: URLSearchParams[] = [];
  let claims: Record<string, unknown> | undefined;

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.method === 'GET' && url.pathname.endsWith('/.well-known/openid-configuration')) {
      const path = url.pathname.slice(0, -'/.well-known/openid-configuration'.length);
      return json(200, {
        issuer: documentIssuer(path),
        authorization_endpoint: `${origin}${path}/authorize`,
        token_endpoint: `${origin}/token`,
        jwks_uri: `${origin}/keys`,
        response_types_supported: ['code'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (request.method === 'GET' && url.pathname === '/keys') return json(200, { keys: [jwk] });
    if (request.method === 'POST' && url.pathname === '/token') {
      void bodyOf(request).then(async (text) => {
        const form = new URLSearchParams(text);
        tokenRequests.push(form);
        if (!claims) return json(400, { error: 'invalid_grant' });
        const now = Math.floor(Date.now() / 1000);
        const idToken = await new SignJWT({ aud: form.get('client_id') ?? undefined, ...claims })
          .setProtectedHeader({ alg: 'RS256', kid: 'stand-in' })
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(privateKey);
        claims = undefined;
        json(200, { access_token: 'stand-in-access-token', token_type: 'Bearer', expires_in: 300, id_token: idToken });
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const standInFetch: CustomFetch = (address, options) => {
    const url = new URL(address);
    if (url.origin !== origin) return Promise.reject(new Error(`The stand-in for ${origin} does not reach ${url.origin}`));
    return fetch(`${local}${url.pathname}${url.search}`, options as RequestInit);
  };

  return {
    fetch: standInFetch,
    nextIdToken: (next) => {
      claims = next;
    },
    tokenRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
