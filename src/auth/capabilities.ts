// What an auth client offers beyond the token session, read from what it implements: a mode that
// lacks a capability has no calls for it (src/auth/types.ts).
import { AuthError, AuthErrorKeys } from './errors.ts';
import type { AuthCapability, AuthClient } from './types.ts';

export function capabilitiesOf(auth: AuthClient): ReadonlySet<AuthCapability> {
  const capabilities = new Set<AuthCapability>();
  if (auth.passkeys) capabilities.add('passkeys');
  if (auth.magicLink) capabilities.add('magicLink');
  if (auth.sessions) capabilities.add('sessions');
  if (auth.federation) capabilities.add('federation');
  return capabilities;
}

const missingKey = {
  passkeys: AuthErrorKeys.passkeysUnavailable,
  magicLink: AuthErrorKeys.magicLinkUnavailable,
  sessions: AuthErrorKeys.sessionsUnavailable,
} as const;

/** The calls of an optional capability, or docs/SPEC.md's message that this mode has none. */
export function required<Calls>(calls: Calls | undefined, capability: keyof typeof missingKey): Calls {
  if (calls === undefined) throw new AuthError(missingKey[capability]);
  return calls;
}
