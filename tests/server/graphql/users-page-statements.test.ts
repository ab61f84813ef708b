// What the runtime's users page (a page by cursor and the search's count, in one request) asks of
// the database: the caller's membership, the page and the count, three statements, whatever the size
// of the workspace; the page reads its memberships by primary key from an array of its ids (the plans:
// tests/server/graphql/users-list-plans.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestFoyer } from '../../../server/testing.ts';
import { startRecordedFoyer, type RecordedFoyer } from '../support/statements.ts';
import { addMember, ask, createWorkspace, type Member } from './users-workspace.ts';

let foyer: TestFoyer;
let statements: string[];
let recording: RecordedFoyer['recording'];
let owner: Member;

beforeAll(async () => {
  ({ foyer, statements, recording } = await startRecordedFoyer());
  const tenantId = await createWorkspace(foyer, 'Counted');
  owner = await addMember(foyer, tenantId, { role: 'OWNER', firstName: 'Olga', lastName: 'Owner', email: 'olga@counted.test' });
  for (let index = 0; index < 12; index += 1) {
    await addMember(foyer, tenantId, {
      role: 'VIEWER',
      firstName: 'Vera',
      lastName: `Viewer ${index}`,
      email: `vera${index}@counted.test`,
    });
  }
});
afterAll(() => foyer?.close());

const USERS_PAGE = `query ($search: String, $after: String) {
  usersPage(search: $search, sortBy: NAME, sortDirection: DESC, limit: 5, after: $after) { users { id fullName } endCursor }
  countUsers(search: $search)
}`;

describe('the users page', () => {
  it('is three statements: the membership, the page and the count', async () => {
    // The caller's token is made outside the recording.
    const first = await ask(foyer, owner, USERS_PAGE, { search: 'vera viewer' });
    const { endCursor } = (first.body.data as { usersPage: { endCursor: string } }).usersPage;
    const next = await recording(() => ask(foyer, owner, USERS_PAGE, { search: 'vera viewer', after: endCursor }));
    expect(next.body.errors).toBeUndefined();
    expect((next.body.data as { countUsers: number }).countUsers).toBe(12);
    expect(statements).toHaveLength(3);
    // The membership read is the token check's (server/auth/callers.ts); the other two are the users table's.
    expect(
      statements.filter((statement) =>
        / from "tenant_users" inner join "users" .* where "tenant_users"."id" = any\(array\(/.test(statement),
      ),
    ).toHaveLength(1);
    expect(statements.filter((statement) => /^select count\(\*\) from "tenant_users" where/.test(statement))).toHaveLength(1);
  });
});
