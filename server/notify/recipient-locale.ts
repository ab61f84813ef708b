// The language of a mail or text to a person (SPEC.md section 1: the workspace's locale): their own
// locale when they set one, else the locale of their workspaces in the app when those agree; with
// workspaces in several languages and no locale of their own, English (null).
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { tenants, tenantUsers } from '../db/schema.ts';

export async function recipientLocale(db: Database, appId: string, user: { id: string; locale: string | null }): Promise<string | null> {
  if (user.locale) return user.locale;
  const locales = await db
    .selectDistinct({ locale: tenants.locale })
    .from(tenantUsers)
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .where(and(eq(tenantUsers.userId, user.id), eq(tenants.appId, appId), eq(tenantUsers.enabled, true)))
    .limit(2);
  return locales.length === 1 ? locales[0]!.locale : null;
}
