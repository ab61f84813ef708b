// The signed-in user's passkeys on the profile: each with its name, when it was created and last
// used; rename one in place; delete one after a confirmation; add one with this browser's authenticator.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { useRuntime } from '../runtime/context.tsx';
import { required } from '../auth/capabilities.ts';
import type { PasskeySummary } from '../auth/types.ts';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { formatDateTime } from '../i18n/index.ts';
import { PASSKEY_NAME_MAX_LENGTH } from '../../common/passkeys.ts';
import { cancelCeremony, registerPasskey } from '../passkeys/ceremonies.ts';
import { Alert } from '../theme/Alert.tsx';
import { Button } from '../theme/Button.tsx';
import { ConfirmDialog } from '../theme/Dialog.tsx';

const PASSKEYS_KEY = ['auth', 'passkeys'];

export default function PasskeyManager(_props: FlowComponentProps) {
  const { t, texts } = useTexts();
  const passkeys = required(useRuntime().auth.passkeys, 'passkeys');
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: PASSKEYS_KEY, queryFn: () => passkeys.list() });
  const [adding, setAdding] = useState<'idle' | 'busy'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PasskeySummary | null>(null);
  const [deleteState, setDeleteState] = useState<'idle' | 'busy' | 'failed'>('idle');

  useEffect(() => cancelCeremony, []);

  const date = (value: string | null) => (value ? formatDateTime(value, texts.language) : t('passkeys.neverUsed'));

  const add = async () => {
    setAdding('busy');
    setProblem(null);
    const outcome = await registerPasskey(passkeys, { signedIn: true }, { notCompleted: t('passkeys.registrationNotCompleted') });
    setAdding('idle');
    if (!outcome.ok && !outcome.aborted) setProblem(outcome.problem);
    if (outcome.ok) await queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteState('busy');
    try {
      await passkeys.delete(deleting.id);
      await queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
      setDeleting(null);
      setDeleteState('idle');
    } catch {
      setDeleteState('failed');
    }
  };

  return (
    <section className="foyer-stack foyer-panel-section" aria-labelledby="foyer-passkeys-heading">
      <h2 id="foyer-passkeys-heading" className="foyer-section-title">
        {t('passkeys.heading')}
      </h2>
      {list.isPending && <p role="status">{t('app.loading')}</p>}
      {list.isError && <Alert title={t('errors.title')}>{t('passkeys.errors.list')}</Alert>}
      {list.data && list.data.length === 0 && <p>{t('passkeys.none')}</p>}
      {list.data && list.data.length > 0 && (
        <ul className="foyer-stack foyer-plain-list" aria-label={t('passkeys.heading')}>
          {list.data.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              dates={`${t('passkeys.createdAt', { date: date(passkey.createdAt) })} · ${t('passkeys.lastUsedAt', { date: date(passkey.lastUsedAt) })}`}
              onRenamed={() => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY })}
              onDelete={() => {
                setDeleteState('idle');
                setDeleting(passkey);
              }}
            />
          ))}
        </ul>
      )}
      <Button variant="secondary" size="md" loading={adding === 'busy'} onClick={() => void add()}>
        {t('passkeys.add')}
      </Button>
      {problem && <Alert variant="warning">{t(problem)}</Alert>}
      {deleting && (
        <ConfirmDialog
          title={t('passkeys.deleteTitle')}
          message={t('passkeys.deleteConfirm', { name: deleting.name })}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          danger
          busy={deleteState === 'busy'}
          error={deleteState === 'failed' ? t('passkeys.errors.delete') : undefined}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

interface PasskeyRowProps {
  passkey: PasskeySummary;
  dates: string;
  onRenamed(): Promise<void>;
  onDelete(): void;
}

/** One passkey: its name and dates with Rename and Delete, or the rename form (Escape cancels). */
function PasskeyRow({ passkey, dates, onRenamed, onDelete }: PasskeyRowProps) {
  const { t } = useTexts();
  const passkeys = required(useRuntime().auth.passkeys, 'passkeys');
  const fieldId = useId();
  const [name, setName] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (name === null || !name.trim()) return;
    setState('busy');
    try {
      await passkeys.rename(passkey.id, name.trim());
      await onRenamed();
      setName(null);
      setState('idle');
    } catch {
      setState('failed');
    }
  };

  if (name === null) {
    return (
      <li className="foyer-passkey">
        <div>
          <p className="foyer-passkey__name">{passkey.name}</p>
          <p className="foyer-passkey__dates">{dates}</p>
        </div>
        <div className="foyer-row-actions">
          <Button
            variant="secondary"
            size="sm"
            className="foyer-button--inline"
            aria-label={t('passkeys.renameNamed', { name: passkey.name })}
            onClick={() => setName(passkey.name)}
          >
            {t('passkeys.rename')}
          </Button>
          <Button
            variant="danger"
            size="sm"
            className="foyer-button--inline"
            aria-label={t('passkeys.deleteNamed', { name: passkey.name })}
            onClick={onDelete}
          >
            {t('actions.delete')}
          </Button>
        </div>
      </li>
    );
  }
  return (
    <li className="foyer-passkey">
      <form
        className="foyer-passkey__rename"
        onSubmit={(event) => void save(event)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && state !== 'busy') setName(null);
        }}
      >
        <div className="foyer-field">
          <label className="foyer-label" htmlFor={fieldId}>
            {t('passkeys.nameLabel')}
          </label>
          <input
            id={fieldId}
            className="foyer-input"
            value={name}
            maxLength={PASSKEY_NAME_MAX_LENGTH}
            autoFocus
            aria-invalid={state === 'failed' || undefined}
            aria-describedby={state === 'failed' ? `${fieldId}-error` : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          {state === 'failed' && (
            <p id={`${fieldId}-error`} className="foyer-field-error" role="alert">
              {t('passkeys.errors.rename')}
            </p>
          )}
        </div>
        <div className="foyer-row-actions">
          <Button variant="secondary" size="sm" className="foyer-button--inline" disabled={state === 'busy'} onClick={() => setName(null)}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" size="sm" className="foyer-button--inline" loading={state === 'busy'} disabled={!name.trim()}>
            {t('actions.save')}
          </Button>
        </div>
      </form>
    </li>
  );
}
