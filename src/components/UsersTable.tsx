// The users table (docs/SPEC.md sections 2, 4, 6): server-side search, sort and paging through ListUsers,
// sorting and pagination kept per table id, rows that switch to edit mode, and confirmed row actions.
// Readers without USER_WRITE (viewers) get the same table without any action. Previous and next page
// go by cursor (the rows before or after the shown page's first or last row, however deep); a page
// jump, a reload or a new sort, size or search asks for the page at its offset.
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { useGraphQL, useGraphQLMutation } from '../api/react.tsx';
import { grantableRoles, mayManage } from '../../common/roles.ts';
import { useHasPrivilege } from '../access/useAccess.ts';
import { useAuthChanges } from '../runtime/context.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import {
  DeleteUserDocument,
  ResendInvitationDocument,
  ListUserRolesDocument,
  ListUsersDocument,
  SendPasswordResetLinkDocument,
  type UserSortField,
} from '../gql/graphql.ts';
import { Alert } from '../theme/Alert.tsx';
import { ConfirmDialog } from '../theme/Dialog.tsx';
import { Pagination, SortableHeader } from '../theme/Table.tsx';
import { isPageSize, pageCount } from '../theme/table-paging.ts';
import { defaultTableState, useTableState } from './table-state.ts';
import { memberErrorKey } from './users/errors.ts';
import { addressedName, type ListedUser } from './users/names.ts';
import { UserRow, type RowAction } from './users/UserRow.tsx';

const SORT_FIELDS: readonly UserSortField[] = ['NAME', 'EMAIL', 'STATUS', 'ROLE', 'CREATED_AT'];
const SEARCH_DELAY_MS = 300;
export const USERS_TABLE_PAGE_SIZE = 5;

const COLUMNS: { field: UserSortField; label: string }[] = [
  { field: 'NAME', label: 'users.columns.name' },
  { field: 'EMAIL', label: 'users.columns.email' },
  { field: 'STATUS', label: 'users.columns.status' },
  { field: 'ROLE', label: 'users.columns.role' },
];

function useDebounced(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** The confirmation each row action asks for. */
const CONFIRMATIONS: Record<RowAction, { title: string; message: string; confirm: string }> = {
  reset: { title: 'users.resetTitle', message: 'users.resetConfirm', confirm: 'users.sendLink' },
  delete: { title: 'users.deleteTitle', message: 'users.deleteConfirm', confirm: 'actions.delete' },
  revoke: { title: 'users.revokeTitle', message: 'users.revokeConfirm', confirm: 'users.revoke' },
};

interface PendingAction {
  action: RowAction;
  user: ListedUser;
}

export default function UsersTable({ props }: FlowComponentProps) {
  const { t } = useTexts();
  const auth = useAuthChanges();
  const queryClient = useQueryClient();
  const me = auth.currentUser();
  const canWrite = useHasPrivilege('USER_WRITE');
  const tableId = typeof props.tableId === 'string' && props.tableId ? props.tableId : 'users';
  const initialPageSize = isPageSize(props.pageSize) ? props.pageSize : USERS_TABLE_PAGE_SIZE;
  const [table, setTable] = useTableState(tableId, defaultTableState<UserSortField>('CREATED_AT', initialPageSize), SORT_FIELDS);
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), SEARCH_DELAY_MS);
  const searchId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const firstSearch = useRef(true);
  // The cursor the shown page was reached by (previous or next page); null: the page at its offset.
  const [cursor, setCursor] = useState<{ after: string } | { before: string } | null>(null);
  const changeTable = (patch: Parameters<typeof setTable>[0]) => {
    setCursor(null);
    setTable(patch);
  };
  useEffect(() => {
    // A new search starts at its first page; the stored page survives the first render (a reload).
    if (firstSearch.current) {
      firstSearch.current = false;
      return;
    }
    setCursor(null);
    setTable({ pageIndex: 0 });
  }, [search, setTable]);

  const list = useGraphQL(
    ListUsersDocument,
    {
      search: search || undefined,
      sortBy: table.sortBy,
      sortDirection: table.sortDirection,
      limit: table.pageSize,
      ...(cursor ?? { offset: table.pageIndex * table.pageSize }),
    },
    { placeholderData: keepPreviousData },
  );
  const page = list.data?.usersPage;
  // Fetched once for the whole table, never per row.
  const roles = useGraphQL(ListUserRolesDocument, undefined, { enabled: canWrite, staleTime: Infinity });
  const offeredRoles = grantableRoles(me.role, roles.data?.listUserRoles ?? []);

  const total = list.data?.countUsers ?? 0;
  const pages = pageCount(total, table.pageSize);
  useEffect(() => {
    if (!page || list.isPlaceholderData) return;
    // Fewer rows than before (a search, a deletion): stay on the last page that exists.
    if (table.pageIndex > pages - 1) {
      setCursor(null);
      setTable({ pageIndex: pages - 1 });
    } else if (cursor && page.users.length === 0) {
      // Every row past the cursor went meanwhile: the page at the offset instead.
      setCursor(null);
    } else if (!page.hasPreviousPage && table.pageIndex > 0) {
      // Going back reached the start sooner (members removed meanwhile): this is the first page.
      setTable({ pageIndex: 0 });
    }
  }, [page, list.isPlaceholderData, cursor, table.pageIndex, pages, setTable]);
  useEffect(() => {
    // A cursor the server no longer takes (its secret changed): the page at the offset instead.
    if (list.isError && cursor) setCursor(null);
  }, [list.isError, cursor]);
  const step = (by: -1 | 1) => {
    if (!page?.startCursor || !page.endCursor) return;
    setCursor(by === 1 ? { after: page.endCursor } : { before: page.startCursor });
    setTable({ pageIndex: Math.max(0, table.pageIndex + by) });
  };

  const [pending, setPending] = useState<PendingAction | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const resetLink = useGraphQLMutation(SendPasswordResetLinkDocument);
  const deletion = useGraphQLMutation(DeleteUserDocument);
  const resend = useGraphQLMutation(ResendInvitationDocument);
  const resendInvitation = (user: ListedUser) => {
    setNotice(null);
    resend.mutate(
      { userId: user.id },
      {
        onSuccess: () => setNotice(t('users.inviteResent', { name: addressedName(user) })),
        onError: (error) => setNotice(t(memberErrorKey(error, 'users.errors.resend'))),
      },
    );
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['ListUsers'] });

  const openAction = (action: RowAction, user: ListedUser) => {
    resetLink.reset();
    deletion.reset();
    setNotice(null);
    setPending({ action, user });
  };
  const confirm = () => {
    if (!pending) return;
    const name = addressedName(pending.user);
    if (pending.action === 'reset') {
      resetLink.mutate(
        { userId: pending.user.id },
        {
          onSuccess: () => {
            setPending(null);
            setNotice(t('users.resetSent', { name }));
          },
        },
      );
    } else {
      deletion.mutate(
        { userId: pending.user.id },
        {
          onSuccess: () => {
            setPending(null);
            setNotice(t(pending.action === 'revoke' ? 'users.revoked' : 'users.deleted', { name }));
            // The row and its button go away; the search field is the nearest stable place for focus.
            searchRef.current?.focus();
            void refresh();
          },
        },
      );
    }
  };

  const sortBy = (field: UserSortField) =>
    changeTable({
      sortBy: field,
      sortDirection: table.sortBy === field && table.sortDirection === 'ASC' ? 'DESC' : 'ASC',
      pageIndex: 0,
    });

  const users = page?.users ?? [];
  const columnCount = COLUMNS.length + (canWrite ? 1 : 0);

  return (
    <section className="foyer-stack" aria-labelledby={`${searchId}-title`}>
      <h2 id={`${searchId}-title`} className="foyer-section-title">
        {t('users.tableTitle')}
      </h2>
      <div className="foyer-field foyer-table-search">
        <label className="foyer-label" htmlFor={searchId}>
          {t('users.search')}
        </label>
        <input
          ref={searchRef}
          id={searchId}
          type="search"
          className="foyer-input"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
      </div>
      {notice && <Alert variant="success">{notice}</Alert>}
      {list.isError && <Alert title={t('errors.title')}>{t('users.errors.load')}</Alert>}
      <div className="foyer-table-wrap" role="region" aria-labelledby={`${searchId}-title`} tabIndex={0}>
        <table className="foyer-table" aria-busy={list.isFetching || undefined}>
          <caption className="foyer-visually-hidden">{t('users.tableTitle')}</caption>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <SortableHeader
                  key={column.field}
                  label={t(column.label)}
                  active={table.sortBy === column.field}
                  direction={table.sortDirection}
                  onSort={() => sortBy(column.field)}
                />
              ))}
              {canWrite && (
                <th scope="col">
                  <span className="foyer-visually-hidden">{t('users.columns.actions')}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {list.isPending ? (
              <tr>
                <td colSpan={columnCount} role="status">
                  {t('app.loading')}
                </td>
              </tr>
            ) : users.length === 0 && !list.isError ? (
              <tr>
                <td colSpan={columnCount}>{t(search ? 'users.noMatches' : 'users.empty')}</td>
              </tr>
            ) : (
              users.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  own={user.id === me.id}
                  withActions={canWrite}
                  manageable={mayManage(me.role, user.role ?? '')}
                  roles={offeredRoles}
                  onAction={openAction}
                  onResend={resendInvitation}
                  resending={resend.isPending && resend.variables?.userId === user.id}
                  onSaved={() => void refresh()}
                />
              ))
            )}
          </tbody>
        </table>
      </div>
      {total > 0 && (
        <Pagination
          pageIndex={Math.min(table.pageIndex, pages - 1)}
          pages={pages}
          pageSize={table.pageSize}
          total={total}
          onPageIndex={(pageIndex) => changeTable({ pageIndex })}
          onPageSize={(pageSize) => changeTable({ pageSize, pageIndex: 0 })}
          onStep={step}
          hasPrevious={page?.hasPreviousPage ?? false}
          hasNext={page?.hasNextPage ?? false}
        />
      )}
      {pending && (
        <ConfirmDialog
          title={t(CONFIRMATIONS[pending.action].title)}
          message={t(CONFIRMATIONS[pending.action].message, { name: addressedName(pending.user) })}
          confirmLabel={t(CONFIRMATIONS[pending.action].confirm)}
          cancelLabel={t('actions.cancel')}
          danger={pending.action !== 'reset'}
          busy={resetLink.isPending || deletion.isPending}
          error={
            resetLink.isError
              ? t(memberErrorKey(resetLink.error, 'users.errors.reset'))
              : deletion.isError
                ? t(memberErrorKey(deletion.error, 'users.errors.delete'))
                : undefined
          }
          onConfirm={confirm}
          onCancel={() => setPending(null)}
        />
      )}
    </section>
  );
}
