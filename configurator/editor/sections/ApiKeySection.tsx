// API keys: the app's keys (name, when made, when last used), a form that makes a named key and shows
// it once with a copy button, and Revoke (after confirmation) per key. The server keeps only each
// key's SHA-256 (server/apps/api-keys.ts), so a key lost is replaced, never shown again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../src/theme/Alert.tsx';
import { Button } from '../../../src/theme/Button.tsx';
import { ConfirmDialog } from '../../../src/theme/Dialog.tsx';
import { MAX_API_KEY_NAME_LENGTH, type ApiKeySummary } from '../../api/types.ts';
import { CopyField } from '../../components/CopyField.tsx';
import { errorText } from '../../components/errors.ts';
import { TextField } from '../../components/TextField.tsx';
import { useConsole } from '../../session.tsx';
import { useEditor } from '../context.ts';
import { apiKeysQueryKey } from '../query-keys.ts';
import { SectionHeading } from './SectionHeading.tsx';
import { formatTime } from './VersionsSection.tsx';

export function ApiKeySection() {
  const { t, i18n } = useTranslation();
  const { api } = useConsole();
  const { appId } = useEditor();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: apiKeysQueryKey(appId), queryFn: () => api.apiKeys(appId) });
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey(appId) });
  const create = useMutation({
    mutationFn: (keyName: string) => api.createApiKey(appId, keyName),
    onSuccess: () => {
      setName('');
      setRevoked(null);
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (key: ApiKeySummary) => api.revokeApiKey(appId, key.id),
    onSuccess: (_answer, key) => {
      setRevoking(null);
      setRevoked(key.name);
      void refresh();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError(t('apiKeys.nameRequired'));
      return;
    }
    setNameError(undefined);
    create.mutate(trimmed);
  };

  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.apiKey" intro="apiKeys.intro" />
      {revoked !== null && (
        <Alert variant="success" title={t('apiKeys.revokedTitle')} polite>
          {t('apiKeys.revoked', { name: revoked })}
        </Alert>
      )}
      {keys.isPending && (
        <p role="status">
          <span className="foyer-spinner foyer-inline" aria-hidden="true" /> {t('apiKeys.loading')}
        </p>
      )}
      {keys.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, keys.error, 'apiKeys.loadFailed')}
        </Alert>
      )}
      {keys.data && keys.data.apiKeys.length === 0 && <p className="console__empty">{t('apiKeys.empty')}</p>}
      {keys.data && keys.data.apiKeys.length > 0 && (
        <ul className="foyer-plain-list foyer-stack console-versions" aria-label={t('apiKeys.listLabel')}>
          {keys.data.apiKeys.map((key) => (
            <li key={key.id} className="console-version">
              <div className="console-version__head">
                <h3 className="console-version__title">{key.name}</h3>
              </div>
              <p className="foyer-help">
                {t('apiKeys.created', { time: formatTime(key.createdAt, i18n.language) })}{' '}
                {key.lastUsedAt ? t('apiKeys.lastUsed', { time: formatTime(key.lastUsedAt, i18n.language) }) : t('apiKeys.neverUsed')}
              </p>
              <div className="foyer-inline-actions">
                <Button
                  variant="danger"
                  size="sm"
                  aria-label={t('apiKeys.revokeNamed', { name: key.name })}
                  onClick={() => {
                    revoke.reset();
                    setRevoking(key);
                  }}
                >
                  {t('apiKeys.revoke')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form className="foyer-stack" onSubmit={submit} noValidate>
        <TextField
          label={t('apiKeys.name')}
          help={t('apiKeys.nameHelp')}
          value={name}
          maxLength={MAX_API_KEY_NAME_LENGTH}
          error={nameError}
          onChange={(value) => {
            setName(value);
            if (nameError) setNameError(undefined);
          }}
        />
        <Button type="submit" variant="secondary" size="md" className="console__inline-button" loading={create.isPending}>
          {t('apiKeys.create')}
        </Button>
      </form>
      {create.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, create.error, 'apiKeys.createFailed')}
        </Alert>
      )}
      {create.data && (
        <>
          <CopyField label={t('apiKeys.newValue', { name: create.data.apiKey.name })} value={create.data.key} />
          <Alert variant="warning" title={t('apiKeys.onceTitle')} polite>
            {t('apiKeys.shownOnce')}
          </Alert>
        </>
      )}
      {revoking && (
        <ConfirmDialog
          title={t('apiKeys.confirmTitle', { name: revoking.name })}
          message={t('apiKeys.confirmMessage')}
          confirmLabel={t('apiKeys.confirm')}
          cancelLabel={t('actions.cancel')}
          danger
          busy={revoke.isPending}
          error={revoke.isError ? errorText(t, revoke.error, 'apiKeys.revokeFailed') : undefined}
          onConfirm={() => revoke.mutate(revoking)}
          onCancel={() => setRevoking(null)}
        />
      )}
    </div>
  );
}
