// Local-storage keys (docs/SPEC.md section 3: prefix NB_). The OAuth tokens live in localStorage because
// docs/SPEC.md requires these keys there; see src/auth/oauth/token-store.ts for what limits the exposure.

import { STORAGE_PREFIX } from '../config.ts';

export const StorageKeys = {
  oauthAccessToken: `${STORAGE_PREFIX}OAUTH_ACCESS_TOKEN`,
  oauthRefreshToken: `${STORAGE_PREFIX}OAUTH_REFRESH_TOKEN`,
  idToken: `${STORAGE_PREFIX}ID_TOKEN`,
  /** The workspace user of the session: the signed-in one, or the one just chosen in the picker. */
  tenantUserId: `${STORAGE_PREFIX}TENANT_USER_ID`,
  /** Legacy mode (docs/SPEC.md section 3): the auth token, and the MFA token once a second factor passed. */
  authToken: `${STORAGE_PREFIX}AUTH_TOKEN`,
  mfaToken: `${STORAGE_PREFIX}MFA_TOKEN`,
  /** sessionStorage, legacy mode: where to go once a workspace is chosen (the OAuth mode keeps it in the pending authorization). */
  legacyReturnPath: `${STORAGE_PREFIX}LEGACY_RETURN_PATH`,
  /** sessionStorage: one pending authorization (PKCE verifier and return path) per state value. */
  oauthPendingPrefix: `${STORAGE_PREFIX}OAUTH_PENDING_`,
} as const;

/** The keys of a signed-in session; logout, 401 handling and a change of app remove them all. */
export const sessionKeys = [
  StorageKeys.oauthAccessToken,
  StorageKeys.oauthRefreshToken,
  StorageKeys.idToken,
  StorageKeys.tenantUserId,
  StorageKeys.authToken,
  StorageKeys.mfaToken,
] as const;
