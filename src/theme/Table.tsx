// Table pieces: sortable column headers (aria-sort) and the pager (page size, previous/next, page jump).
import { useEffect, useId, useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { PAGE_SIZES, parsePageJump } from './table-paging.ts';

export type SortDirection = 'ASC' | 'DESC';

export interface SortableHeaderProps {
  label: string;
  active: boolean;
  direction: SortDirection;
  onSort(): void;
}

/** A column header whose button sorts by it; aria-sort tells which column sorts and how. */
export function SortableHeader({ label, active, direction, onSort }: SortableHeaderProps) {
  const sort = active ? (direction === 'ASC' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={sort}>
      <button type="button" className="foyer-sort" onClick={onSort}>
        {label}
        <span className="foyer-sort__icon" aria-hidden="true">
          {active ? (direction === 'ASC' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

export interface PaginationProps {
  pageIndex: number;
  pages: number;
  pageSize: number;
  total: number;
  onPageIndex(index: number): void;
  onPageSize(size: number): void;
  /**
   * Previous and next page, when the table pages by cursor (the users table): called instead of
   * onPageIndex, and enabled by hasPrevious and hasNext instead of the page count.
   */
  onStep?(step: -1 | 1): void;
  hasPrevious?: boolean;
  hasNext?: boolean;
}

export function Pagination({ pageIndex, pages, pageSize, total, onPageIndex, onPageSize, onStep, hasPrevious, hasNext }: PaginationProps) {
  const { t } = useTexts();
  const sizeId = useId();
  const jumpId = useId();
  const [jump, setJump] = useState(String(pageIndex + 1));
  useEffect(() => setJump(String(pageIndex + 1)), [pageIndex]);

  const step = (by: -1 | 1) => (onStep ? onStep(by) : onPageIndex(pageIndex + by));

  const commitJump = () => {
    const index = parsePageJump(jump, pages);
    if (index === null) setJump(String(pageIndex + 1));
    else if (index !== pageIndex) onPageIndex(index);
  };

  return (
    <nav className="foyer-pager" aria-label={t('table.pagination')}>
      <div className="foyer-pager__group">
        <label htmlFor={sizeId}>{t('table.pageSize')}</label>
        <select
          id={sizeId}
          className="foyer-select foyer-pager__size"
          value={pageSize}
          onChange={(event) => onPageSize(Number(event.target.value))}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <p className="foyer-pager__status" aria-live="polite">
        {t('table.pageOf', { page: pageIndex + 1, pages, total })}
      </p>
      <div className="foyer-pager__group">
        <button type="button" className="foyer-pager__button" disabled={!(hasPrevious ?? pageIndex > 0)} onClick={() => step(-1)}>
          {t('table.previous')}
        </button>
        <label htmlFor={jumpId}>{t('table.goToPage')}</label>
        <input
          id={jumpId}
          className="foyer-input foyer-pager__jump"
          inputMode="numeric"
          value={jump}
          onChange={(event) => setJump(event.target.value)}
          onBlur={commitJump}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              commitJump();
            }
          }}
        />
        <button type="button" className="foyer-pager__button" disabled={!(hasNext ?? pageIndex < pages - 1)} onClick={() => step(1)}>
          {t('table.next')}
        </button>
      </div>
    </nav>
  );
}
