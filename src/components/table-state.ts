// A table's sorting and pagination, kept per table id in localStorage under NB_TABLE_<id> (docs/SPEC.md
// section 3), so a reload shows the same page in the same order. Unreadable stored values fall back
// to the defaults field by field.
import { useCallback, useState } from 'react';
import { STORAGE_PREFIX } from '../config.ts';
import { DEFAULT_PAGE_INDEX, DEFAULT_PAGE_SIZE, isPageSize } from '../theme/table-paging.ts';

export type SortDirection = 'ASC' | 'DESC';

export interface TableState<TSort extends string> {
  sortBy: TSort;
  sortDirection: SortDirection;
  pageIndex: number;
  pageSize: number;
}

export function tableStorageKey(tableId: string): string {
  return `${STORAGE_PREFIX}TABLE_${tableId}`;
}

export function defaultTableState<TSort extends string>(sortBy: TSort, pageSize = DEFAULT_PAGE_SIZE): TableState<TSort> {
  return { sortBy, sortDirection: 'ASC', pageIndex: DEFAULT_PAGE_INDEX, pageSize };
}

export function readTableState<TSort extends string>(
  storage: Storage | undefined,
  tableId: string,
  defaults: TableState<TSort>,
  sortFields: readonly TSort[],
): TableState<TSort> {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(tableStorageKey(tableId)) ?? '{}');
    if (typeof parsed === 'object' && parsed !== null) stored = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the defaults serve.
  }
  return {
    sortBy: sortFields.includes(stored.sortBy as TSort) ? (stored.sortBy as TSort) : defaults.sortBy,
    sortDirection: stored.sortDirection === 'ASC' || stored.sortDirection === 'DESC' ? stored.sortDirection : defaults.sortDirection,
    pageIndex: Number.isInteger(stored.pageIndex) && (stored.pageIndex as number) >= 0 ? (stored.pageIndex as number) : defaults.pageIndex,
    pageSize: isPageSize(stored.pageSize) ? stored.pageSize : defaults.pageSize,
  };
}

export function useTableState<TSort extends string>(tableId: string, defaults: TableState<TSort>, sortFields: readonly TSort[]) {
  const [state, setState] = useState(() => readTableState(globalThis.localStorage, tableId, defaults, sortFields));
  const update = useCallback(
    (patch: Partial<TableState<TSort>>) => {
      setState((current) => {
        const next = { ...current, ...patch };
        globalThis.localStorage?.setItem(tableStorageKey(tableId), JSON.stringify(next));
        return next;
      });
    },
    [tableId],
  );
  return [state, update] as const;
}
