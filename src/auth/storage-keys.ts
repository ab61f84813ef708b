// Local-storage keys (SPEC.md section 3: prefix NB_). The OAuth tokens live in localStorage because
// SPEC.md requires these keys there; see src/auth/oauth/token-store.ts for what limits the exposure.

import { STORAGE_PREFIX } from '../config.ts';

export const StorageKeys = {
  oauthAccessToken: `${STORAGE_PREFIX}OAUTH_ACCESS_TOKEN`,
  oauthRefreshToken: `${STORAGE_PREFIX}OAUTH_REFRESH_TOKEN`,
  idToken: `${STORAGE_PREFIX}ID_TOKEN`,
  /** The workspace user last chosen in the picker (switchUser). */
  tenantUserId: `${STORAGE_PREFIX}TENANT_USER_ID`,
  /** sessionStorage: one pending authorization (PKCE verifier and return path) per state value. */
  oauthPendingPrefix: `${STORAGE_PREFIX}OAUTH_PENDING_`,
} as const;

/**
 * The keys of a signed-in OAuth session; logout and 401 handling remove them all. NB_TENANT_USER_ID
 * is not among them: in OAuth mode it is never sent anywhere and only remembers the last chosen
 * workspace, so the picker can preselect it at the next sign-in.
 */
export const sessionKeys = [StorageKeys.oauthAccessToken, StorageKeys.oauthRefreshToken, StorageKeys.idToken] as const;
