// A confidential app's client secret: shown once when made, then kept sealed under FOYER_SECRET,
// since oidc-provider compares the secret a client presents with the registered one in clear.
// Rotating replaces it at once; the old secret stops working with the next request.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { apps } from '../db/schema.ts';
import { seal, sealingKey, unseal } from '../crypto/seal.ts';

const PURPOSE = 'app client secret v1';
const SECRET_PREFIX = 'fys_';

/** Makes a new client secret for the app, replacing any earlier one, and answers it. */
export async function rotateClientSecret(db: Database, configSecret: string, appId: string): Promise<string> {
  const secret = `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  await db
    .update(apps)
    .set({ clientSecretSealed: seal(sealingKey(configSecret, PURPOSE), appId, secret), clientSecretCreatedAt: new Date() })
    .where(eq(apps.id, appId));
  return secret;
}

/** The secret in clear, for oidc-provider's client metadata. */
export function openClientSecret(configSecret: string, appId: string, sealed: string): string {
  return unseal(sealingKey(configSecret, PURPOSE), appId, sealed);
}
