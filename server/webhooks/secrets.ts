// Each endpoint's Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64, as the
// standardwebhooks library reads it. Kept sealed under FOYER_SECRET (server/crypto/seal.ts), bound to
// the endpoint, and named by the secret that sealed it so a rotated FOYER_SECRET still opens it.
import { randomBytes } from 'node:crypto';
import type { ServerConfig } from '../config.ts';
import { seal, sealingKey, secretId, unseal } from '../crypto/seal.ts';

const PURPOSE = 'webhook endpoint secret v1';

export function newEndpointSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function sealEndpointSecret(config: ServerConfig, endpointId: string, secret: string) {
  return { secretSealed: seal(sealingKey(config.secret, PURPOSE), endpointId, secret), secretSealedWith: secretId(config.secret) };
}

export function endpointSecret(config: ServerConfig, endpoint: { id: string; secretSealed: string; secretSealedWith: string }): string {
  const candidates = [config.secret, ...config.previousSecrets];
  const sealer = candidates.find((candidate) => secretId(candidate) === endpoint.secretSealedWith);
  if (!sealer) throw new Error(`The secret of webhook endpoint ${endpoint.id} was sealed under a secret no longer configured`);
  return unseal(sealingKey(sealer, PURPOSE), endpoint.id, endpoint.secretSealed);
}
