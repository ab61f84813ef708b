// PKCE (RFC 7636, S256) and the state value that binds a callback to the login this browser began.

import type { BrowserRuntime } from '../runtime.ts';

export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 32 random bytes → 43 characters, the RFC's recommended verifier length. */
export function randomToken(runtime: BrowserRuntime): string {
  return base64Url(runtime.randomBytes(32));
}

export async function s256Challenge(runtime: BrowserRuntime, verifier: string): Promise<string> {
  return base64Url(await runtime.sha256(new TextEncoder().encode(verifier)));
}
