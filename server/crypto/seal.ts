// Secrets kept at rest encrypted under the operator's secret (config.secret): AES-256-GCM with a key
// derived per purpose, the sealed value bound to what it belongs to (a user id, an app and provider)
// as additional data, so a value copied onto another row does not open.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const SEALED_PREFIX = 'v1';

/** The key for one purpose (e.g. 'mfa totp secret v1'), derived from the operator's secret. */
export function sealingKey(configSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', configSecret, 'foyer', purpose, 32));
}

/**
 * A short name for a secret, stored beside what it sealed so the right one of several (a rotated
 * FOYER_SECRET and its predecessors) is tried: derived one-way, it tells nothing of the secret.
 */
export function secretId(configSecret: string): string {
  return Buffer.from(hkdfSync('sha256', configSecret, 'foyer', 'secret id v1', 8)).toString('hex');
}

/** `plaintext` encrypted for `owner`: version, IV, tag and ciphertext, base64url, dot-separated. */
export function seal(key: Buffer, owner: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(owner));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [SEALED_PREFIX, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The plaintext, or an error when the value was not sealed for `owner` under `key`. */
export function unseal(key: Buffer, owner: string, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== SEALED_PREFIX || !iv || !tag || ciphertext === undefined) throw new Error('Unreadable sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(owner));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
