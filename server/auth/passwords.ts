// argon2id with OWASP's recommended parameters (19 MiB, 2 passes, 1 lane).
import { hash, verify } from '@node-rs/argon2';

// The library's default algorithm is argon2id.
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verifying against this when no user matches keeps the answer time the same for unknown e-mails. */
export const DUMMY_PASSWORD_HASH = await hashPassword('foyer-no-such-user');
