// /apps/:appId: the app editor. Loads the app, keeps the draft (edited locally at once, saved in the
// background), shows the draft status, Publish and Discard, the section navigation, the current
// section, and the live preview beside it (below on narrow screens).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useParams } from 'react-router';
import { Alert } from '../../src/theme/Alert.tsx';
import { Button } from '../../src/theme/Button.tsx';
import { ConfirmDialog } from '../../src/theme/Dialog.tsx';
import type { AppConfig } from '../../common/app-config.ts';
import type { AppDetail, VersionSummary } from '../api/types.ts';
import { errorText, errorTextForCode } from '../components/errors.ts';
import { PageTitle } from '../layout/usePageTitle.ts';
import { appsQueryKey } from '../screens/AppsList.tsx';
import { useConsole } from '../session.tsx';
import { setIn, type PathSegment } from './config-path.ts';
import { EditorContext, useEditor, type Editor, type PreviewedVersion } from './context.ts';
import {
  draftReducer,
  draftStatus,
  initialDraftState,
  issuesByPath,
  previewConfig,
  type DraftStatus,
  type SaveFailure,
} from './draft-state.ts';
import { Preview } from './Preview.tsx';
import { appQueryKey, versionsQueryKey } from './query-keys.ts';
import { PublishDialog } from './PublishDialog.tsx';
import { EDITOR_SECTIONS } from './sections.ts';
import { useDraftSaver } from './useDraftSaver.ts';

export function EditorLayout() {
  const { t } = useTranslation();
  const { api } = useConsole();
  const { appId = '' } = useParams();
  // Always re-read on entry: the draft starts from the server's copy, never from an old cache entry.
  const detail = useQuery({ queryKey: appQueryKey(appId), queryFn: () => api.getApp(appId), refetchOnMount: 'always' });

  if (detail.isError) {
    return (
      <div className="foyer-panel">
        <PageTitle page={t('editor.unavailableHeading')} />
        <h1 className="foyer-panel__heading">{t('editor.unavailableHeading')}</h1>
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, detail.error, 'editor.loadFailed')}
        </Alert>
      </div>
    );
  }
  if (!detail.data || !detail.isFetchedAfterMount) {
    return (
      <p role="status">
        <PageTitle page={t('editor.loading')} />
        <span className="foyer-spinner foyer-inline" aria-hidden="true" /> {t('editor.loading')}
      </p>
    );
  }
  return <DraftEditor key={appId} appId={appId} detail={detail.data} />;
}

function DraftEditor({ appId, detail }: { appId: string; detail: AppDetail }) {
  const { t } = useTranslation();
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [draft, dispatch] = useReducer(draftReducer, undefined, () =>
    initialDraftState(detail.draft?.config ?? detail.live, detail.draft !== null),
  );
  const { saveNow, retry } = useDraftSaver(api, appId, draft, dispatch);
  const [previewed, setPreviewed] = useState<PreviewedVersion | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [preparing, setPreparing] = useState(false);
  const [published, setPublished] = useState<VersionSummary | null>(null);
  const [confirmDiscard, setConfirmDiscard] = useState(false);

  const status = draftStatus(draft);
  useEffect(() => {
    if (status !== 'saving' && status !== 'failed') return;
    // An edit the server does not hold yet would be lost with the page.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [status]);
  const edit = useCallback((update: (config: AppConfig) => AppConfig) => {
    setPublished(null);
    dispatch({ type: 'edit', update });
  }, []);
  const set = useCallback((path: PathSegment[], value: unknown) => edit((config) => setIn(config, path, value)), [edit]);

  const discard = useMutation({
    mutationFn: async () => {
      await saveNow();
      await api.discardDraft(appId);
      return api.getApp(appId);
    },
    onSuccess: (fresh) => {
      queryClient.setQueryData(appQueryKey(appId), fresh);
      void queryClient.invalidateQueries({ queryKey: appsQueryKey });
      dispatch({ type: 'load', config: fresh.live, hasDraft: false });
      setConfirmDiscard(false);
    },
  });

  const editor: Editor = useMemo(
    () => ({
      appId,
      detail,
      draft,
      status,
      issues: issuesByPath(draft.failure),
      dispatch,
      edit,
      set,
      flush: saveNow,
      retrySave: retry,
      previewed,
      setPreviewed,
    }),
    [appId, detail, draft, status, edit, set, saveNow, retry, previewed],
  );

  const openPublish = async () => {
    setPreparing(true);
    await saveNow();
    setPreparing(false);
    setPublishing(true);
  };
  const name = detail.app.name;
  const shownConfig = previewed?.config ?? draft.config;
  const forPreview = useMemo(() => previewConfig(shownConfig), [shownConfig]);
  const canPublish = draft.hasDraft || status === 'saving';

  return (
    <EditorContext value={editor}>
      <div className="console-editor">
        <div className="console-editor__head foyer-panel">
          <div className="console__title-row">
            <div>
              <h1 className="foyer-panel__heading">{name}</h1>
              <p className="foyer-help">
                {t('editor.appId')} <code>{appId}</code>
              </p>
            </div>
            <div className="foyer-inline-actions">
              {draft.hasDraft && (
                <Button variant="secondary" size="md" onClick={() => setConfirmDiscard(true)}>
                  {t('editor.discard.button')}
                </Button>
              )}
              <Button size="md" loading={preparing} disabled={!canPublish || status === 'failed'} onClick={() => void openPublish()}>
                {t('editor.publish.button')}
              </Button>
            </div>
          </div>
          <p className={`console-status console-status--${status}`} role="status">
            {t(statusKey(status, detail.app.publishedVersion, draft.failure), { version: detail.app.publishedVersion })}
          </p>
          {published && (
            <Alert variant="success" title={t('editor.publish.doneTitle')}>
              {t('editor.publish.done', { version: published.version })}
            </Alert>
          )}
          {draft.failure && status === 'failed' && <SaveFailureAlert />}
        </div>
        <nav aria-label={t('editor.sectionsLabel')} className="console-editor__nav">
          <ul>
            {EDITOR_SECTIONS.map((section) => (
              <li key={section.path}>
                <NavLink to={section.path} className="foyer-admin__link">
                  {t(section.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="console-editor__body">
          <section className="console-editor__section foyer-panel">
            {/* The section's chunk loads when it is first opened (./sections.ts). */}
            <Suspense fallback={null}>
              <Outlet />
            </Suspense>
          </section>
          <Preview
            appId={appId}
            appName={name}
            config={forPreview}
            previewedVersion={previewed?.version}
            onBackToDraft={() => setPreviewed(null)}
          />
        </div>
      </div>
      {publishing && (
        <PublishDialog
          onClose={() => setPublishing(false)}
          onPublished={(version) => {
            setPublishing(false);
            setPublished(version);
            dispatch({ type: 'published' });
            void queryClient.invalidateQueries({ queryKey: appQueryKey(appId) });
            void queryClient.invalidateQueries({ queryKey: versionsQueryKey(appId) });
            void queryClient.invalidateQueries({ queryKey: appsQueryKey });
          }}
        />
      )}
      {confirmDiscard && (
        <ConfirmDialog
          title={t('editor.discard.title')}
          message={t('editor.discard.message')}
          confirmLabel={t('editor.discard.confirm')}
          cancelLabel={t('actions.cancel')}
          danger
          busy={discard.isPending}
          error={discard.isError ? errorText(t, discard.error, 'editor.discard.failed') : undefined}
          onConfirm={() => discard.mutate()}
          onCancel={() => setConfirmDiscard(false)}
        />
      )}
    </EditorContext>
  );
}

/** The draft status line's text: a refusal of values asks for corrections, other failures for a retry. */
function statusKey(status: DraftStatus, publishedVersion: number, failure: SaveFailure | null): string {
  if (status === 'live' && publishedVersion === 0) return 'editor.status.liveUnversioned';
  if (status === 'failed' && failure?.issues.length === 0) return 'editor.status.failedRetry';
  return `editor.status.${status}`;
}

function SaveFailureAlert() {
  const { t } = useTranslation();
  const { draft, retrySave } = useEditor();
  const [retrying, setRetrying] = useState(false);
  const failure = draft.failure;
  if (!failure) return null;
  return (
    <Alert variant="danger" title={t('errors.title')}>
      <p className="foyer-alert__message">{errorTextForCode(t, failure.code, 'editor.saveFailed')}</p>
      {failure.issues.length > 0 ? (
        <ul className="foyer-alert__list">
          {failure.issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              <code>{issue.path || '/'}</code> {issue.message}
            </li>
          ))}
        </ul>
      ) : (
        <Button
          variant="secondary"
          size="sm"
          className="console__inline-button"
          loading={retrying}
          onClick={() => {
            setRetrying(true);
            void retrySave().finally(() => setRetrying(false));
          }}
        >
          {t('actions.tryAgain')}
        </Button>
      )}
    </Alert>
  );
}
