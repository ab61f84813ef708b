// OpenID Connect connections through openid-client, as social sign-in talks to Google
// (server/auth/federation/providers.ts): the issuer's discovery, the authorization code with PKCE,
// state and nonce, and the ID token checked; the person from its claims (or userinfo), `email_verified` included.
import * as client from 'openid-client';
import type { ServerConfig } from '../../config.ts';
import { profileFromClaims, serverMetadata } from '../federation/providers.ts';
import { openConnectionSecret, oidcRedirectUri, type EnterpriseConnection } from './connections.ts';
import type { EnterpriseProfile } from './profile.ts';

const SCOPE = 'openid email profile';

export async function oidcConfiguration(config: ServerConfig, connection: EnterpriseConnection): Promise<client.Configuration> {
  const issuer = connection.oidcIssuer ?? '';
  // Only outside production may an issuer speak plain HTTP (connections.ts refuses it in production).
  const insecure = issuer.startsWith('http:') && config.env !== 'production';
  const metadata = await serverMetadata(issuer, insecure);
  const configuration = new client.Configuration(metadata, connection.oidcClientId ?? '', openConnectionSecret(config, connection));
  if (insecure) client.allowInsecureRequests(configuration);
  return configuration;
}

export async function oidcLoginUrl(
  config: ServerConfig,
  connection: EnterpriseConnection,
  started: { state: string; nonce: string; codeVerifier: string },
): Promise<string> {
  const configuration = await oidcConfiguration(config, connection);
  return client.buildAuthorizationUrl(configuration, {
    redirect_uri: oidcRedirectUri(config),
    scope: SCOPE,
    state: started.state,
    nonce: started.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(started.codeVerifier),
    code_challenge_method: 'S256',
  }).href;
}

/** Exchanges the callback's code (state, nonce, PKCE and the ID token checked) and reads the person. */
export async function finishOidc(
  config: ServerConfig,
  connection: EnterpriseConnection,
  started: { nonce: string; codeVerifier: string },
  callbackUrl: URL,
): Promise<EnterpriseProfile> {
  const configuration = await oidcConfiguration(config, connection);
  const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
    pkceCodeVerifier: started.codeVerifier,
    expectedState: callbackUrl.searchParams.get('state') ?? undefined,
    expectedNonce: started.nonce,
    idTokenExpected: true,
  });
  const claims: Record<string, unknown> = { ...tokens.claims() };
  if (claims.email === undefined && configuration.serverMetadata().userinfo_endpoint && typeof claims.sub === 'string') {
    Object.assign(claims, await client.fetchUserInfo(configuration, tokens.access_token, claims.sub));
  }
  // `email_verified` false or absent: the e-mail is not trusted to link or create anyone (profile.ts).
  return profileFromClaims(claims);
}
