// Where a browser goes to have an app start a sign-in (OpenID Connect's initiate_login_uri). Codes
// are only useful to the client holding the PKCE verifier, so a workspace chosen on a hosted screen
// that no sign-in of the app started is handed to the app's next authorization request instead
// (server/auth/oidc/interactions.ts); this is the address that makes the app send one.
import type { AppSettings } from '../db/app-settings.ts';

/** The hosted runtime's own OAuth callback: apps that register it let the hosted home sign in for them. */
export const HOSTED_CALLBACK_PATH = '/auth/oauth-callback';

export interface SignInStartApp {
  id: string;
  redirectUris: string[];
  settings: AppSettings;
}

export function signInStartUrl(app: SignInStartApp, uiUrl: string): string {
  if (app.settings.initiateLoginUri) return app.settings.initiateLoginUri;
  const hostedHome = `${uiUrl}/?appId=${encodeURIComponent(app.id)}`;
  if (app.redirectUris.includes(`${uiUrl}${HOSTED_CALLBACK_PATH}`)) return hostedHome;
  return app.settings.uiUrl ?? hostedHome;
}
