// The users table on the server: search, sort and paging in SQL, so a workspace of ten thousand
// members answers one page without loading the rest. Search matches what the table shows: every
// word of the search must occur, case-insensitively, in the name ('Invited user' when blank), the
// e-mail, the status (Active / Deactivated) or the role of a row.
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { memberRoleRank, memberStatusKey, tenantUsers, users } from '../../db/schema.ts';
import type { MemberCaller } from '../../auth/caller-kinds.ts';
import type { QueryListUsersArgs, SortDirection, User, UserSortField } from '../generated/resolvers.ts';
import { InputProblems } from '../input.ts';
import { memberColumns, toUser } from './service.ts';
import { maxLengthIssue, minimumIssue, rangeIssue } from '../../http/field-issues.ts';

export const MAX_PAGE_SIZE = 100;
export const MAX_SEARCH_LENGTH = 200;

// The shown texts (name or 'Invited user', e-mail, Active/Deactivated, role) are kept on each
// membership by triggers (server/db/migrations/0011_users_table_indexes.sql): search_text holds them
// in lower case a line each, so a search word (no whitespace) matches within one of them, on a trigram
// index, with LIKE on lower() of both sides: what ILIKE does, without lower-casing every row at every
// search. The name and e-mail sort on their lower-case copies, status and role on expressions of the
// membership (server/db/schema.ts), each on an index with the tie-breakers.
//
// Texts compare byte-wise on their lower case ("C"), so every database (PGlite, any server locale)
// and every instance pages in exactly the same order.
const sortKeys: Record<UserSortField, SQL> = {
  NAME: sql`${tenantUsers.nameKey} collate "C"`,
  EMAIL: sql`${tenantUsers.emailKey} collate "C"`,
  STATUS: memberStatusKey(tenantUsers.enabled),
  ROLE: memberRoleRank(tenantUsers.role),
  CREATED_AT: sql`${tenantUsers.createdAt}`,
};

/** `%`, `_` and the escape character itself match literally. */
function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function checkSearch(problems: InputProblems, search: string | null | undefined): string[] {
  const text = search ?? '';
  if (text.length > MAX_SEARCH_LENGTH) problems.add('search', maxLengthIssue(MAX_SEARCH_LENGTH));
  return text.split(/\s+/).filter(Boolean);
}

/** Members of `tenantId` matching every word. */
function memberFilter(tenantId: string, words: string[]): SQL {
  const matches = words.map((word) => sql`${tenantUsers.searchText} like lower(${likePattern(word)})`);
  return and(eq(tenantUsers.tenantId, tenantId), ...matches)!;
}

interface ListUsersQuery {
  words: string[];
  sortBy: UserSortField;
  sortDirection: SortDirection;
  offset: number;
  limit: number;
}

/** The arguments checked (400 with a message per argument) and defaulted: oldest members first, one full page. */
export function checkListArguments(args: Partial<QueryListUsersArgs>): ListUsersQuery {
  const problems = new InputProblems();
  const words = checkSearch(problems, args.search);
  const offset = args.offset ?? 0;
  const limit = args.limit ?? MAX_PAGE_SIZE;
  if (offset < 0) problems.add('offset', minimumIssue(0));
  if (limit < 1 || limit > MAX_PAGE_SIZE) problems.add('limit', rangeIssue(1, MAX_PAGE_SIZE));
  problems.throwIfAny();
  return { words, sortBy: args.sortBy ?? 'CREATED_AT', sortDirection: args.sortDirection ?? 'ASC', offset, limit };
}

/** One page of members as a query (its plan is checked in tests/server/graphql/users-list-plans.test.ts). */
export function listUsersSelect(db: Database, tenantId: string, query: ListUsersQuery) {
  const direction = query.sortDirection === 'DESC' ? desc : asc;
  // Ties keep one order (who joined first, then the id), so pages neither repeat nor skip rows.
  const order = [direction(sortKeys[query.sortBy]), asc(tenantUsers.createdAt), asc(tenantUsers.id)];
  // The page's ids first, from the memberships alone (a range of one index when the offset is
  // skipped); only those rows are then joined to their identities.
  const page = db
    .select({ id: tenantUsers.id })
    .from(tenantUsers)
    .where(memberFilter(tenantId, query.words))
    .orderBy(...order)
    .limit(query.limit)
    .offset(query.offset);
  return db
    .select(memberColumns)
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(inArray(tenantUsers.id, page))
    .orderBy(...order);
}

export async function listUsers(db: Database, member: MemberCaller, args: Partial<QueryListUsersArgs>): Promise<User[]> {
  const rows = await listUsersSelect(db, member.tenantId, checkListArguments(args));
  return rows.map((row) => toUser(member.app, row));
}

export async function countUsers(db: Database, member: MemberCaller, search: string | null | undefined): Promise<number> {
  const problems = new InputProblems();
  const words = checkSearch(problems, search);
  problems.throwIfAny();
  const [row] = await db.select({ total: count() }).from(tenantUsers).where(memberFilter(member.tenantId, words));
  return row?.total ?? 0;
}
