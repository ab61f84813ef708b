// Another app beside the demo app, straight into the database, for tests about apps other than the demo.
import { randomUUID } from 'node:crypto';
import type { TestFoyer } from '../../../server/testing.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import { apps } from '../../../server/db/schema.ts';

export interface AppValues {
  id?: string;
  name?: string;
  settings?: AppSettings;
  /** The first is the default callback; defaults to the hosted UI's OAuth callback. */
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
}

/** Inserts the app and answers its id. */
export async function insertApp(foyer: TestFoyer, values: AppValues = {}): Promise<string> {
  const id = values.id ?? randomUUID();
  const redirectUris = values.redirectUris ?? [`${foyer.urls.ui}/auth/oauth-callback`];
  await foyer.db.insert(apps).values({
    id,
    name: values.name ?? 'Other app',
    settings: values.settings ?? {},
    redirectUris,
    defaultCallbackUri: redirectUris[0]!,
    postLogoutRedirectUris: values.postLogoutRedirectUris ?? [],
  });
  return id;
}
