// The users table pages through a large workspace on its indexes (server/db/schema.ts): for every
// sort, both ways, the page's ids come from a range of the sort's own index, not from reading and
// sorting every member. Checked on the database's plans for a workspace of 5,000 members (no timing).
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { checkListArguments, listUsersSelect } from '../../../server/graphql/users/list.ts';
import type { SortDirection, UserSortField } from '../../../server/graphql/generated/resolvers.ts';
import { createWorkspace } from './users-workspace.ts';

let foyer: TestFoyer;
let tenantId: string;

beforeAll(async () => {
  foyer = await startFoyer();
  tenantId = await createWorkspace(foyer, 'Large');
  const appId = foyer.demo.appId;
  await foyer.db.execute(sql`insert into users (id, app_id, email, first_name, last_name)
    select 'plan-user-' || n, ${appId}, 'person' || n || '@plans.test', (array['Ann', 'Bob', 'Carla'])[1 + n % 3], 'Number ' || n
    from generate_series(1, 5000) as n`);
  await foyer.db.execute(sql`insert into tenant_users (id, tenant_id, user_id, role, enabled, created_at)
    select 'plan-member-' || n, ${tenantId}, 'plan-user-' || n, (array['OWNER', 'ADMIN', 'MANAGER', 'VIEWER'])[1 + n % 4], n % 7 <> 0, now() - make_interval(mins => n)
    from generate_series(1, 5000) as n`);
  // What autovacuum does on PostgreSQL and the embedded database's upkeep does on PGlite (server/db/client.ts).
  await foyer.db.execute(sql`vacuum analyze`);
});
afterAll(() => foyer?.close());

async function plan(query: SQL): Promise<string> {
  const result = (await foyer.db.execute(sql`explain `.append(query))) as unknown as { rows?: Record<string, string>[] } & Record<
    string,
    string
  >[];
  return (result.rows ?? result).map((row) => Object.values(row)[0]).join('\n');
}

const SORTS: UserSortField[] = ['CREATED_AT', 'NAME', 'EMAIL', 'STATUS', 'ROLE'];

/** Status and role, with few values, have an index per direction; the others are read either way. */
function indexFor(sortBy: UserSortField, direction: SortDirection): string {
  const name = { CREATED_AT: 'created', NAME: 'name', EMAIL: 'email', STATUS: 'status', ROLE: 'role' }[sortBy];
  return `tenant_users_${name}${direction === 'DESC' && (sortBy === 'STATUS' || sortBy === 'ROLE') ? '_desc' : ''}_idx`;
}

describe('users table plans', () => {
  for (const sortBy of SORTS) {
    for (const sortDirection of ['ASC', 'DESC'] as SortDirection[]) {
      it(`pages by ${sortBy} ${sortDirection} on ${indexFor(sortBy, sortDirection)}`, async () => {
        const query = listUsersSelect(foyer.db, tenantId, checkListArguments({ sortBy, sortDirection, offset: 100, limit: 50 }));
        const text = await plan(query.getSQL());
        // The page's ids (the subquery, tenant_users_1 in the plan): a range of the sort's index. Its
        // 50 rows are then joined however the planner likes (at this size, hashing the memberships).
        expect(text).toMatch(
          new RegExp(`Index (Only )?Scan (Backward )?using ${indexFor(sortBy, sortDirection)} on tenant_users tenant_users_1`),
        );
        expect(text).not.toMatch(/(Seq|Bitmap Heap) Scan on tenant_users tenant_users_1/);
      });
    }
  }
});
