// Versions: every publish, newest first, with author, time, note and the live one marked. Preview
// shows a version in the preview panel; Restore makes it the draft (nothing goes live until published).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../src/theme/Alert.tsx';
import { Button } from '../../../src/theme/Button.tsx';
import { ConfirmDialog } from '../../../src/theme/Dialog.tsx';
import type { VersionSummary } from '../../api/types.ts';
import { errorText } from '../../components/errors.ts';
import { appsQueryKey } from '../../screens/AppsList.tsx';
import { useConsole } from '../../session.tsx';
import { useEditor } from '../context.ts';
import { appQueryKey, versionsQueryKey } from '../query-keys.ts';
import { SectionHeading } from './SectionHeading.tsx';

export function formatTime(iso: string, language = 'en'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function VersionsSection() {
  const { t, i18n } = useTranslation();
  const { api } = useConsole();
  const { appId, dispatch, flush, previewed, setPreviewed } = useEditor();
  const queryClient = useQueryClient();
  const versions = useQuery({ queryKey: versionsQueryKey(appId), queryFn: () => api.versions(appId) });
  const [restoring, setRestoring] = useState<VersionSummary | null>(null);
  const [restored, setRestored] = useState<number | null>(null);
  const [loadingPreview, setLoadingPreview] = useState<number | null>(null);
  const [previewFailed, setPreviewFailed] = useState<unknown>(null);

  const restore = useMutation({
    mutationFn: async (version: number) => {
      // Pending edits reach the server first, so the restored draft is not overwritten by a late save.
      await flush();
      return api.restore(appId, version);
    },
    onSuccess: ({ draft }, version) => {
      dispatch({ type: 'load', config: draft.config, hasDraft: true });
      setPreviewed(null);
      setRestoring(null);
      setRestored(version);
      void queryClient.invalidateQueries({ queryKey: appQueryKey(appId) });
      void queryClient.invalidateQueries({ queryKey: appsQueryKey });
    },
  });

  const preview = async (version: number) => {
    setLoadingPreview(version);
    setPreviewFailed(null);
    try {
      const answer = await api.version(appId, version);
      setPreviewed({ version, config: answer.config });
    } catch (error) {
      setPreviewFailed(error);
    } finally {
      setLoadingPreview(null);
    }
  };

  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.versions" intro="versions.intro" />
      {restored !== null && (
        <Alert variant="success" title={t('versions.restoredTitle')}>
          {t('versions.restored', { version: restored })}
        </Alert>
      )}
      {previewFailed !== null && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, previewFailed, 'versions.previewFailed')}
        </Alert>
      )}
      {versions.isPending && (
        <p role="status">
          <span className="foyer-spinner foyer-inline" aria-hidden="true" /> {t('versions.loading')}
        </p>
      )}
      {versions.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, versions.error, 'versions.loadFailed')}
        </Alert>
      )}
      {versions.data && versions.data.versions.length === 0 && <p className="console__empty">{t('versions.empty')}</p>}
      {versions.data && versions.data.versions.length > 0 && (
        <ol className="foyer-plain-list foyer-stack console-versions">
          {versions.data.versions.map((version) => (
            <li key={version.version} className="console-version">
              <div className="console-version__head">
                <h3 className="console-version__title">{t('versions.title', { version: version.version })}</h3>
                {version.live && <span className="console__badge console__badge--live">{t('versions.live')}</span>}
                {previewed?.version === version.version && <span className="console__badge">{t('versions.inPreview')}</span>}
              </div>
              <p className="foyer-help">
                {t('versions.byline', { author: version.author, time: formatTime(version.createdAt, i18n.language) })}
              </p>
              {version.note && <p className="console-version__note">{version.note}</p>}
              <div className="foyer-inline-actions">
                <Button
                  variant="secondary"
                  size="sm"
                  loading={loadingPreview === version.version}
                  aria-label={t('versions.previewNamed', { version: version.version })}
                  onClick={() => void preview(version.version)}
                >
                  {t('versions.preview')}
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={t('versions.restoreNamed', { version: version.version })}
                  onClick={() => {
                    restore.reset();
                    setRestoring(version);
                  }}
                >
                  {t('versions.restore')}
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
      {restoring && (
        <ConfirmDialog
          title={t('versions.confirmTitle', { version: restoring.version })}
          message={t('versions.confirmMessage', { version: restoring.version })}
          confirmLabel={t('versions.confirm')}
          cancelLabel={t('actions.cancel')}
          busy={restore.isPending}
          error={restore.isError ? errorText(t, restore.error, 'versions.restoreFailed') : undefined}
          onConfirm={() => restore.mutate(restoring.version)}
          onCancel={() => setRestoring(null)}
        />
      )}
    </div>
  );
}
