// Immutable edits of the config document by path, and the JSON pointers the server names refused
// values by. An empty value removes the key (and objects left empty), so "use Foyer's default" is
// simply an absent key.

export type PathSegment = string | number;
type Container = Record<string, unknown> | unknown[];

/** '/branding/colors/primary' for ['branding', 'colors', 'primary'] (RFC 6901 escaping). */
export function pointer(...segments: PathSegment[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === '';
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

function withKey(container: Container | undefined, key: PathSegment, value: unknown): Container {
  if (Array.isArray(container) || (container === undefined && typeof key === 'number')) {
    const copy = [...((container as unknown[] | undefined) ?? [])];
    copy[key as number] = value;
    return copy;
  }
  const copy: Record<string, unknown> = { ...(container as Record<string, unknown> | undefined) };
  if (isEmptyValue(value) || isEmptyObject(value)) delete copy[String(key)];
  else copy[String(key)] = value;
  return copy;
}

/** A copy of `root` with `value` at `path`; '' or undefined removes the key and prunes emptied objects. */
export function setIn<T>(root: T, path: PathSegment[], value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path;
  const container = root as unknown as Container | undefined;
  const current = container === undefined ? undefined : (container as Record<string, unknown>)[String(head!)];
  const next = rest.length === 0 ? value : setIn(current, rest, value);
  return withKey(container, head!, next) as unknown as T;
}

export function getIn(root: unknown, path: PathSegment[]): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[String(segment)];
  }
  return current;
}
