// Create app: a name (and optionally a first redirect URI) → the application ID and the API key, shown
// once with copy buttons; then, on request, a first workspace, and the way into the app's settings.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../src/theme/Alert.tsx';
import { Button } from '../../src/theme/Button.tsx';
import { ApiError } from '../../src/http/errors.ts';
import type { CreatedApp, Workspace } from '../api/types.ts';
import { CopyField } from '../components/CopyField.tsx';
import { TextField } from '../components/TextField.tsx';
import { usePageTitle } from '../layout/usePageTitle.ts';
import { useConsole, useConsoleAuth } from '../session.tsx';
import { appsQueryKey } from './AppsList.tsx';

/** The refused field of a create-app answer, by the JSON pointer the server names. */
function issueAt(error: unknown, prefix: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.issues.find((issue) => issue.path === prefix || issue.path.startsWith(`${prefix}/`))?.message;
}

export function CreateApp() {
  const { t } = useTranslation();
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [redirectUri, setRedirectUri] = useState('');
  const create = useMutation({
    mutationFn: () => api.createApp({ name: name.trim(), ...(redirectUri.trim() ? { redirectUris: [redirectUri.trim()] } : {}) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appsQueryKey }),
  });
  usePageTitle(t('createApp.heading'));

  if (create.data) return <AppCreated created={create.data} />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };
  const nameIssue = issueAt(create.error, '/name');
  const redirectIssue = issueAt(create.error, '/redirectUris');
  return (
    <div className="foyer-panel console__narrow">
      <h1 className="foyer-panel__heading">{t('createApp.heading')}</h1>
      <p className="foyer-subheading foyer-panel__subheading">{t('createApp.subheading')}</p>
      {create.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {t('createApp.failed')}
        </Alert>
      )}
      <form className="foyer-stack" onSubmit={submit} noValidate>
        <TextField
          label={t('createApp.name')}
          value={name}
          onChange={setName}
          required
          maxLength={100}
          autoComplete="off"
          error={nameIssue && t('editor.fieldError', { message: nameIssue })}
        />
        <TextField
          label={t('createApp.redirectUri')}
          value={redirectUri}
          onChange={setRedirectUri}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://app.example.com/callback"
          help={t('createApp.redirectUriHelp')}
          error={redirectIssue && t('editor.fieldError', { message: redirectIssue })}
        />
        <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
          {t('createApp.submit')}
        </Button>
      </form>
    </div>
  );
}

function AppCreated({ created }: { created: CreatedApp }) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const appPath = `/apps/${encodeURIComponent(created.app.id)}`;
  return (
    <div className="foyer-panel console__narrow">
      <h1 className="foyer-panel__heading" tabIndex={-1} ref={headingRef}>
        {t('createApp.created.heading', { name: created.app.name })}
      </h1>
      <CopyField label={t('createApp.created.appId')} value={created.app.id} />
      <CopyField label={t('createApp.created.apiKey')} value={created.apiKey} />
      <Alert variant="warning" title={t('createApp.created.keyOnceTitle')} polite>
        {t('createApp.created.keyOnce')}
      </Alert>
      <FirstWorkspace appId={created.app.id} />
      <Link to={appPath} className="foyer-button foyer-button--primary foyer-button--lg console__inline-button">
        {t('createApp.created.openSettings')}
      </Link>
    </div>
  );
}

function FirstWorkspace({ appId }: { appId: string }) {
  const { t } = useTranslation();
  const { api } = useConsole();
  const auth = useConsoleAuth();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [ownerEmail, setOwnerEmail] = useState(auth.currentUser().email);
  const create = useMutation({
    mutationFn: (): Promise<{ workspace: Workspace }> =>
      api.createWorkspace(appId, { name: name.trim(), ...(ownerEmail.trim() ? { ownerEmail: ownerEmail.trim() } : {}) }),
  });

  if (create.data) {
    return (
      <Alert variant="success" title={t('createApp.workspace.createdTitle')}>
        {t('createApp.workspace.created', { name: create.data.workspace.name, email: ownerEmail.trim() || auth.currentUser().email })}
      </Alert>
    );
  }
  if (!open) {
    return (
      <Button variant="secondary" size="md" className="console__inline-button" onClick={() => setOpen(true)}>
        {t('createApp.workspace.open')}
      </Button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };
  return (
    <section className="foyer-stack console__subsection" aria-labelledby="first-workspace-heading">
      <h2 id="first-workspace-heading" className="foyer-section-title">
        {t('createApp.workspace.heading')}
      </h2>
      {create.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {t('createApp.workspace.failed')}
        </Alert>
      )}
      <form className="foyer-stack" onSubmit={submit} noValidate>
        <TextField label={t('createApp.workspace.name')} value={name} onChange={setName} required autoComplete="organization" autoFocus />
        <TextField
          label={t('createApp.workspace.ownerEmail')}
          value={ownerEmail}
          onChange={setOwnerEmail}
          type="email"
          autoComplete="email"
          help={t('createApp.workspace.ownerEmailHelp')}
        />
        <Button type="submit" size="md" className="console__inline-button" loading={create.isPending} disabled={!name.trim()}>
          {t('createApp.workspace.submit')}
        </Button>
      </form>
    </section>
  );
}
