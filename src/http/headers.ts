// docs/SPEC.md section 7, "Request headers on the API client", as a pure function so every auth mode
// feeds it its own credentials (OAuth: the access token; legacy: auth token, MFA token, tenant user).

export interface HeaderCredentials {
  accessToken?: string;
  authToken?: string;
  mfaToken?: string;
  tenantUserId?: string;
  appId?: string;
}

export function apiHeaderRules({ accessToken, authToken, mfaToken, tenantUserId, appId }: HeaderCredentials): Record<string, string> {
  const headers: Record<string, string> = {};
  // Rule 1: only an access token (no auth token) → bearer.
  if (accessToken && !authToken) headers.authorization = `Bearer ${accessToken}`;
  // Rule 2: an auth token and no access token → x-auth-token, joined to the MFA token when one is held.
  if (authToken && !accessToken) headers['x-auth-token'] = mfaToken ? `${authToken}_${mfaToken}` : authToken;
  // Rule 3: a tenant user id and no access token → x-tenant-user-id.
  if (tenantUserId && !accessToken) headers['x-tenant-user-id'] = tenantUserId;
  // Rule 4: an application id is configured → x-app-id, whatever else is sent.
  if (appId) headers['x-app-id'] = appId;
  return headers;
}
