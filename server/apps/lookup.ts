// The app a request is about, by id. Ids come from URLs and headers, so anything is possible.
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { apps } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';

export type App = typeof apps.$inferSelect;

export async function findApp(db: Database, appId: string): Promise<App | undefined> {
  if (appId.length === 0 || appId.length > 100) return undefined;
  const [app] = await db.select().from(apps).where(eq(apps.id, appId)).limit(1);
  return app;
}

export const unknownApp = () => new HttpError(404, 'UNKNOWN_APP', 'Unknown app');

export async function requireApp(db: Database, appId: string): Promise<App> {
  const app = await findApp(db, appId);
  if (!app) throw unknownApp();
  return app;
}
