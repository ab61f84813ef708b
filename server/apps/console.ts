// The console app: the configurator is a client of Foyer like any other app, so owners sign in through
// the hosted login. It exists in every deployment; its redirect URIs follow the hosted UI's URL.
import { eq } from 'drizzle-orm';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { apps } from '../db/schema.ts';

export const CONSOLE_APP_ID = 'foyer-console';

export const CONSOLE_CALLBACK_PATH = '/configurator/callback';

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
  await db.update(apps).set(redirects).where(eq(apps.id, CONSOLE_APP_ID));
}
