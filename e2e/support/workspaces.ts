// The seeded demo app's workspaces (server/seed/demo.ts), by name, for tests that set one up directly.
import { and, eq } from 'drizzle-orm';
import { tenants } from '../../server/db/schema.ts';
import type { TestFoyer } from '../../server/testing.ts';

export async function demoWorkspaceId(foyer: TestFoyer, name: string): Promise<string> {
  const [workspace] = await foyer.db
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(eq(tenants.appId, foyer.demo.appId), eq(tenants.name, name)));
  if (!workspace) throw new Error(`The demo app has no workspace named ${name}`);
  return workspace.id;
}
