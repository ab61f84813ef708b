// Whether an app offers plans: a workspace made by a signup without a plan must then pick one.
import { count, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { plans } from '../db/schema.ts';

export async function appHasPlans(db: Database, appId: string): Promise<boolean> {
  const [row] = await db.select({ total: count() }).from(plans).where(eq(plans.appId, appId));
  return (row?.total ?? 0) > 0;
}
