// The users table's page cursors: a row's position in one sort and search of one workspace (its sort
// key, creation time and id), signed with a key derived from the operator's secret (config.secret).
// The client cannot make or alter one, and a cursor is accepted only for the workspace, sort and
// search it was made for; anything else is refused as bad input, never read as another position.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sealingKey } from '../../crypto/seal.ts';
import type { SortDirection, UserSortField } from '../generated/resolvers.ts';

const VERSION = 1;
const PURPOSE = 'users page cursor v1';

/** Where a page starts or ends: the row's sort key, creation time (ISO, microseconds) and id. */
export interface RowPosition {
  key: string | number;
  createdAt: string;
  id: string;
}

/** What a cursor belongs to: the workspace, the sort and the search words (lower case). */
export interface CursorScope {
  tenantId: string;
  sortBy: UserSortField;
  sortDirection: SortDirection;
  words: string[];
}

const keys = new Map<string, Buffer>();

function keyFor(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = sealingKey(secret, PURPOSE);
    keys.set(secret, key);
  }
  return key;
}

const scopeOf = (scope: CursorScope) => [scope.tenantId, scope.sortBy, scope.sortDirection, scope.words.join(' ').toLowerCase()];

function signature(secret: string, payload: string): Buffer {
  return createHmac('sha256', keyFor(secret)).update(payload).digest();
}

export function encodeCursor(secret: string, scope: CursorScope, position: RowPosition): string {
  const payload = Buffer.from(JSON.stringify([VERSION, ...scopeOf(scope), position.key, position.createdAt, position.id])).toString(
    'base64url',
  );
  return `${payload}.${signature(secret, payload).toString('base64url')}`;
}

/** The position `cursor` holds, or null when it is not one this server made for `scope`. */
export function decodeCursor(secret: string, scope: CursorScope, cursor: string): RowPosition | null {
  const [payload, signed, ...rest] = cursor.split('.');
  if (!payload || !signed || rest.length > 0) return null;
  const expected = signature(secret, payload);
  const given = Buffer.from(signed, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(fields) || fields.length !== 8 || fields[0] !== VERSION) return null;
  const wanted = scopeOf(scope);
  if (wanted.some((value, index) => fields[index + 1] !== value)) return null;
  const [key, createdAt, id] = fields.slice(5) as unknown[];
  if ((typeof key !== 'string' && typeof key !== 'number') || typeof createdAt !== 'string' || typeof id !== 'string') return null;
  return { key, createdAt, id };
}
