// The profile's sessions: every browser the person is signed in with in this app (device, workspace,
// last activity, address, this one marked), with "Sign out" for one, for all others, and everywhere.
// The auth service does the revoking (server/auth/sessions); this only asks and shows the outcome.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { useRuntime } from '../runtime/context.tsx';
import type { SessionSummary, SignInSessionCalls } from '../auth/types.ts';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { deviceLabel, formatDateTime } from '../i18n/index.ts';
import { Alert } from '../theme/Alert.tsx';
import { Button } from '../theme/Button.tsx';
import { ConfirmDialog } from '../theme/Dialog.tsx';

const SESSIONS_KEY = ['auth', 'sessions'];

type Confirming = 'others' | 'everywhere' | null;

export default function SessionList(props: FlowComponentProps) {
  const { auth } = useRuntime();
  // A mode without sign-in sessions (the legacy mode) lists none.
  return auth.sessions ? <Sessions {...props} calls={auth.sessions} /> : null;
}

function Sessions({ calls }: FlowComponentProps & { calls: SignInSessionCalls }) {
  const { t, texts } = useTexts();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => calls.list() });
  const [ending, setEnding] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [confirmState, setConfirmState] = useState<'idle' | 'busy' | 'failed'>('idle');

  const nameOf = (session: SessionSummary) => deviceLabel(t, session.browser, session.os) ?? t('sessions.unknownDevice');
  const reload = () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });

  const endOne = async (session: SessionSummary) => {
    setEnding(session.id);
    setProblem(null);
    setNotice(null);
    try {
      await calls.revoke(session.id);
      setNotice(t('sessions.ended', { device: nameOf(session) }));
    } catch {
      setProblem(t('sessions.errors.end'));
    }
    setEnding(null);
    await reload();
  };

  const ask = (kind: Confirming) => {
    setConfirmState('idle');
    setConfirming(kind);
  };

  const confirm = async () => {
    setConfirmState('busy');
    try {
      if (confirming === 'everywhere') {
        // Leaves the page: the sign-in screen comes next.
        await calls.signOutEverywhere();
        return;
      }
      const count = await calls.revokeOthers();
      setNotice(t('sessions.othersEnded', { count }));
      setConfirming(null);
      setConfirmState('idle');
      await reload();
    } catch {
      setConfirmState('failed');
    }
  };

  const sessions = list.data ?? [];
  const others = sessions.filter((session) => !session.current);

  return (
    <section className="foyer-stack foyer-panel-section" aria-labelledby="foyer-sessions-heading">
      <h2 id="foyer-sessions-heading" className="foyer-section-title">
        {t('sessions.heading')}
      </h2>
      {list.isPending && <p role="status">{t('app.loading')}</p>}
      {list.isError && <Alert title={t('errors.title')}>{t('sessions.errors.load')}</Alert>}
      {list.data && sessions.length === 0 && <p>{t('sessions.none')}</p>}
      {sessions.length > 0 && (
        <ul className="foyer-stack foyer-plain-list" aria-label={t('sessions.heading')}>
          {sessions.map((session) => (
            <li key={session.id} className="foyer-passkey foyer-session">
              <div>
                <p className="foyer-passkey__name">
                  {nameOf(session)}
                  {session.current && <span className="foyer-badge">{t('sessions.thisDevice')}</span>}
                </p>
                <p className="foyer-passkey__dates">
                  {t('sessions.details', { workspace: session.workspace, date: formatDateTime(session.lastActiveAt, texts.language) })}
                  {session.ip && ` · ${t('activity.from', { ip: session.ip })}`}
                </p>
                <p className="foyer-passkey__dates">
                  {t('sessions.signedInAt', { date: formatDateTime(session.signedInAt, texts.language) })}
                </p>
              </div>
              {!session.current && (
                <div className="foyer-row-actions">
                  <Button
                    variant="secondary"
                    size="sm"
                    className="foyer-button--inline"
                    aria-label={t('sessions.endNamed', { device: nameOf(session), workspace: session.workspace })}
                    loading={ending === session.id}
                    disabled={ending !== null && ending !== session.id}
                    onClick={() => void endOne(session)}
                  >
                    {t('sessions.end')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {notice && <Alert variant="success">{notice}</Alert>}
      {problem && <Alert variant="danger">{problem}</Alert>}
      {list.data && (
        <div className="foyer-inline-actions">
          {others.length > 0 && (
            <Button variant="secondary" size="md" onClick={() => ask('others')}>
              {t('sessions.endOthers')}
            </Button>
          )}
          <Button variant="danger" size="md" onClick={() => ask('everywhere')}>
            {t('sessions.endEverywhere')}
          </Button>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title={t(confirming === 'others' ? 'sessions.endOthersTitle' : 'sessions.endEverywhereTitle')}
          message={t(confirming === 'others' ? 'sessions.endOthersConfirm' : 'sessions.endEverywhereConfirm')}
          confirmLabel={t(confirming === 'others' ? 'sessions.endOthers' : 'sessions.endEverywhere')}
          cancelLabel={t('actions.cancel')}
          danger
          busy={confirmState === 'busy'}
          error={confirmState === 'failed' ? t('sessions.errors.end') : undefined}
          onConfirm={() => void confirm()}
          onCancel={() => setConfirming(null)}
        />
      )}
    </section>
  );
}
