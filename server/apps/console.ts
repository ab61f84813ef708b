// The console app: the configurator is a client of Foyer like any other app, so owners sign in through
// the hosted login. It exists in every deployment; its redirect URIs follow the hosted UI's URL.
import { eq, sql } from 'drizzle-orm';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { apps } from '../db/schema.ts';

export const CONSOLE_APP_ID = 'foyer-console';

export const CONSOLE_CALLBACK_PATH = '/configurator/callback';

/** The configurator page that starts a sign-in at once (configurator/screens/SignIn.tsx). */
export const CONSOLE_SIGN_IN_PATH = '/configurator/sign-in';

export async function ensureConsoleApp(db: Database, urls: ServerConfig['urls']): Promise<void> {
  const redirects = {
    redirectUris: [`${urls.ui}${CONSOLE_CALLBACK_PATH}`],
    defaultCallbackUri: `${urls.ui}${CONSOLE_CALLBACK_PATH}`,
    postLogoutRedirectUris: [`${urls.ui}/configurator`],
  };
  await db
    .insert(apps)
    .values({
      id: CONSOLE_APP_ID,
      name: 'Foyer console',
      settings: {
        uiUrl: `${urls.ui}/configurator`,
        initiateLoginUri: `${urls.ui}${CONSOLE_SIGN_IN_PATH}`,
        onboardingFlow: 'B2B',
        tenantSelfSignup: true,
        passkeysEnabled: true,
        magicLinkEnabled: true,
        mfaEnabled: true,
        defaultRole: 'ADMIN',
      },
      ...redirects,
    })
    .onConflictDoNothing();
  // Consoles created before the sign-in start existed get it too; like the redirects, it follows the UI's URL.
  const signInStart = JSON.stringify({ initiateLoginUri: `${urls.ui}${CONSOLE_SIGN_IN_PATH}` });
  await db
    .update(apps)
    .set({ ...redirects, settings: sql`${apps.settings} || ${signInStart}::jsonb` })
    .where(eq(apps.id, CONSOLE_APP_ID));
}
