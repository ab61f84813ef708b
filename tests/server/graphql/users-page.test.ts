// The users table paged by cursor (usersPage): for every sort, both ways, with and without a search,
// going forward and back gives the same rows in the same order as the offset listing (whose order
// tests/server/graphql/users-list.test.ts checks against the shown texts); a cursor is refused unless
// this server made it for the same workspace, sort and search; and rows inserted or deleted between
// pages never make a page repeat or skip a row that was there all along.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantUsers } from '../../../server/db/schema.ts';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { errorCodes, type GraphQLAnswer } from '../support/graphql.ts';
import { addMember, ask, createWorkspace, type Member } from './users-workspace.ts';

let foyer: TestFoyer;
let owner: Member;
let otherOwner: Member;
let tenantId: string;

const BASE = Date.parse('2026-02-01T00:00:00Z');
const FIRST = ['Ann', 'Bob', 'Carla', null];
const ROLES = ['OWNER', 'ADMIN', 'MANAGER', 'VIEWER', 'VIEWER'] as const;

beforeAll(async () => {
  foyer = await startFoyer();
  tenantId = await createWorkspace(foyer, 'Paging');
  owner = await addMember(foyer, tenantId, { role: 'OWNER', firstName: 'Paula', lastName: 'Pager', email: 'paula@page.test' });
  // Ties in every sort: names, statuses and roles repeat, and creation times too (the id decides).
  for (let index = 0; index < 22; index += 1) {
    await addMember(foyer, tenantId, {
      role: ROLES[index % ROLES.length]!,
      firstName: FIRST[index % FIRST.length],
      lastName: index % 3 === 0 ? 'Same' : `Last ${index % 5}`,
      email: `member${index % 11}.${index}@page.test`,
      enabled: index % 4 !== 1,
      createdAt: new Date(BASE + Math.floor(index / 3) * 60_000),
    });
  }
  // Creation times apart by microseconds only, which a JavaScript Date cannot hold.
  await foyer.db.execute(sql`update tenant_users set created_at = created_at + make_interval(secs => 0.000001 * (ascii(right(id, 1)) % 7))
    where tenant_id = ${tenantId} and id <> ${owner.tenantUserId}`);
  const otherTenantId = await createWorkspace(foyer, 'Elsewhere');
  otherOwner = await addMember(foyer, otherTenantId, { role: 'OWNER', firstName: 'Otto', email: 'otto@elsewhere.test' });
  await addMember(foyer, otherTenantId, { role: 'VIEWER', firstName: 'Olivia', email: 'olivia@elsewhere.test' });
});
afterAll(() => foyer?.close());

const PAGE = `query ($search: String, $sortBy: UserSortField, $sortDirection: SortDirection, $limit: Int, $after: String, $before: String, $offset: Int) {
  usersPage(search: $search, sortBy: $sortBy, sortDirection: $sortDirection, limit: $limit, after: $after, before: $before, offset: $offset) {
    users { id email } startCursor endCursor hasPreviousPage hasNextPage
  }
}`;
const LIST = `query ($search: String, $sortBy: UserSortField, $sortDirection: SortDirection) {
  listUsers(search: $search, sortBy: $sortBy, sortDirection: $sortDirection, limit: 100) { id }
}`;

interface Page {
  users: { id: string; email: string }[];
  startCursor: string | null;
  endCursor: string | null;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
}

async function page(variables: Record<string, unknown>, as: Member = owner): Promise<Page> {
  const answer = await ask(foyer, as, PAGE, variables);
  expect(answer.body.errors).toBeUndefined();
  return (answer.body.data as { usersPage: Page }).usersPage;
}

async function offsetListing(variables: Record<string, unknown>): Promise<string[]> {
  const answer = await ask(foyer, owner, LIST, variables);
  expect(answer.body.errors).toBeUndefined();
  return (answer.body.data as { listUsers: { id: string }[] }).listUsers.map((user) => user.id);
}

/** Every page forward from the first, then every page back from the last; the ids in the order shown. */
async function walk(variables: Record<string, unknown>, limit: number) {
  const forward: Page[] = [await page({ ...variables, limit })];
  while (forward.at(-1)!.hasNextPage) forward.push(await page({ ...variables, limit, after: forward.at(-1)!.endCursor }));
  const backward: Page[] = [forward.at(-1)!];
  while (backward.at(-1)!.hasPreviousPage) backward.push(await page({ ...variables, limit, before: backward.at(-1)!.startCursor }));
  return { forward, backward: backward.reverse() };
}

const ids = (pages: Page[]) => pages.flatMap((one) => one.users.map((user) => user.id));

describe('paging by cursor', () => {
  for (const sortBy of ['NAME', 'EMAIL', 'STATUS', 'ROLE', 'CREATED_AT'] as const) {
    for (const sortDirection of ['ASC', 'DESC'] as const) {
      for (const search of [undefined, 'active ann']) {
        it(`by ${sortBy} ${sortDirection}${search ? `, searching "${search}"` : ''}: forward and back, every row once`, async () => {
          const variables = { sortBy, sortDirection, search };
          const expected = await offsetListing(variables);
          expect(expected.length).toBeGreaterThan(search ? 2 : 20);
          const { forward, backward } = await walk(variables, 3);
          expect(ids(forward)).toEqual(expected);
          // Back from the last page: the same pages as on the way forward.
          expect(backward.map((one) => one.users.map((user) => user.id))).toEqual(forward.map((one) => one.users.map((user) => user.id)));
          expect(forward[0]!.hasPreviousPage).toBe(false);
          expect(forward.slice(0, -1).every((one) => one.users.length === 3 && one.hasNextPage)).toBe(true);
        });
      }
    }
  }

  it('continues by cursor from a page at an offset, and answers an empty page past the end', async () => {
    const expected = await offsetListing({ sortBy: 'EMAIL' });
    const jumped = await page({ sortBy: 'EMAIL', offset: 6, limit: 4 });
    expect(jumped.users.map((user) => user.id)).toEqual(expected.slice(6, 10));
    expect(jumped.hasPreviousPage).toBe(true);
    const next = await page({ sortBy: 'EMAIL', after: jumped.endCursor, limit: 4 });
    expect(next.users.map((user) => user.id)).toEqual(expected.slice(10, 14));
    const back = await page({ sortBy: 'EMAIL', before: jumped.startCursor, limit: 4 });
    expect(back.users.map((user) => user.id)).toEqual(expected.slice(2, 6));
    expect(back.hasPreviousPage).toBe(true);
    const past = await page({ sortBy: 'EMAIL', offset: 500, limit: 4 });
    expect(past).toMatchObject({ users: [], startCursor: null, endCursor: null, hasNextPage: false });
  });

  it('answers the first full page when a page back would come out short', async () => {
    const expected = await offsetListing({ sortBy: 'NAME' });
    const second = await page({ sortBy: 'NAME', offset: 2, limit: 5 });
    const back = await page({ sortBy: 'NAME', before: second.startCursor, limit: 5 });
    expect(back.users.map((user) => user.id)).toEqual(expected.slice(0, 5));
    expect(back.hasPreviousPage).toBe(false);
  });
});

describe('cursors that are refused', () => {
  const refused = (answer: GraphQLAnswer, field: string, code: string) => {
    expect(answer.status).toBe(400);
    expect(errorCodes(answer)).toEqual(['BAD_USER_INPUT']);
    expect(answer.body.data ?? null).toBeNull();
    const extensions = answer.body.errors![0]!.extensions as { fieldIssues: Record<string, { code: string }[]> };
    expect(Object.keys(extensions.fieldIssues)).toEqual([field]);
    expect(extensions.fieldIssues[field]!.map((issue) => issue.code)).toEqual([code]);
  };

  it('a cursor altered in any way: its position, its signature, or made up', async () => {
    const first = await page({ sortBy: 'EMAIL', limit: 3 });
    const [payload, signature] = first.endCursor!.split('.') as [string, string];
    const fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
    fields[7] = 'some-other-id';
    const moved = `${Buffer.from(JSON.stringify(fields)).toString('base64url')}.${signature}`;
    const flipped = `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const cursor of [moved, flipped, payload, 'not-a-cursor', `${first.endCursor}.x`, 'x'.repeat(5000)]) {
      refused(await ask(foyer, owner, PAGE, { sortBy: 'EMAIL', limit: 3, after: cursor }), 'after', 'invalidCursor');
      refused(await ask(foyer, owner, PAGE, { sortBy: 'EMAIL', limit: 3, before: cursor }), 'before', 'invalidCursor');
    }
  });

  it("another workspace's cursor, in either direction, shows none of its rows", async () => {
    const theirs = await page({ sortBy: 'NAME', limit: 1 }, otherOwner);
    expect(theirs.users).toHaveLength(1);
    refused(await ask(foyer, owner, PAGE, { sortBy: 'NAME', limit: 3, after: theirs.endCursor }), 'after', 'invalidCursor');
    const ours = await page({ sortBy: 'NAME', limit: 3 });
    refused(await ask(foyer, otherOwner, PAGE, { sortBy: 'NAME', limit: 3, after: ours.endCursor }), 'after', 'invalidCursor');
    refused(await ask(foyer, otherOwner, PAGE, { sortBy: 'NAME', limit: 3, before: ours.endCursor }), 'before', 'invalidCursor');
  });

  it('a cursor of another sort, direction or search', async () => {
    const { endCursor } = await page({ sortBy: 'NAME', sortDirection: 'ASC', search: 'ann', limit: 1 });
    for (const variables of [
      { sortBy: 'EMAIL', sortDirection: 'ASC', search: 'ann' },
      { sortBy: 'NAME', sortDirection: 'DESC', search: 'ann' },
      { sortBy: 'NAME', sortDirection: 'ASC', search: 'bob' },
      { sortBy: 'NAME', sortDirection: 'ASC' },
    ]) {
      refused(await ask(foyer, owner, PAGE, { ...variables, limit: 3, after: endCursor }), 'after', 'invalidCursor');
    }
    // The same search in other letter case and spacing is the same list.
    expect((await page({ sortBy: 'NAME', search: '  ANN ', limit: 3, after: endCursor })).users.length).toBeGreaterThan(0);
  });

  it('both cursors at once, or a cursor with an offset', async () => {
    const { startCursor, endCursor } = await page({ limit: 3 });
    refused(await ask(foyer, owner, PAGE, { limit: 3, after: startCursor, before: endCursor }), 'before', 'oneCursor');
    refused(await ask(foyer, owner, PAGE, { limit: 3, after: endCursor, offset: 3 }), 'offset', 'offsetWithCursor');
  });
});

describe('while members come and go', () => {
  it('shows every row that stays exactly once, forward and back, with rows inserted and deleted between pages', async () => {
    const workspace = await createWorkspace(foyer, 'Busy');
    const boss = await addMember(foyer, workspace, { role: 'OWNER', firstName: 'Bea', lastName: 'Busy', email: 'bea@busy.test' });
    const staying: string[] = [boss.tenantUserId];
    const leaving: string[] = [];
    // Numbered across every walk: four random hex digits per newcomer once gave two of them one address.
    let newcomers = 0;
    for (let index = 0; index < 30; index += 1) {
      const member = await addMember(foyer, workspace, {
        role: index % 2 ? 'VIEWER' : 'MANAGER',
        firstName: `Name ${String(index % 10).padStart(2, '0')}`,
        email: `busy${index}@busy.test`,
        enabled: index % 3 !== 0,
      });
      (index % 4 === 1 ? leaving : staying).push(member.tenantUserId);
    }
    /** The pages walked from `first` onward (by after) or back (by before), a newcomer and a leaver between pages. */
    const walkWhileChanging = async (sortBy: string, sortDirection: string, direction: 'forward' | 'backward', first: Page) => {
      const pages: string[][] = [];
      let current = first;
      for (let round = 1; ; round += 1) {
        pages.push(current.users.map((user) => user.id));
        await addMember(foyer, workspace, {
          role: round % 2 ? 'VIEWER' : 'ADMIN',
          firstName: `Name ${String(round % 10).padStart(2, '0')}`,
          email: `new${(newcomers += 1)}@busy.test`,
          enabled: round % 2 === 0,
        });
        await foyer.db.delete(tenantUsers).where(eq(tenantUsers.id, leaving[round % leaving.length]!));
        const more = direction === 'forward' ? current.hasNextPage : current.hasPreviousPage;
        if (!more) return pages;
        current = await page(
          {
            sortBy,
            sortDirection,
            limit: 4,
            ...(direction === 'forward' ? { after: current.endCursor } : { before: current.startCursor }),
          },
          boss,
        );
      }
    };
    for (const [sortBy, sortDirection] of [
      ['NAME', 'ASC'],
      ['STATUS', 'DESC'],
      ['ROLE', 'ASC'],
      ['CREATED_AT', 'DESC'],
    ] as const) {
      const seen = (
        await walkWhileChanging(sortBy, sortDirection, 'forward', await page({ sortBy, sortDirection, limit: 4 }, boss))
      ).flat();
      expect(new Set(seen).size, `${sortBy} ${sortDirection}: no row twice`).toBe(seen.length);
      expect(seen.filter((id) => staying.includes(id)).sort(), `${sortBy} ${sortDirection}: every staying row`).toEqual(
        [...staying].sort(),
      );
    }
    // Back from the last page: every staying row once, except that a page back which would come out
    // short is answered by the full first page, which may show again rows of the page after it.
    const total = (await ask(foyer, boss, 'query { countUsers }')).body.data as { countUsers: number };
    const last = await page({ sortBy: 'EMAIL', sortDirection: 'DESC', limit: 4, offset: total.countUsers - 4 }, boss);
    expect(last.hasNextPage).toBe(false);
    const pages = await walkWhileChanging('EMAIL', 'DESC', 'backward', last);
    const beforeFirst = pages.slice(0, -1).flat();
    expect(new Set(beforeFirst).size).toBe(beforeFirst.length);
    expect(pages.at(-1)).toHaveLength(4);
    expect([...new Set(pages.flat())].filter((id) => staying.includes(id)).sort()).toEqual([...staying].sort());
  });
});
