// An app's social provider client secrets at rest: sealed (AES-256-GCM under FOYER_SECRET) and bound
// to the app and the provider, so a sealed value copied to another app or provider does not open.
// The configurator's writes seal them (server/admin/config-document.ts); social sign-in opens them
// (server/auth/federation/providers.ts).
import type { ServerConfig } from '../config.ts';
import { seal, sealingKey, unseal } from '../crypto/seal.ts';
import type { SocialProvider } from '../../common/app-config.ts';

const PROVIDER_SECRET_PURPOSE = 'app provider secret v1';
const secretOwner = (appId: string, provider: SocialProvider) => `${appId}/${provider}`;

export function sealProviderSecret(config: ServerConfig, appId: string, provider: SocialProvider, secret: string): string {
  return seal(sealingKey(config.secret, PROVIDER_SECRET_PURPOSE), secretOwner(appId, provider), secret);
}

/** A provider's client secret in clear, for signing in with that provider. */
export function openProviderSecret(config: ServerConfig, appId: string, provider: SocialProvider, sealed: string): string {
  return unseal(sealingKey(config.secret, PROVIDER_SECRET_PURPOSE), secretOwner(appId, provider), sealed);
}
