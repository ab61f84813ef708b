// The signed-in user's passkeys on the profile: each with its name, when it was created and last
// used; delete one after a confirmation; add one with this browser's authenticator.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntime } from '../app/runtime.tsx';
import type { PasskeySummary } from '../auth/types.ts';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { cancelCeremony, registerPasskey } from '../passkeys/ceremonies.ts';
import { Alert } from '../theme/Alert.tsx';
import { Button } from '../theme/Button.tsx';
import { ConfirmDialog } from '../theme/Dialog.tsx';

const PASSKEYS_KEY = ['auth', 'passkeys'];

export default function PasskeyManager(_props: FlowComponentProps) {
  const { t, i18n } = useTranslation();
  const { auth } = useRuntime();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: PASSKEYS_KEY, queryFn: () => auth.listPasskeys() });
  const [adding, setAdding] = useState<'idle' | 'busy'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PasskeySummary | null>(null);
  const [deleteState, setDeleteState] = useState<'idle' | 'busy' | 'failed'>('idle');

  useEffect(() => cancelCeremony, []);

  const date = (value: string | null) =>
    value ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value)) : t('passkeys.neverUsed');

  const add = async () => {
    setAdding('busy');
    setProblem(null);
    const outcome = await registerPasskey(auth, { signedIn: true }, { notCompleted: t('passkeys.registrationNotCompleted') });
    setAdding('idle');
    if (!outcome.ok && !outcome.aborted) setProblem(outcome.problem);
    if (outcome.ok) await queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteState('busy');
    try {
      await auth.deletePasskey(deleting.id);
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
            <li key={passkey.id} className="foyer-passkey">
              <div>
                <p className="foyer-passkey__name">{passkey.name}</p>
                <p className="foyer-passkey__dates">
                  {t('passkeys.createdAt', { date: date(passkey.createdAt) })} · {t('passkeys.lastUsedAt', { date: date(passkey.lastUsedAt) })}
                </p>
              </div>
              <Button
                variant="danger"
                size="sm"
                className="foyer-button--inline"
                aria-label={t('passkeys.deleteNamed', { name: passkey.name })}
                onClick={() => {
                  setDeleteState('idle');
                  setDeleting(passkey);
                }}
              >
                {t('actions.delete')}
              </Button>
            </li>
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
