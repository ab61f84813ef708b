// The app a request is about, by id. Ids come from URLs and headers, so anything is possible.
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { apps } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';

export type App = typeof apps.$inferSelect;

export async function findApp(db: Database, appId: string): Promise<App | undefined> {
  if (appId.length === 0 || appId.length > 100) return undefined;
  const [app] = await db.select().from(apps).where(eq(apps.id, appId)).limit(1);
  return app;
}

/**
 * Which version of an app's row was read: PostgreSQL's xmin, the transaction that wrote it, which
 * every update of the row changes (whatever code path makes it) and nothing else does. Kept beside
 * what was built from the row, it tells whether that still holds, on every instance sharing the
 * database, by reading the version alone.
 */
export const appVersion = sql<string>`${apps}.xmin::text`;

/** The app and the version of the row it was read from (appVersion). */
export async function findVersionedApp(db: Database, appId: string): Promise<{ app: App; version: string } | undefined> {
  if (appId.length === 0 || appId.length > 100) return undefined;
  const [row] = await db
    .select({ ...getTableColumns(apps), version: appVersion })
    .from(apps)
    .where(eq(apps.id, appId))
    .limit(1);
  if (!row) return undefined;
  const { version, ...app } = row;
  return { app, version };
}

/** Built once per database: a drawn page reads it on every visit (server/ui/first-paint.ts). */
const versionReads = new WeakMap<Database, ReturnType<typeof prepareVersionRead>>();

function prepareVersionRead(db: Database) {
  return db
    .select({ version: appVersion })
    .from(apps)
    .where(eq(apps.id, sql.placeholder('id')))
    .limit(1)
    .prepare('foyer_app_version');
}

/** The version of the app's row (appVersion), or undefined when there is no such app. */
export async function appVersionOf(db: Database, appId: string): Promise<string | undefined> {
  if (appId.length === 0 || appId.length > 100) return undefined;
  let read = versionReads.get(db);
  if (!read) versionReads.set(db, (read = prepareVersionRead(db)));
  const [row] = await read.execute({ id: appId });
  return row?.version;
}

export const unknownApp = () => new HttpError(404, 'UNKNOWN_APP', 'Unknown app');

export async function requireApp(db: Database, appId: string): Promise<App> {
  const app = await findApp(db, appId);
  if (!app) throw unknownApp();
  return app;
}
