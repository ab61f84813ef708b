// Every rotation of a refresh token leaves a row in the token's family (the consumed token stays, to
// detect reuse, until it expires), so a long-lived sign-in refreshed every few minutes gathers
// thousands. The refresh's one read (server/auth/oidc/adapter.ts) must reach the token's Grant by
// its key, not by walking the family: checked on the database's own plan, with actual row counts, after
// many rotations among many other sign-ins (no timing).
import { sql, type Logger } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { loadConfig } from '../../../server/config.ts';
import { refreshTokenOf } from './sign-in.ts';
import { createMember } from '../password/helpers.ts';

let foyer: TestFoyer;
const statements: { query: string; params: unknown[] }[] = [];
const logger: Logger = {
  logQuery(query, params) {
    statements.push({ query, params });
  },
};

beforeAll(async () => {
  const config = loadConfig();
  // The webhook worker's polls would land among the statements: it waits an hour here.
  foyer = await startFoyer({ webhooks: { ...config.webhooks, pollIntervalMs: 60 * 60_000 } }, { logger });
});
afterAll(() => foyer?.close());

async function refresh(refreshToken: string): Promise<string> {
  const response = await foyer.foyer.auth.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: refreshToken }).toString(),
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { refresh_token: string }).refresh_token;
}

/** A statement with its parameters written in, for EXPLAIN (which takes none). */
function inlined({ query, params }: { query: string; params: unknown[] }): string {
  return query.replace(/\$(\d+)/g, (_, index: string) => {
    const value = params[Number(index) - 1];
    return typeof value === 'string' ? `'${value.replaceAll("'", "''")}'` : String(value);
  });
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Alias?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

describe("a refresh grant's read", () => {
  it('reaches the Grant by its key however many times the token was rotated', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    let refreshToken = await refreshTokenOf(foyer, member, 'Acme');
    for (let rotation = 0; rotation < 30; rotation += 1) refreshToken = await refresh(refreshToken);
    // Other people's sign-ins, 2,000 Grants with a refresh token each, and the planner's statistics of them.
    await foyer.db.execute(sql`
      insert into oidc_payloads (id, type, payload, grant_id, expires_at)
      select md5(n || kind), kind, '{}'::jsonb, 'other-grant-' || n, now() + interval '1 day'
      from generate_series(1, 2000) as n, (values ('Grant'), ('RefreshToken')) as kinds (kind)`);
    await foyer.db.execute(sql`analyze oidc_payloads`);

    statements.length = 0;
    await refresh(refreshToken);
    const read = statements.find((statement) => statement.query.startsWith('select') && statement.query.includes('"grant"'));
    expect(read).toBeDefined();
    const result = (await foyer.db.execute(sql.raw(`explain (analyze, format json) ${inlined(read!)}`))) as unknown as
      { rows: Record<string, unknown>[] } | Record<string, unknown>[];
    const [row] = 'rows' in result ? result.rows : result;
    const cell = Object.values(row!)[0];
    const [{ Plan: plan }] = (typeof cell === 'string' ? JSON.parse(cell) : cell) as [{ Plan: PlanNode }];

    const payloadReads = nodesOf(plan).filter(
      (node) => node['Relation Name'] === 'oidc_payloads' || node['Index Name']?.startsWith('oidc_payloads'),
    );
    expect(payloadReads.length).toBeGreaterThan(0);
    for (const node of payloadReads) {
      // One row each: the token, then its Grant; none of the 30 rotated tokens of the family.
      expect(node['Actual Rows'] * node['Actual Loops'], `${node['Node Type']} ${node.Alias ?? node['Index Name']}`).toBeLessThanOrEqual(1);
      expect(node['Rows Removed by Filter'] ?? 0).toBe(0);
      expect(node['Rows Removed by Index Recheck'] ?? 0).toBe(0);
    }
    expect(payloadReads.some((node) => node.Alias === 'grant' && node['Index Name'] === 'oidc_payloads_id_type_pk')).toBe(true);
  });

  it('stores a refresh token in no index of uids or user codes, which lookups by uid still use', async () => {
    const rowsOf = (result: unknown) => ('rows' in (result as object) ? (result as { rows: unknown[] }).rows : (result as unknown[]));
    const indexes = rowsOf(
      await foyer.db.execute(
        sql`select indexname, indexdef from pg_indexes where tablename = 'oidc_payloads' and indexname in ('oidc_payloads_uid_idx', 'oidc_payloads_user_code_idx') order by indexname`,
      ),
    ) as { indexname: string; indexdef: string }[];
    expect(indexes.map((index) => index.indexname)).toEqual(['oidc_payloads_uid_idx', 'oidc_payloads_user_code_idx']);
    expect(indexes[0]!.indexdef).toMatch(/WHERE \(uid IS NOT NULL\)$/);
    expect(indexes[1]!.indexdef).toMatch(/WHERE \(user_code IS NOT NULL\)$/);

    // The adapter's lookup of a session by uid (server/auth/oidc/adapter.ts findByUid), as a prepared statement plans it.
    // On one connection (a transaction), with sequential scans off: a table this small would be read whole.
    const plan = await foyer.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return JSON.stringify(
        rowsOf(
          await tx.execute(
            sql`explain (format json) select * from oidc_payloads where type = 'Session' and uid = ${'some-uid'} and (expires_at is null or expires_at > now()) limit 1`,
          ),
        ),
      );
    });
    expect(plan).toContain('oidc_payloads_uid_idx');
  });
});
