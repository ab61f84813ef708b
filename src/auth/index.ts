// The auth client's public face. createAuthClient is the only place that looks at the auth mode.

import type { ClientConfig } from '../config.ts';
import { OAuthClient } from './oauth/oauth-client.ts';
import { browserRuntime, type BrowserRuntime } from './runtime.ts';
import type { AuthClient } from './types.ts';

/** The legacy client is its own chunk: only the apps in legacy mode load it. */
export async function createAuthClient(config: ClientConfig, runtime: BrowserRuntime = browserRuntime()): Promise<AuthClient> {
  if (!config.authLegacy) return new OAuthClient(config, runtime);
  const { LegacyClient } = await import('./legacy/legacy-client.ts');
  return new LegacyClient(config, runtime);
}

export type * from './types.ts';
export { AuthError, AuthErrorKeys, authErrorTexts, type AuthErrorKey } from './errors.ts';
export { User, ANONYMOUS_USERNAME, fallbackUserData } from './user.ts';
export { safeReturnPath } from './return-path.ts';
export { browserRuntime, type BrowserRuntime } from './runtime.ts';
