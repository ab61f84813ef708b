// Publish: the draft's changes against the live version as sentences, an optional note, then the
// draft becomes the next numbered version and goes live.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../src/theme/Alert.tsx';
import { Button } from '../../src/theme/Button.tsx';
import { Dialog } from '../../src/theme/Dialog.tsx';
import { ApiError } from '../../src/http/errors.ts';
import { MAX_PUBLISH_NOTE_LENGTH, type VersionSummary } from '../api/types.ts';
import { errorText } from '../components/errors.ts';
import { useConsole } from '../session.tsx';
import { describeChange } from './changes.ts';
import { useEditor } from './context.ts';

export function PublishDialog({ onClose, onPublished }: { onClose(): void; onPublished(version: VersionSummary): void }) {
  const { t, i18n } = useTranslation();
  const { api } = useConsole();
  const { appId, draft, status } = useEditor();
  const noteId = useId();
  const [note, setNote] = useState('');
  const changes = useQuery({
    queryKey: ['changes', appId, draft.savedRevision],
    queryFn: () => api.changes(appId),
    gcTime: 0,
  });
  const publish = useMutation({
    mutationFn: (revision: string) => api.publish(appId, revision, note.trim() || undefined),
    onSuccess: ({ version }) => onPublished(version),
    // Another owner published or edited meanwhile: list the changes as they stand now.
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'CHANGED_SINCE_REVIEW') void changes.refetch();
    },
  });

  return (
    <Dialog
      title={t('publish.title')}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" size="md" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button
            size="md"
            loading={publish.isPending}
            disabled={!changes.isSuccess || status === 'failed'}
            onClick={() => changes.data && publish.mutate(changes.data.revision)}
          >
            {t('publish.confirm')}
          </Button>
        </>
      }
    >
      <div className="foyer-stack">
        {status === 'failed' && (
          <Alert variant="warning" title={t('publish.unsavedTitle')}>
            {t('publish.unsaved')}
          </Alert>
        )}
        {changes.isPending && (
          <p role="status">
            <span className="foyer-spinner foyer-inline" aria-hidden="true" /> {t('publish.loadingChanges')}
          </p>
        )}
        {changes.isError && (
          <Alert variant="danger" title={t('errors.title')}>
            {errorText(t, changes.error, 'publish.changesFailed')}
          </Alert>
        )}
        {changes.data &&
          (changes.data.changes.length === 0 ? (
            <p>{t('publish.noChanges')}</p>
          ) : (
            <>
              <p>{t('publish.intro')}</p>
              <ul className="console-changes">
                {changes.data.changes.map((change, index) => (
                  <li key={index}>{describeChange(i18n, change)}</li>
                ))}
              </ul>
            </>
          ))}
        <div className="foyer-field">
          <label className="foyer-label" htmlFor={noteId}>
            {t('publish.note')}
          </label>
          <textarea
            id={noteId}
            className="foyer-input console__textarea--short"
            value={note}
            maxLength={MAX_PUBLISH_NOTE_LENGTH}
            aria-describedby={`${noteId}-help`}
            onChange={(event) => setNote(event.target.value)}
          />
          <p id={`${noteId}-help`} className="foyer-help">
            {t('publish.noteHelp', { count: note.length, max: MAX_PUBLISH_NOTE_LENGTH })}
          </p>
        </div>
        {publish.isError && (
          <Alert variant="danger" title={t('errors.title')}>
            {errorText(t, publish.error, 'publish.failed')}
          </Alert>
        )}
      </div>
    </Dialog>
  );
}
