// Table paging arithmetic, the page-jump rule, and table state kept per table id under NB_TABLE_<id>.
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultTableState, readTableState, tableStorageKey } from '../../../src/components/table-state.ts';
import { DEFAULT_PAGE_INDEX, DEFAULT_PAGE_SIZE, PAGE_SIZES, pageCount, parsePageJump } from '../../../src/theme/table-paging.ts';

const FIELDS = ['NAME', 'EMAIL', 'CREATED_AT'] as const;

describe('paging', () => {
  it('offers the SPEC page sizes, a generic default of 10 rows from index 0', () => {
    expect(PAGE_SIZES).toEqual([5, 10, 20, 30, 50, 100]);
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(DEFAULT_PAGE_INDEX).toBe(0);
    expect(pageCount(0, 5)).toBe(1);
    expect(pageCount(62, 5)).toBe(13);
    expect(pageCount(60, 20)).toBe(3);
  });

  it('accepts an integer from 1 to the page count for the page jump, nothing else', () => {
    expect(parsePageJump('1', 4)).toBe(0);
    expect(parsePageJump(' 4 ', 4)).toBe(3);
    for (const wrong of ['0', '5', '-1', '2.5', '1e1', 'two', '']) expect(parsePageJump(wrong, 4)).toBeNull();
  });
});

describe('table state', () => {
  beforeEach(() => localStorage.clear());

  it('is stored per table id with the NB_ prefix', () => {
    expect(tableStorageKey('users')).toBe('NB_TABLE_users');
  });

  it('reads what was stored, and falls back field by field for anything unusable', () => {
    const defaults = defaultTableState<(typeof FIELDS)[number]>('CREATED_AT', 5);
    expect(readTableState(localStorage, 'users', defaults, FIELDS)).toEqual({
      sortBy: 'CREATED_AT',
      sortDirection: 'ASC',
      pageIndex: 0,
      pageSize: 5,
    });
    localStorage.setItem('NB_TABLE_users', JSON.stringify({ sortBy: 'EMAIL', sortDirection: 'DESC', pageIndex: 2, pageSize: 20 }));
    expect(readTableState(localStorage, 'users', defaults, FIELDS)).toEqual({
      sortBy: 'EMAIL',
      sortDirection: 'DESC',
      pageIndex: 2,
      pageSize: 20,
    });
    expect(readTableState(localStorage, 'other', defaults, FIELDS)).toEqual(defaults);
    localStorage.setItem('NB_TABLE_users', JSON.stringify({ sortBy: 'PASSWORD', sortDirection: 'UP', pageIndex: -1, pageSize: 7 }));
    expect(readTableState(localStorage, 'users', defaults, FIELDS)).toEqual(defaults);
    localStorage.setItem('NB_TABLE_users', '{not json');
    expect(readTableState(localStorage, 'users', defaults, FIELDS)).toEqual(defaults);
  });
});
