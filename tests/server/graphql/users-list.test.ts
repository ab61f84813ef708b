// The users table on the server: search over the shown texts (every word must match), sorting by
// each column both ways with a stable tiebreak, paging, and the count that goes with it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantUsers, users } from '../../../server/db/schema.ts';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { errorCodes } from '../support/graphql.ts';
import { findMembership, type Membership } from '../support/tokens.ts';
import { addMember, ask, createWorkspace, type Member, type MemberSpec } from './users-workspace.ts';

let foyer: TestFoyer;
let owner: Member;
let viewer: Member;
let members: (MemberSpec & { id: string })[];
let acmeOwner: Membership;

const BASE = Date.parse('2026-01-01T00:00:00Z');
const minute = (n: number) => new Date(BASE + n * 60_000);

// Two rows share a creation time, so the id decides between them.
const SPECS: MemberSpec[] = [
  { role: 'OWNER', firstName: 'Ann', lastName: 'Archer', email: 'ann.archer@list.test', createdAt: minute(0) },
  { role: 'ADMIN', firstName: 'bob', lastName: 'Baker', email: 'bob_b@list.test', createdAt: minute(1) },
  { role: 'MANAGER', firstName: 'Carla', lastName: 'Ann', email: 'carla@list.test', enabled: false, createdAt: minute(2) },
  { role: 'VIEWER', email: 'zed@list.test', createdAt: minute(3) },
  { role: 'VIEWER', firstName: 'Dan', email: 'Dan@List.test', enabled: false, createdAt: minute(4) },
  { role: 'MANAGER', firstName: 'anna', lastName: 'Zimmer', email: 'anna.z@list.test', createdAt: minute(5) },
  { role: 'OWNER', firstName: 'Eve', lastName: 'Owner', email: 'eve@list.test', createdAt: minute(5) },
  { role: 'VIEWER', firstName: '  ', lastName: '', email: 'blank@list.test', createdAt: minute(6) },
  { role: 'VIEWER', firstName: 'Vic', lastName: 'Viewer', email: 'vic@list.test', createdAt: minute(7) },
];

beforeAll(async () => {
  foyer = await startFoyer();
  const tenantId = await createWorkspace(foyer, 'Listing');
  members = [];
  for (const spec of SPECS) {
    const member = await addMember(foyer, tenantId, spec);
    members.push({ ...spec, id: member.tenantUserId });
    if (spec.email === 'ann.archer@list.test') owner = member;
    if (spec.email === 'vic@list.test') viewer = member;
  }
  acmeOwner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
});
afterAll(() => foyer?.close());

const LIST = `query ($search: String, $sortBy: UserSortField, $sortDirection: SortDirection, $offset: Int, $limit: Int) {
  listUsers(search: $search, sortBy: $sortBy, sortDirection: $sortDirection, offset: $offset, limit: $limit) { id email fullName role enabled }
  countUsers(search: $search)
}`;

async function list(variables: Record<string, unknown>, as: Membership = owner) {
  const answer = await ask(foyer, as, LIST, variables);
  expect(answer.body.errors).toBeUndefined();
  const data = answer.body.data as { listUsers: { id: string; email: string; fullName: string | null }[]; countUsers: number };
  return { emails: data.listUsers.map((user) => user.email), count: data.countUsers, users: data.listUsers };
}

// What the table shows, written out here on their own so the server's SQL is checked against them.
const shownName = (spec: MemberSpec) => [spec.firstName?.trim(), spec.lastName?.trim()].filter(Boolean).join(' ') || 'Invited user';
const shownStatus = (spec: MemberSpec) => (spec.enabled === false ? 'Deactivated' : 'Active');
const RANK = { OWNER: 0, ADMIN: 1, MANAGER: 2, VIEWER: 3 };
const keys = {
  NAME: (spec: MemberSpec) => shownName(spec).toLowerCase(),
  EMAIL: (spec: MemberSpec) => spec.email!.toLowerCase(),
  STATUS: shownStatus,
  ROLE: (spec: MemberSpec) => RANK[spec.role],
  CREATED_AT: (spec: MemberSpec) => spec.createdAt!.getTime(),
};

function expectedOrder(sortBy: keyof typeof keys, direction: 'ASC' | 'DESC'): string[] {
  const key = keys[sortBy];
  const sign = direction === 'ASC' ? 1 : -1;
  return [...members]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return (x < y ? -1 : 1) * sign;
      if (a.createdAt!.getTime() !== b.createdAt!.getTime()) return a.createdAt!.getTime() - b.createdAt!.getTime();
      return a.id < b.id ? -1 : 1;
    })
    .map((spec) => spec.email!);
}

describe('search', () => {
  it('answers every member without a search, oldest first, with the shown name', async () => {
    const { users, count } = await list({});
    expect(count).toBe(SPECS.length);
    expect(users.map((user) => user.email)).toEqual(expectedOrder('CREATED_AT', 'ASC'));
    expect(users.find((user) => user.email === 'blank@list.test')).toMatchObject({ fullName: null, role: 'VIEWER', enabled: true });
  });

  it.each([
    ['one word over names and e-mails, any case', 'ANN', ['ann.archer@list.test', 'carla@list.test', 'anna.z@list.test']],
    ['every word must match some column', 'ann active', ['ann.archer@list.test', 'anna.z@list.test']],
    ['a status word', 'deactivated', ['carla@list.test', 'Dan@List.test']],
    ['a role word against the role names', 'owner', ['ann.archer@list.test', 'eve@list.test']],
    ['the name shown for a blank one', 'invited USER', ['zed@list.test', 'blank@list.test']],
    ['words in any order, spread over columns', '  viewer   active   list.test ', ['zed@list.test', 'blank@list.test', 'vic@list.test']],
    ['a word that matches nothing', 'ann nobody', []],
  ])('%s', async (_what, search, expected) => {
    const { emails, count } = await list({ search });
    expect(emails).toEqual(expected);
    expect(count).toBe(expected.length);
  });

  it('treats % and _ as plain characters', async () => {
    expect(await list({ search: '%' })).toMatchObject({ emails: [], count: 0 });
    expect(await list({ search: 'b_b' })).toMatchObject({ emails: ['bob_b@list.test'], count: 1 });
    expect(await list({ search: 'a_n' })).toMatchObject({ emails: [], count: 0 });
  });
});

describe('sorting', () => {
  for (const sortBy of ['NAME', 'EMAIL', 'STATUS', 'ROLE', 'CREATED_AT'] as const) {
    for (const sortDirection of ['ASC', 'DESC'] as const) {
      it(`by ${sortBy} ${sortDirection}`, async () => {
        const { emails } = await list({ sortBy, sortDirection });
        expect(emails).toEqual(expectedOrder(sortBy, sortDirection));
      });
    }
  }

  it('sorts a search result', async () => {
    const { emails } = await list({ search: 'active', sortBy: 'NAME', sortDirection: 'DESC' });
    expect(emails).toEqual(expectedOrder('NAME', 'DESC').filter((email) => !['carla@list.test', 'Dan@List.test'].includes(email)));
  });
});

describe('paging', () => {
  it('pages through a sorted list without repeating or skipping a row, with the total beside', async () => {
    const pages: string[] = [];
    for (let offset = 0; offset < SPECS.length; offset += 4) {
      const page = await list({ sortBy: 'ROLE', sortDirection: 'DESC', offset, limit: 4 });
      expect(page.count).toBe(SPECS.length);
      expect(page.emails.length).toBe(Math.min(4, SPECS.length - offset));
      pages.push(...page.emails);
    }
    expect(pages).toEqual(expectedOrder('ROLE', 'DESC'));
    expect((await list({ offset: 100, limit: 5 })).emails).toEqual([]);
  });

  it('pages a search result', async () => {
    const first = await list({ search: 'viewer', sortBy: 'EMAIL', limit: 2 });
    const second = await list({ search: 'viewer', sortBy: 'EMAIL', offset: 2, limit: 2 });
    expect(first.count).toBe(4);
    expect([...first.emails, ...second.emails]).toEqual(['blank@list.test', 'Dan@List.test', 'vic@list.test', 'zed@list.test']);
  });

  it.each([
    [{ limit: 101 }, 'limit'],
    [{ limit: 0 }, 'limit'],
    [{ offset: -1 }, 'offset'],
    [{ search: 'x'.repeat(201) }, 'search'],
  ])('refuses %o with 400 naming the argument', async (variables, field) => {
    const answer = await ask(foyer, owner, LIST, variables);
    expect(answer.status).toBe(400);
    expect(errorCodes(answer)).toEqual(['BAD_USER_INPUT']);
    expect(Object.keys((answer.body.errors![0]!.extensions as { fields: object }).fields)).toEqual([field]);
  });
});

describe('who sees whom', () => {
  it('a viewer reads the same list', async () => {
    expect((await list({ sortBy: 'EMAIL' }, viewer)).emails).toEqual(expectedOrder('EMAIL', 'ASC'));
  });

  it("another workspace's members never appear, whatever the search", async () => {
    const acme = await list({ search: 'list.test' }, acmeOwner);
    expect(acme).toMatchObject({ emails: [], count: 0 });
    const all = await list({}, acmeOwner);
    expect(all.emails).toEqual(expect.arrayContaining(['owner@demo.foyer.test', 'admin@acme.demo.foyer.test']));
    expect(all.emails).toHaveLength(all.count);
    expect(all.emails.some((email) => email.endsWith('@list.test'))).toBe(false);
  });
});

describe('after changes', () => {
  // Its own workspace, so the lists above keep their members as they were.
  it('searches and sorts by what the table shows now: renamed, re-addressed, deactivated, accepted', async () => {
    const tenantId = await createWorkspace(foyer, 'Changing');
    const boss = await addMember(foyer, tenantId, {
      role: 'OWNER',
      firstName: 'Olga',
      lastName: 'Oak',
      email: 'olga@change.test',
      createdAt: minute(0),
    });
    const nils = await addMember(foyer, tenantId, {
      role: 'VIEWER',
      firstName: 'Nils',
      lastName: 'North',
      email: 'nils@change.test',
      createdAt: minute(1),
    });
    const invited = await addMember(foyer, tenantId, {
      role: 'VIEWER',
      firstName: 'Ines',
      lastName: 'Ivy',
      email: 'ines@change.test',
      createdAt: minute(2),
    });
    await foyer.db.update(tenantUsers).set({ invitationPending: true }).where(eq(tenantUsers.id, invited.tenantUserId));
    const names = async (search?: string) => (await list({ search, sortBy: 'NAME' }, boss)).users.map((user) => user.fullName);
    expect(await names()).toEqual([null, 'Nils North', 'Olga Oak']);
    expect((await list({ search: 'ines' }, boss)).emails).toEqual(['ines@change.test']);
    expect((await list({ search: 'ivy' }, boss)).count).toBe(0);

    const renamed = await ask(foyer, nils, 'mutation { updateMe(user: { firstName: "Albert", lastName: "Ash" }) { fullName } }');
    expect(renamed.body.errors).toBeUndefined();
    expect(await names()).toEqual(['Albert Ash', null, 'Olga Oak']);
    expect(await names('north')).toEqual([]);
    expect(await names('albert ash')).toEqual(['Albert Ash']);

    await foyer.db.update(users).set({ email: 'zara@change.test' }).where(eq(users.id, boss.userId));
    expect((await list({ sortBy: 'EMAIL', sortDirection: 'DESC' }, boss)).emails).toEqual([
      'zara@change.test',
      'nils@change.test',
      'ines@change.test',
    ]);
    expect((await list({ search: 'olga@' }, boss)).count).toBe(0);

    const deactivated = await ask(foyer, boss, 'mutation ($user: UserInput!) { updateUser(user: $user) { enabled } }', {
      user: { id: nils.tenantUserId, enabled: false, role: 'MANAGER' },
    });
    expect(deactivated.body.errors).toBeUndefined();
    expect((await list({ search: 'deactivated manager' }, boss)).emails).toEqual(['nils@change.test']);

    await foyer.db.update(tenantUsers).set({ invitationPending: false }).where(eq(tenantUsers.id, invited.tenantUserId));
    expect(await names('ivy')).toEqual(['Ines Ivy']);
    expect(await names('invited')).toEqual([]);
  });
});
