// The users table at 10,000 members: listUsers (search + sort + page) and countUsers through the
// real GraphQL endpoint (Fastify inject: routing, token check, authorization, resolver, JSON),
// each beside the same query run as bare SQL on the same database.
import { randomUUID } from 'node:crypto';
import { startFoyer } from '../server/testing.ts';
import { tenants, tenantUsers, users } from '../server/db/schema.ts';
import { hashPassword } from '../server/auth/passwords.ts';
import type { Role } from '../server/apps/settings.ts';
import { checkListArguments, countUsersSelect, listUsersSelect } from '../server/graphql/users/list.ts';
import type { QueryListUsersArgs } from '../server/graphql/generated/resolvers.ts';
import { mintAccessToken } from '../tests/server/support/tokens.ts';
import { compareMs } from './measure.ts';
import type { BenchEntry, Figure } from './types.ts';

const MEMBERS = 10_000;
const CHUNK = 1_000;
const FIRST = ['Ann', 'Bob', 'Carla', 'Dan', 'Eve', 'Frank', 'Grace', 'Hugo', 'Ida', 'Jon', 'Kim', 'Lea', 'Max', 'Nina', 'Otto', 'Pia', 'Quinn', 'Rosa', 'Sam', 'Tove'];
const LAST = ['Andersson', 'Berg', 'Chen', 'Diaz', 'Eriksson', 'Fischer', 'Garcia', 'Holm', 'Ito', 'Jansen', 'Khan', 'Lund', 'Moreau', 'Nilsson', 'Olsen', 'Park', 'Quist', 'Rossi', 'Svensson', 'Tanaka'];

function role(index: number): Role {
  if (index % 10 === 0) return 'ADMIN';
  return index % 10 <= 3 ? 'MANAGER' : 'VIEWER';
}

/** 10,000 members in one workspace: one multi-row insert per thousand, one password hash for all. */
async function seedWorkspace(db: Awaited<ReturnType<typeof startFoyer>>['db'], appId: string): Promise<string> {
  const tenantId = randomUUID();
  await db.insert(tenants).values({ id: tenantId, appId, name: 'Bench', onboarded: true });
  const passwordHash = await hashPassword('Bench-password-2026!');
  const start = Date.parse('2025-01-01T00:00:00Z');
  for (let from = 0; from < MEMBERS; from += CHUNK) {
    const identities = [];
    const memberships = [];
    for (let index = from; index < from + CHUNK; index += 1) {
      const userId = randomUUID();
      const invited = index % 50 === 0;
      const first = FIRST[index % FIRST.length]!;
      const last = LAST[Math.floor(index / FIRST.length) % LAST.length]!;
      identities.push({
        id: userId,
        appId,
        email: `${first}.${last}.${index}@bench.foyer.test`.toLowerCase(),
        firstName: invited ? null : first,
        lastName: invited ? null : last,
        passwordHash: invited ? null : passwordHash,
      });
      memberships.push({
        id: randomUUID(),
        tenantId,
        userId,
        role: role(index),
        enabled: index % 7 !== 0,
        createdAt: new Date(start + index * 60_000),
      });
    }
    await db.insert(users).values(identities);
    await db.insert(tenantUsers).values(memberships);
  }
  return tenantId;
}

const LIST = `query ($search: String, $sortBy: UserSortField, $sortDirection: SortDirection, $offset: Int, $limit: Int) {
  listUsers(search: $search, sortBy: $sortBy, sortDirection: $sortDirection, offset: $offset, limit: $limit) {
    id email firstName lastName fullName role enabled createdAt
  }
}`;
const COUNT = 'query ($search: String) { countUsers(search: $search) }';

const entry: BenchEntry = {
  title: 'users table, 10,000 members',
  async run() {
    const foyer = await startFoyer();
    try {
      const { db } = foyer;
      const tenantId = await seedWorkspace(db, foyer.demo.appId);
      const ownerId = randomUUID();
      const [anyone] = await db.select({ id: users.id }).from(users).limit(1);
      await db.insert(tenantUsers).values({ id: ownerId, tenantId, userId: anyone!.id, role: 'OWNER' });
      const token = await mintAccessToken(
        db,
        { tenantUserId: ownerId, tenantId, appId: foyer.demo.appId, role: 'OWNER', email: 'owner@bench.foyer.test', plan: null },
        { issuer: foyer.urls.auth },
      );

      const graphql = async (query: string, variables: Record<string, unknown>, expectRows?: number) => {
        const response = await foyer.foyer.api.inject({
          method: 'POST',
          url: '/graphql',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          payload: JSON.stringify({ query, variables }),
        });
        const body = response.json() as { data?: { listUsers?: unknown[] }; errors?: unknown };
        if (response.statusCode !== 200 || body.errors) throw new Error(`GraphQL answered ${response.statusCode}: ${response.body}`);
        if (expectRows !== undefined && body.data?.listUsers?.length !== expectRows) throw new Error('Unexpected page size');
      };

      const figures: Figure[] = [];
      const pages: [string, Partial<QueryListUsersArgs>][] = [
        ['listUsers: 2-word search, sort by name desc, 3rd page of 50', { search: 'an active', sortBy: 'NAME', sortDirection: 'DESC', offset: 100, limit: 50 }],
        ['listUsers: no search, sort by e-mail, page at offset 9,000', { sortBy: 'EMAIL', sortDirection: 'ASC', offset: 9_000, limit: 50 }],
      ];
      for (const [name, args] of pages) {
        const bare = listUsersSelect(db, tenantId, checkListArguments(args)).getSQL();
        const { value, floor } = await compareMs(() => graphql(LIST, args, 50), () => db.execute(bare));
        figures.push({ name: `${name} (GraphQL)`, value, unit: 'ms', floor: { name: 'the same query, bare SQL', value: floor } });
      }
      const search = 'an active';
      const countSql = countUsersSelect(db, tenantId, search.split(' ')).getSQL();
      const count = await compareMs(() => graphql(COUNT, { search }), () => db.execute(countSql));
      figures.push({ name: 'countUsers: the same 2-word search (GraphQL)', value: count.value, unit: 'ms', floor: { name: 'the same count, bare SQL', value: count.floor } });
      return figures;
    } finally {
      await foyer.close();
    }
  },
};

export default entry;
