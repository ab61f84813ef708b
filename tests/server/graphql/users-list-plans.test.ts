// The users table pages through a large workspace on its indexes (server/db/schema.ts): for every
// sort, both ways, the page's ids come from a range of the sort's own index, not from reading and
// sorting every member; a page by cursor (usersPage) deep in the list reads about a page of index
// entries, not the rows before it. Checked on the database's plans for a workspace of 5,000 members
// (no timing), on PGlite and on PostgreSQL 15 (the suite's second pass).
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_ENV, startFoyer, type TestFoyer } from '../../../server/testing.ts';
import {
  checkListArguments,
  countUsersSelect,
  listUsersSelect,
  usersPageSelect,
  type PageQuery,
} from '../../../server/graphql/users/list.ts';
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

async function explain(query: SQL, options = ''): Promise<unknown[]> {
  const result = (await foyer.db.execute(sql.raw(`explain ${options} `).append(query))) as unknown as {
    rows?: Record<string, unknown>[];
  } & Record<string, unknown>[];
  return (result.rows ?? result).map((row) => Object.values(row)[0]);
}

async function plan(query: SQL): Promise<string> {
  return (await explain(query)).join('\n');
}

/** The plan as run: each node's type, index, relation alias and the rows it gave, nested. */
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Alias?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

async function analyzed(query: SQL): Promise<PlanNode[]> {
  // One row holding the plan as JSON: text on PostgreSQL's driver, already parsed on PGlite's.
  const [json] = await explain(query, '(analyze, format json)');
  const root = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: PlanNode }[];
  const nodes: PlanNode[] = [];
  const visit = (node: PlanNode) => {
    nodes.push(node);
    node.Plans?.forEach(visit);
  };
  visit(root[0]!.Plan);
  return nodes;
}

const SORTS: UserSortField[] = ['CREATED_AT', 'NAME', 'EMAIL', 'STATUS', 'ROLE'];

/** Every sort has an index per direction (a descending sort keeps its ties ascending). */
function indexFor(sortBy: UserSortField, direction: SortDirection): string {
  const name = { CREATED_AT: 'created', NAME: 'name', EMAIL: 'email', STATUS: 'status', ROLE: 'role' }[sortBy];
  return `tenant_users_${name}${direction === 'DESC' ? '_desc' : ''}_idx`;
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
        // In the index's own order: no group of equal keys sorted by the tie-breakers first.
        expect(text).not.toMatch(/Incremental Sort/);
      });
    }
  }
});

describe('users table plans by cursor', () => {
  const LIMIT = 50;
  for (const sortBy of SORTS) {
    for (const sortDirection of ['ASC', 'DESC'] as SortDirection[]) {
      for (const way of ['after', 'before'] as const) {
        it(`pages by ${sortBy} ${sortDirection} ${way} a cursor deep in the list, reading about a page of ${indexFor(sortBy, sortDirection)}`, async () => {
          const base = { ...checkListArguments({ sortBy, sortDirection }), after: null, before: null };
          // The row at 80 % of the list is the cursor.
          const [row] = await usersPageSelect(foyer.db, tenantId, { ...base, offset: 4_000 }, 1);
          const position = { key: row!.sortKey, createdAt: row!.createdAtText, id: row!.id };
          const query: PageQuery = { ...base, [way]: position };
          const nodes = await analyzed(usersPageSelect(foyer.db, tenantId, query, LIMIT + 1).getSQL());
          const text = JSON.stringify(nodes.map((node) => [node['Node Type'], node['Index Name'], node.Alias, node['Actual Rows']]));
          const memberships = nodes.filter((node) => node.Alias?.startsWith('tenant_users_'));
          // Both branches (the rest of the cursor's key, the keys beyond it) read a range of an index of the sort.
          expect(memberships.length, text).toBe(2);
          for (const node of memberships) {
            expect(node['Node Type'], text).toMatch(/^Index (Only )?Scan$/);
            expect(node['Index Name'], text).toMatch(
              new RegExp(`^tenant_users_${indexFor(sortBy, sortDirection).split('_')[2]}(_desc)?_idx$`),
            );
            expect(node['Actual Rows'] * node['Actual Loops'], text).toBeLessThanOrEqual(2 * (LIMIT + 1));
          }
        });
      }
    }
  }
});

// On the embedded database every statement runs prepared (server/db/pglite-statements.ts), and
// PostgreSQL plans a prepared statement's first five runs for their parameters, then keeps one plan
// for all parameters (the generic plan) when it looks no costlier; otherwise every page was planned
// anew, in WebAssembly on the main thread, which at 100,000 members took longer than reading it
// (bench/users-table.ts). The page size is part of the statement for that reason (rowCount in
// server/graphql/users/list.ts). On PostgreSQL drizzle sends unnamed statements, planned for their
// parameters at each call, natively; the view below lists none of them.
describe.skipIf(Boolean(process.env[POSTGRES_ENV]))('users table statements are planned once (embedded database)', () => {
  const RUNS = 8;
  const pages: [string, () => Promise<PageQuery>][] = [
    ['the first page', async () => ({ ...checkListArguments({}), after: null, before: null })],
    [
      'a page after a cursor by e-mail',
      async () => {
        const base = { ...checkListArguments({ sortBy: 'EMAIL' }), after: null, before: null };
        const [row] = await usersPageSelect(foyer.db, tenantId, { ...base, offset: 4_000 }, 1);
        return { ...base, after: { key: row!.sortKey, createdAt: row!.createdAtText, id: row!.id } };
      },
    ],
    [
      'a search by name descending after a cursor',
      async () => {
        const base = { ...checkListArguments({ search: 'ann number', sortBy: 'NAME', sortDirection: 'DESC' }), after: null, before: null };
        const [row] = await usersPageSelect(foyer.db, tenantId, { ...base, offset: 60 }, 1);
        return { ...base, after: { key: row!.sortKey, createdAt: row!.createdAtText, id: row!.id } };
      },
    ],
  ];
  /** A statement to run and its text as the database lists it (a query builder, awaited, would run). */
  const statementOf = (select: { getSQL(): SQL; toSQL(): { sql: string } }) => ({ query: select.getSQL(), text: select.toSQL().sql });
  const statements: [string, () => Promise<{ query: SQL; text: string }>][] = [
    ...pages.map(([name, pageQuery]): (typeof statements)[number] => [
      name,
      async () => statementOf(usersPageSelect(foyer.db, tenantId, await pageQuery(), 51)),
    ]),
    ['the count of a two-word search', async () => statementOf(countUsersSelect(foyer.db, tenantId, ['ann', 'number']))],
  ];
  for (const [name, statement] of statements) {
    it(`keeps one plan for ${name}`, async () => {
      const { query, text } = await statement();
      for (let run = 0; run < RUNS; run += 1) await foyer.db.execute(query);
      const result = (await foyer.db.execute(
        sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement = ${text}`,
      )) as unknown as { rows: { generic: number; custom: number }[] };
      const [plans] = result.rows;
      expect(plans).toBeDefined();
      expect(plans!.generic + plans!.custom).toBe(RUNS);
      // The first five runs are planned for their parameters; every later one reuses the generic plan.
      expect(plans!.generic).toBe(RUNS - 5);
    });
  }
});
