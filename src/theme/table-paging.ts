// Paging arithmetic of tables (docs/SPEC.md section 9): page sizes, page count, the page-jump rule.

export const PAGE_SIZES = [5, 10, 20, 30, 50, 100] as const;
/** A generic table's default page; the users table starts with 5 rows instead. */
export const DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_PAGE_INDEX = 0;

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The page-jump input: an integer from 1 to the page count gives that page's index, anything else null (revert). */
export function parsePageJump(text: string, pages: number): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const page = Number(trimmed);
  return page >= 1 && page <= pages ? page - 1 : null;
}

export function isPageSize(value: unknown): value is (typeof PAGE_SIZES)[number] {
  return (PAGE_SIZES as readonly unknown[]).includes(value);
}
