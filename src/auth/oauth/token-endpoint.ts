// The auth service's standard OAuth token endpoints (form-encoded, public client, PKCE).

import type { FetchFn } from '../../http/transport.ts';

export interface TokenSet {
  accessToken?: string;
  refreshToken?: string;
  idToken?: string;
}

export interface TokenEndpointOptions {
  authUrl: string;
  appId: string;
  fetch: FetchFn;
}

/** Raised when the token endpoint answers non-2xx; carries the OAuth error code (e.g. invalid_grant). */
export class TokenEndpointError extends Error {
  readonly status: number;
  readonly code?: string;

  constructor(status: number, code: string | undefined) {
    super(`Token endpoint answered ${status}${code ? ` (${code})` : ''}`);
    this.name = 'TokenEndpointError';
    this.status = status;
    this.code = code;
  }
}

function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

async function postForm(options: TokenEndpointOptions, path: string, form: Record<string, string>): Promise<Response> {
  return options.fetch(`${options.authUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    // The token endpoint authenticates the client by PKCE or the refresh token, never by cookie.
    credentials: 'omit',
  });
}

async function tokenRequest(options: TokenEndpointOptions, form: Record<string, string>): Promise<TokenSet> {
  return tokenSetOf(await postForm(options, '/token', { ...form, client_id: options.appId }));
}

/**
 * A handover code (POST /handover/code/{appId}) redeemed at the shorthand /token/code/{appId}, with
 * the verifier of the PKCE challenge the app's back end gave for it.
 */
export async function exchangeHandoverCode(options: TokenEndpointOptions, code: string, codeVerifier: string | null): Promise<TokenSet> {
  const response = await options.fetch(`${options.authUrl}/token/code/${encodeURIComponent(options.appId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(codeVerifier ? { code, codeVerifier } : { code }),
    credentials: 'omit',
  });
  return tokenSetOf(response);
}

async function tokenSetOf(response: Response): Promise<TokenSet> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // A body that is not JSON carries no tokens; the status decides below.
  }
  if (!response.ok) throw new TokenEndpointError(response.status, field(body, 'error'));
  return {
    accessToken: field(body, 'access_token'),
    refreshToken: field(body, 'refresh_token'),
    idToken: field(body, 'id_token'),
  };
}

export function exchangeCode(
  options: TokenEndpointOptions,
  params: { code: string; redirectUri: string; codeVerifier: string },
): Promise<TokenSet> {
  return tokenRequest(options, {
    grant_type: 'authorization_code',
    code: params.code,
    redirect_uri: params.redirectUri,
    code_verifier: params.codeVerifier,
  });
}

export function refreshTokens(options: TokenEndpointOptions, refreshToken: string): Promise<TokenSet> {
  return tokenRequest(options, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** Best effort: the answer is not read, and the caller ignores failures. */
export async function revokeRefreshToken(options: TokenEndpointOptions, refreshToken: string): Promise<void> {
  await postForm(options, '/token/revocation', {
    token: refreshToken,
    token_type_hint: 'refresh_token',
    client_id: options.appId,
  });
}
