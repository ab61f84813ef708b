// Application type: how the app talks to Foyer's OpenID Provider. Public apps (browser, native) use
// PKCE and hold no secret; confidential ones (server-side) authenticate with a client secret, shown
// once when made, or with JWTs signed by keys they register. The endpoints to configure are shown.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confidentialAuthMethods, type ConfidentialAuthMethod } from '../../../common/app-config.ts';
import { CopyField } from '../../components/CopyField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useConsole } from '../../session.tsx';
import { useEditor } from '../context.ts';
import { PathSwitch, useIssue } from './fields.tsx';
import { SectionHeading } from './SectionHeading.tsx';
import { ShownOnceSecret } from './ShownOnceSecret.tsx';

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
  const { api } = useConsole();
  const { appId, detail } = useEditor();
  return (
    <ShownOnceSecret
      texts="client.secret"
      createdAt={detail.clientSecretCreatedAt}
      make={async () => (await api.regenerateClientSecret(appId)).clientSecret}
    />
  );
}

/** The app's public keys as a JSON Web Key Set; text that is not JSON stays in the field until it is. */
function JwksField() {
  const { t } = useTranslation();
  const { draft, set } = useEditor();
  const issue = useIssue(['jwks']);
  const [text, setText] = useState(() => (draft.config.jwks ? JSON.stringify(draft.config.jwks, null, 2) : ''));
  const [parseError, setParseError] = useState(false);
  return (
    <TextField
      label={t('client.jwks')}
      help={t('client.jwksHelp')}
      error={parseError ? t('client.jwksNotJson') : issue}
      rows={8}
      value={text}
      onChange={(value) => {
        setText(value);
        if (value.trim() === '') {
          setParseError(false);
          set(['jwks'], undefined);
          return;
        }
        try {
          set(['jwks'], JSON.parse(value));
          setParseError(false);
        } catch {
          setParseError(true);
        }
      }}
    />
  );
}
