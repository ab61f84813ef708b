// The users table on the server: search, sort and paging in SQL, so a workspace of a hundred
// thousand members answers one page without loading the rest. Search matches what the table shows:
// every word of the search must occur, case-insensitively, in the name ('Invited user' when blank),
// the e-mail, the status (Active / Deactivated) or the role of a row. usersPage pages by cursor
// (keyset: the page after a row starts at that row's place in the sort's index, whatever its depth);
// listUsers keeps paging by offset for the clients that ask so.
import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { memberRoleRank, memberStatusKey, tenantUsers, users } from '../../db/schema.ts';
import type { MemberCaller } from '../../auth/caller-kinds.ts';
import type { QueryListUsersArgs, QueryUsersPageArgs, SortDirection, User, UserPage, UserSortField } from '../generated/resolvers.ts';
import { InputProblems } from '../input.ts';
import { memberColumns, toUser } from './service.ts';
import { keyedIssue, maxLengthIssue, minimumIssue, rangeIssue } from '../../http/field-issues.ts';
import { decodeCursor, encodeCursor, type CursorScope, type RowPosition } from './cursor.ts';

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

/** A page as the query asks it: from `offset`, or right after (or before) a row's place in the sort. */
export interface PageQuery extends ListUsersQuery {
  after: RowPosition | null;
  before: RowPosition | null;
}

// Creation times leave the database as text with their microseconds: a JavaScript Date keeps
// milliseconds only, and a cursor must name a row's exact place.
const createdAtText = sql<string>`to_char(${tenantUsers.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A cursor's sort key as the database compares it (creation time and role rank typed like their expressions). */
function keyParameter(sortBy: UserSortField, key: string | number): SQL {
  if (sortBy === 'CREATED_AT') return sql`${String(key)}::timestamptz`;
  if (sortBy === 'ROLE') return sql`${Number(key)}::int`;
  return sql`${String(key)}`;
}

/**
 * A page's row count, written into the statement rather than sent as a parameter. On the embedded
 * database every statement runs prepared (server/db/pglite-statements.ts), and PostgreSQL reuses one
 * plan for all parameters (its generic plan) only when that plan looks no costlier than planning
 * each call anew; it takes a LIMIT parameter for a tenth of the rows, so every page was planned
 * anew, which at 100,000 members took longer than reading it. A checked integer from 1 to
 * MAX_PAGE_SIZE + 1: a few statement texts.
 */
function rowCount(rows: number): SQL {
  if (!Number.isInteger(rows) || rows < 1 || rows > MAX_PAGE_SIZE + 1) throw new Error(`Not a page size: ${rows}`);
  return sql.raw(String(rows));
}

/**
 * The rows of one page (`rows` of them at most) with each row's sort key and creation time for its
 * cursor; a page before a cursor comes nearest-first (the caller turns it round). Its plans are
 * checked in tests/server/graphql/users-list-plans.test.ts.
 */
export function usersPageSelect(db: Database, tenantId: string, query: PageQuery, rows: number) {
  const backward = query.before !== null;
  const position = query.after ?? query.before;
  // Ties keep one order (who joined first, then the id), so pages neither repeat nor skip rows; a
  // page before a cursor reads the same order the other way round.
  const keyAscending = (query.sortDirection === 'ASC') !== backward;
  const keyOrder = keyAscending ? asc : desc;
  const tieOrder = backward ? desc : asc;
  const key = sortKeys[query.sortBy];
  const order = [keyOrder(key), tieOrder(tenantUsers.createdAt), tieOrder(tenantUsers.id)];
  const filter = memberFilter(tenantId, query.words);
  const ids = (where: SQL, orderBy: SQL[]) =>
    sql`select ${tenantUsers.id} from ${tenantUsers} where ${where} order by ${sql.join(orderBy, sql`, `)} limit ${rowCount(rows)}`;
  // The page's ids first, from the memberships alone (a range of one index); only those rows are
  // then joined to their identities.
  let page: SQL;
  if (!position) {
    page = query.offset > 0 ? sql`${ids(filter, order)} offset ${query.offset}` : ids(filter, order);
  } else {
    // The rows after a position in (key, created, id) order, whose directions differ for a
    // descending sort: the rest of the position's key (an equality and a row comparison on the
    // sort's index), then the keys beyond it (a range of the same index). Each branch stops after
    // `rows` rows, however deep the position lies.
    const value = keyParameter(query.sortBy, position.key);
    const createdAt = sql`${position.createdAt}::timestamptz`;
    const ties = backward
      ? sql`(${tenantUsers.createdAt}, ${tenantUsers.id}) < (${createdAt}, ${position.id})`
      : sql`(${tenantUsers.createdAt}, ${tenantUsers.id}) > (${createdAt}, ${position.id})`;
    const sameKey = ids(and(filter, sql`${key} = ${value}`, ties)!, [tieOrder(tenantUsers.createdAt), tieOrder(tenantUsers.id)]);
    const laterKeys = ids(and(filter, keyAscending ? sql`${key} > ${value}` : sql`${key} < ${value}`)!, order);
    page = sql`(${sameKey}) union all (${laterKeys})`;
  }
  // An array of the page's ids, so the memberships are read by their primary key alone: as a
  // subquery joined by IN, the planner hashed every membership of a smaller workspace to find them.
  return db
    .select({ ...memberColumns, sortKey: sql<string | number>`${query.sortBy === 'CREATED_AT' ? createdAtText : key}`, createdAtText })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(sql`${tenantUsers.id} = any(array(${page}))`)
    .orderBy(...order)
    .limit(rows);
}

/** One page of members at an offset as a query (the management API's and listUsers' paging). */
export function listUsersSelect(db: Database, tenantId: string, query: ListUsersQuery) {
  return usersPageSelect(db, tenantId, { ...query, after: null, before: null }, query.limit);
}

const MAX_CURSOR_LENGTH = 1_000;

/** usersPage's arguments checked (400 naming each bad one; a cursor of another workspace, sort or search is bad) and defaulted. */
export function checkPageArguments(args: Partial<QueryUsersPageArgs>, secret: string, tenantId: string): PageQuery {
  const { after: afterText, before: beforeText, offset: offsetArgument, ...listArgs } = args;
  const query = checkListArguments({ ...listArgs, offset: offsetArgument });
  const problems = new InputProblems();
  const scope: CursorScope = { tenantId, sortBy: query.sortBy, sortDirection: query.sortDirection, words: query.words };
  const read = (field: string, cursor: string | null | undefined): RowPosition | null => {
    if (cursor == null) return null;
    const position = cursor.length <= MAX_CURSOR_LENGTH ? decodeCursor(secret, scope, cursor) : null;
    if (!position)
      problems.add(
        field,
        keyedIssue('invalidCursor', 'Not a cursor of this list (its workspace, sort and search); start from the first page'),
      );
    return position;
  };
  const after = read('after', afterText);
  const before = read('before', beforeText);
  if (afterText != null && beforeText != null) problems.add('before', keyedIssue('oneCursor', 'Give after or before, not both'));
  if ((afterText != null || beforeText != null) && offsetArgument != null) {
    problems.add('offset', keyedIssue('offsetWithCursor', 'An offset cannot be combined with a cursor'));
  }
  problems.throwIfAny();
  return { ...query, after, before };
}

/**
 * A page of members by cursor. A page before a cursor that comes out short (rows deleted meanwhile,
 * or the cursor near the start) is answered by the first page, so going back always ends on a full first page.
 */
export async function usersPage(db: Database, secret: string, member: MemberCaller, args: Partial<QueryUsersPageArgs>): Promise<UserPage> {
  const query = checkPageArguments(args, secret, member.tenantId);
  let rows = await usersPageSelect(db, member.tenantId, query, query.limit + 1);
  const backward = query.before !== null;
  let more = rows.length > query.limit;
  rows = rows.slice(0, query.limit);
  let hasPreviousPage: boolean;
  let hasNextPage: boolean;
  if (backward && rows.length < query.limit) {
    rows = await usersPageSelect(db, member.tenantId, { ...query, before: null, offset: 0 }, query.limit + 1);
    more = rows.length > query.limit;
    rows = rows.slice(0, query.limit);
    [hasPreviousPage, hasNextPage] = [false, more];
  } else if (backward) {
    rows.reverse();
    [hasPreviousPage, hasNextPage] = [more, true];
  } else {
    [hasPreviousPage, hasNextPage] = [query.after !== null || query.offset > 0, more];
  }
  const scope: CursorScope = { tenantId: member.tenantId, sortBy: query.sortBy, sortDirection: query.sortDirection, words: query.words };
  const cursorOf = (row: (typeof rows)[number]) =>
    encodeCursor(secret, scope, { key: row.sortKey, createdAt: row.createdAtText, id: row.id });
  return {
    users: rows.map((row) => toUser(member.app, row)),
    startCursor: rows.length > 0 ? cursorOf(rows[0]!) : null,
    endCursor: rows.length > 0 ? cursorOf(rows.at(-1)!) : null,
    hasPreviousPage,
    hasNextPage,
  };
}

export async function listUsers(db: Database, member: MemberCaller, args: Partial<QueryListUsersArgs>): Promise<User[]> {
  const rows = await listUsersSelect(db, member.tenantId, checkListArguments(args));
  return rows.map((row) => toUser(member.app, row));
}

/** The count of the members of `tenantId` matching every word, as a query (its plans: tests/server/graphql/users-list-plans.test.ts). */
export function countUsersSelect(db: Database, tenantId: string, words: string[]) {
  return db.select({ total: count() }).from(tenantUsers).where(memberFilter(tenantId, words));
}

export async function countUsers(db: Database, member: MemberCaller, search: string | null | undefined): Promise<number> {
  const problems = new InputProblems();
  const words = checkSearch(problems, search);
  problems.throwIfAny();
  const [row] = await countUsersSelect(db, member.tenantId, words);
  return row?.total ?? 0;
}
