// Application type: how the app talks to Foyer's OpenID Provider. Public apps (browser, native) use
// PKCE and hold no secret; confidential ones (server-side) authenticate with a client secret, shown
// once when made, or with JWTs signed by keys they register. The endpoints to configure are shown.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confidentialAuthMethods, type ConfidentialAuthMethod } from '../../../src/policy/app-config.ts';
import { Alert } from '../../../src/theme/Alert.tsx';
import { Button } from '../../../src/theme/Button.tsx';
import { ConfirmDialog } from '../../../src/theme/Dialog.tsx';
import { CopyField } from '../../components/CopyField.tsx';
import { errorText } from '../../components/errors.ts';
import { useConsole } from '../../session.tsx';
import { useEditor } from '../context.ts';
import { appQueryKey } from '../query-keys.ts';
import { PathSwitch, useIssue } from './fields.tsx';
import { SectionHeading } from './SectionHeading.tsx';
import { formatTime } from './VersionsSection.tsx';

export function ClientSection() {
  const { t } = useTranslation();
  const { config } = useConsole();
  const { draft, set } = useEditor();
  const confidential = draft.config.clientType === 'confidential';
  const method = draft.config.tokenEndpointAuthMethod ?? 'client_secret_basic';
  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.client" intro="client.intro" />
      <div className="foyer-field">
        <label className="foyer-label" htmlFor="client-type">
          {t('client.type')}
        </label>
        <select
          id="client-type"
          className="foyer-select"
          value={confidential ? 'confidential' : 'public'}
          aria-describedby="client-type-help"
          onChange={(event) => set(['clientType'], event.target.value)}
        >
          <option value="public">{t('client.types.public')}</option>
          <option value="confidential">{t('client.types.confidential')}</option>
        </select>
        <p id="client-type-help" className="foyer-help">
          {confidential ? t('client.confidentialHelp') : t('client.publicHelp')}
        </p>
      </div>

      {confidential && (
        <fieldset className="console-fieldset">
          <legend className="foyer-section-title">{t('client.authentication')}</legend>
          <div className="foyer-field">
            <label className="foyer-label" htmlFor="client-auth-method">
              {t('client.method')}
            </label>
            <select
              id="client-auth-method"
              className="foyer-select"
              value={method}
              onChange={(event) => set(['tokenEndpointAuthMethod'], event.target.value as ConfidentialAuthMethod)}
            >
              {confidentialAuthMethods.map((option) => (
                <option key={option} value={option}>
                  {t(`client.methods.${option}`)}
                </option>
              ))}
            </select>
          </div>
          {method === 'private_key_jwt' ? <JwksField /> : <ClientSecret />}
          <PathSwitch path={['requirePkce']} label={t('client.requirePkce')} defaultValue />
          <p className="foyer-help">{t('client.requirePkceHelp')}</p>
        </fieldset>
      )}

      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('client.endpoints')}</legend>
        <CopyField label={t('client.issuer')} value={config.authUrl} />
        <CopyField label={t('client.discovery')} value={`${config.authUrl}/.well-known/openid-configuration`} />
      </fieldset>
    </div>
  );
}

function ClientSecret() {
  const { t, i18n } = useTranslation();
  const { api } = useConsole();
  const { appId, detail } = useEditor();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const regenerate = useMutation({
    mutationFn: () => api.regenerateClientSecret(appId),
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: appQueryKey(appId) });
    },
  });
  return (
    <div className="foyer-stack">
      <p>
        {detail.clientSecretCreatedAt
          ? t('client.secretCreatedAt', { time: formatTime(detail.clientSecretCreatedAt, i18n.language) })
          : t('client.noSecret')}
      </p>
      {regenerate.data && (
        <>
          <CopyField label={t('client.newSecret')} value={regenerate.data.clientSecret} />
          <Alert variant="warning" title={t('client.secretOnceTitle')} polite>
            {t('client.secretOnce')}
          </Alert>
        </>
      )}
      <Button
        variant={detail.clientSecretCreatedAt ? 'danger' : 'secondary'}
        size="md"
        className="console__inline-button"
        onClick={() => (detail.clientSecretCreatedAt ? setConfirming(true) : regenerate.mutate())}
        loading={regenerate.isPending && !confirming}
      >
        {detail.clientSecretCreatedAt ? t('client.rotateSecret') : t('client.createSecret')}
      </Button>
      {regenerate.isError && !confirming && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, regenerate.error, 'client.secretFailed')}
        </Alert>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('client.confirmTitle')}
          message={t('client.confirmMessage')}
          confirmLabel={t('client.confirm')}
          cancelLabel={t('actions.cancel')}
          danger
          busy={regenerate.isPending}
          error={regenerate.isError ? errorText(t, regenerate.error, 'client.secretFailed') : undefined}
          onConfirm={() => regenerate.mutate()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </div>
  );
}

/** The app's public keys as a JSON Web Key Set; text that is not JSON stays in the field until it is. */
function JwksField() {
  const { t } = useTranslation();
  const { draft, set } = useEditor();
  const id = useId();
  const issue = useIssue(['jwks']);
  const [text, setText] = useState(() => (draft.config.jwks ? JSON.stringify(draft.config.jwks, null, 2) : ''));
  const [parseError, setParseError] = useState(false);
  const error = parseError ? t('client.jwksNotJson') : issue;
  return (
    <div className="foyer-field">
      <label className="foyer-label" htmlFor={id}>
        {t('client.jwks')}
      </label>
      <textarea
        id={id}
        className="foyer-input console__mono"
        rows={8}
        value={text}
        aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          setText(event.target.value);
          if (event.target.value.trim() === '') {
            setParseError(false);
            set(['jwks'], undefined);
            return;
          }
          try {
            set(['jwks'], JSON.parse(event.target.value));
            setParseError(false);
          } catch {
            setParseError(true);
          }
        }}
      />
      <p id={`${id}-help`} className="foyer-help">
        {t('client.jwksHelp')}
      </p>
      {error && (
        <p id={`${id}-error`} className="foyer-field-error">
          {error}
        </p>
      )}
    </div>
  );
}
