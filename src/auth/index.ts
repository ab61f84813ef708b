// The auth client's public face. createAuthClient is the only place that looks at the auth mode.

import type { ClientConfig } from '../config.ts';
import { LegacyClient } from './legacy/legacy-client.ts';
import { OAuthClient } from './oauth/oauth-client.ts';
import { browserRuntime, type BrowserRuntime } from './runtime.ts';
import type { AuthClient } from './types.ts';

export function createAuthClient(config: ClientConfig, runtime: BrowserRuntime = browserRuntime()): AuthClient {
  return config.authLegacy ? new LegacyClient(config, runtime) : new OAuthClient(config, runtime);
}

export type * from './types.ts';
export { AuthError, AuthErrorKeys, authErrorTexts, type AuthErrorKey } from './errors.ts';
export { User, ANONYMOUS_USERNAME, fallbackUserData } from './user.ts';
export { safeReturnPath } from './return-path.ts';
export { browserRuntime, type BrowserRuntime } from './runtime.ts';
