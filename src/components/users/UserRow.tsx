// One row of the users table: view mode, or edit mode with a role selector and an enabled switch.
import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { useTexts } from '../../i18n/texts.ts';
import { useGraphQLMutation } from '../../api/react.tsx';
import { UpdateUserDocument } from '../../gql/graphql.ts';
import { Button } from '../../theme/Button.tsx';
import { Switch } from '../../theme/Switch.tsx';
import { memberErrorKey } from './errors.ts';
import { shownName, type ListedUser } from './names.ts';

/** Confirmed actions on a row: a reset link, removal, or taking back a pending invitation. */
export type RowAction = 'reset' | 'delete' | 'revoke';

export interface UserRowProps {
  user: ListedUser;
  /** The signed-in user's own row: never edited, reset or deleted here. */
  own: boolean;
  /** Whether the row shows its actions cell at all (the reader may write). */
  withActions: boolean;
  /** The signed-in user may act on this row. */
  manageable: boolean;
  /** Roles the selector offers (from ListUserRoles, fetched once for the table). */
  roles: readonly string[];
  onAction(action: RowAction, user: ListedUser): void;
  /** Mails a pending invitation again (no confirmation: nothing is lost). */
  onResend(user: ListedUser): void;
  /** This row's invitation is being sent again. */
  resending: boolean;
  onSaved(): void;
}

const INTERACTIVE = 'button, a, input, select, textarea, label';

export function UserRow({ user, own, withActions, manageable, roles, onAction, onResend, resending, onSaved }: UserRowProps) {
  const { t } = useTexts();
  const [editing, setEditing] = useState(false);
  const [role, setRole] = useState(user.role ?? '');
  const [enabled, setEnabled] = useState(user.enabled !== false);
  const errorId = useId();
  const roleRef = useRef<HTMLSelectElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const refocusEdit = useRef(false);
  const update = useGraphQLMutation(UpdateUserDocument);
  const name = shownName(user, t);
  const editable = withActions && manageable && !own;
  const rowEditable = editable && !user.invitationPending;

  useEffect(() => {
    if (editing) roleRef.current?.focus();
    else if (refocusEdit.current) {
      refocusEdit.current = false;
      editRef.current?.focus();
    }
  }, [editing]);

  const startEditing = () => {
    setRole(user.role ?? '');
    setEnabled(user.enabled !== false);
    update.reset();
    setEditing(true);
  };
  const stopEditing = () => {
    refocusEdit.current = true;
    setEditing(false);
  };
  const save = () =>
    update.mutate(
      { user: { id: user.id, role, enabled } },
      {
        onSuccess: () => {
          onSaved();
          stopEditing();
        },
      },
    );
  // A click anywhere on a manageable row opens it, except on its own buttons and fields.
  const onRowClick = (event: MouseEvent<HTMLTableRowElement>) => {
    if (!rowEditable || editing) return;
    if (event.target instanceof Element && event.target.closest(INTERACTIVE)) return;
    startEditing();
  };
  const offered = roles.includes(role) ? roles : [role, ...roles];

  return (
    <tr
      className={rowEditable && !editing ? 'foyer-row foyer-row--clickable' : 'foyer-row'}
      onClick={onRowClick}
      // Escape leaves edit mode unsaved, as it closes dialogs.
      onKeyDown={(event) => {
        if (event.key === 'Escape' && editing && !update.isPending) stopEditing();
      }}
    >
      <th scope="row" className="foyer-cell-name">
        {name}
        {own && <span className="foyer-badge">{t('users.you')}</span>}
      </th>
      <td>{user.email}</td>
      <td>
        {editing ? (
          <Switch checked={enabled} label={t('users.enabled')} onChange={setEnabled} disabled={update.isPending} />
        ) : user.invitationPending ? (
          t('users.status.invited')
        ) : user.enabled === false ? (
          t('users.status.deactivated')
        ) : (
          t('users.status.active')
        )}
      </td>
      <td>
        {editing ? (
          <select
            ref={roleRef}
            className="foyer-select foyer-select--compact"
            aria-label={t('users.roleOf', { name })}
            value={role}
            disabled={update.isPending}
            onChange={(event) => setRole(event.target.value)}
          >
            {offered.map((option) => (
              <option key={option} value={option}>
                {t(`roles.${option}`, { defaultValue: option })}
              </option>
            ))}
          </select>
        ) : (
          t(`roles.${user.role}`, { defaultValue: user.role ?? '' })
        )}
      </td>
      {withActions && (
        <td>
          {editing ? (
            <div className="foyer-row-actions">
              <Button variant="secondary" size="sm" onClick={stopEditing} disabled={update.isPending}>
                {t('actions.cancel')}
              </Button>
              <Button size="sm" loading={update.isPending} onClick={save} aria-describedby={update.isError ? errorId : undefined}>
                {t('actions.save')}
              </Button>
              {update.isError && (
                <p id={errorId} className="foyer-field-error" role="alert">
                  {t(memberErrorKey(update.error, 'users.errors.update'))}
                </p>
              )}
            </div>
          ) : editable && user.invitationPending ? (
            <div className="foyer-row-actions">
              <Button variant="secondary" size="sm" loading={resending} onClick={() => onResend(user)}>
                {t('users.resendInvite')}
              </Button>
              <Button variant="danger" size="sm" onClick={() => onAction('revoke', user)}>
                {t('users.revoke')}
              </Button>
            </div>
          ) : editable ? (
            <div className="foyer-row-actions">
              <Button ref={editRef} variant="secondary" size="sm" onClick={startEditing}>
                {t('actions.edit')}
              </Button>
              <Button variant="secondary" size="sm" onClick={() => onAction('reset', user)}>
                {t('users.resetPassword')}
              </Button>
              <Button variant="danger" size="sm" onClick={() => onAction('delete', user)}>
                {t('actions.delete')}
              </Button>
            </div>
          ) : null}
        </td>
      )}
    </tr>
  );
}
