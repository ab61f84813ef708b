// Sign-in options: methods, social providers with their credentials (a secret goes in, only "set"
// comes back), workspaces and two-factor, legal links, redirect URIs and token lifetimes.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { federationTypeOf, socialProviderFlags, socialProviders, type SocialProvider } from '../../../common/app-config.ts';
import { CopyField } from '../../components/CopyField.tsx';
import { useConsole } from '../../session.tsx';
import { TextField } from '../../components/TextField.tsx';
import { getIn } from '../config-path.ts';
import { useEditor } from '../context.ts';
import { PathInteger, PathSwitch, PathText, useIssue } from './fields.tsx';
import { SectionHeading } from './SectionHeading.tsx';
import { UriList } from './UriList.tsx';
import { ROLES } from '../../../common/roles.ts';

export function SignInSection() {
  const { t } = useTranslation();
  const { draft, set } = useEditor();
  const onboardingFlow = draft.config.onboardingFlow ?? '';
  const defaultRole = draft.config.defaultRole ?? 'VIEWER';
  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.signIn" intro="signIn.intro" />
      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('signIn.methods')}</legend>
        <PathSwitch path={['passwordEnabled']} label={t('signIn.password')} defaultValue />
        <PathSwitch path={['passkeysEnabled']} label={t('signIn.passkeys')} />
        <PathSwitch path={['magicLinkEnabled']} label={t('signIn.magicLink')} />
        <PathSwitch path={['authLegacy']} label={t('signIn.authLegacy')} />
        <p className="foyer-help">{t('signIn.authLegacyHelp')}</p>
      </fieldset>

      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('signIn.social')}</legend>
        <p className="foyer-help">{t('signIn.socialHelp')}</p>
        {socialProviders.map((provider) => (
          <ProviderSettings key={provider} provider={provider} />
        ))}
      </fieldset>

      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('signIn.workspaces')}</legend>
        <PathSwitch path={['tenantSelfSignup']} label={t('signIn.tenantSelfSignup')} />
        <PathSwitch path={['mfaEnabled']} label={t('signIn.mfa')} />
        <div className="foyer-field">
          <label className="foyer-label" htmlFor="onboarding-flow">
            {t('signIn.onboardingFlow')}
          </label>
          <select
            id="onboarding-flow"
            className="foyer-select"
            value={onboardingFlow}
            aria-describedby="onboarding-flow-help"
            onChange={(event) => set(['onboardingFlow'], event.target.value === '' ? null : event.target.value)}
          >
            <option value="B2B">{t('signIn.onboarding.B2B')}</option>
            <option value="B2C">{t('signIn.onboarding.B2C')}</option>
            <option value="">{t('signIn.onboarding.none')}</option>
          </select>
          <p id="onboarding-flow-help" className="foyer-help">
            {t('signIn.onboardingHelp')}
          </p>
        </div>
        <div className="foyer-field">
          <label className="foyer-label" htmlFor="default-role">
            {t('signIn.defaultRole')}
          </label>
          <select
            id="default-role"
            className="foyer-select"
            value={defaultRole}
            onChange={(event) => set(['defaultRole'], event.target.value)}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`roles.${role}`)}
              </option>
            ))}
          </select>
        </div>
      </fieldset>

      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('signIn.legal')}</legend>
        <PathText
          path={['privacyPolicyUrl']}
          label={t('signIn.privacyPolicyUrl')}
          type="url"
          inputMode="url"
          placeholder="https://example.com/privacy"
        />
        <PathText
          path={['termsOfServiceUrl']}
          label={t('signIn.termsOfServiceUrl')}
          type="url"
          inputMode="url"
          placeholder="https://example.com/terms"
        />
      </fieldset>

      <UriList
        field="redirectUris"
        label={t('signIn.redirectUris')}
        itemLabel="signIn.redirectUri"
        addLabel="signIn.addRedirectUri"
        minItems={1}
      />
      <UriList
        field="postLogoutRedirectUris"
        label={t('signIn.postLogoutRedirectUris')}
        itemLabel="signIn.postLogoutRedirectUri"
        addLabel="signIn.addPostLogoutRedirectUri"
      />
      <PathText
        path={['initiateLoginUri']}
        label={t('signIn.initiateLoginUri')}
        type="url"
        inputMode="url"
        placeholder="https://app.example.com/login"
        help={t('signIn.initiateLoginUriHelp')}
      />

      <fieldset className="console-fieldset">
        <legend className="foyer-section-title">{t('signIn.tokens')}</legend>
        <PathInteger
          path={['accessTokenTtl']}
          label={t('signIn.accessTokenTtl')}
          min={60}
          max={86400}
          help={t('signIn.accessTokenTtlHelp')}
        />
        <PathInteger
          path={['refreshTokenTtl']}
          label={t('signIn.refreshTokenTtl')}
          min={3600}
          max={7776000}
          help={t('signIn.refreshTokenTtlHelp')}
        />
      </fieldset>
    </div>
  );
}

function ProviderSettings({ provider }: { provider: SocialProvider }) {
  const { t } = useTranslation();
  const { draft, set } = useEditor();
  const { config } = useConsole();
  const name = t(`providers.${provider}`);
  const secretPath = ['socialProviders', provider, 'clientSecret'];
  const secret = getIn(draft.config, secretPath);
  const hasSecret = getIn(draft.config, ['socialProviders', provider, 'hasClientSecret']) === true;
  const secretIssue = useIssue(secretPath);
  return (
    <div className="console-provider">
      <PathSwitch path={[socialProviderFlags[provider]]} label={t('signIn.providerEnabled', { provider: name })} />
      <div className="console-provider__fields">
        <PathText
          path={['socialProviders', provider, 'clientId']}
          label={t('signIn.clientId', { provider: name })}
          autoComplete="off"
          spellCheck={false}
        />
        {provider === 'apple' ? (
          <>
            <PathText
              path={['socialProviders', provider, 'teamId']}
              label={t('socialCredentials.appleTeamId')}
              autoComplete="off"
              spellCheck={false}
            />
            <PathText
              path={['socialProviders', provider, 'keyId']}
              label={t('socialCredentials.appleKeyId')}
              autoComplete="off"
              spellCheck={false}
            />
            {/* Apple's "client secret" is the .p8 key its secrets are signed with: a few lines of PEM, pasted whole. */}
            <TextField
              label={t('socialCredentials.applePrivateKey')}
              rows={5}
              value={typeof secret === 'string' ? secret : ''}
              onChange={(text) => set(secretPath, text)}
              help={hasSecret ? t('signIn.secretSet') : t('socialCredentials.applePrivateKeyHelp')}
              error={secretIssue}
            />
          </>
        ) : (
          <TextField
            label={t('signIn.clientSecret', { provider: name })}
            type="password"
            autoComplete="new-password"
            value={typeof secret === 'string' ? secret : ''}
            onChange={(text) => set(secretPath, text)}
            help={hasSecret ? t('signIn.secretSet') : t('signIn.secretNotSet')}
            error={secretIssue}
          />
        )}
        {provider === 'azureAd' && <MicrosoftAccounts />}
        <CopyField
          label={t('signIn.providerRedirectUri', { provider: name })}
          value={`${config.authUrl}/federated/${federationTypeOf[provider]}/callback`}
        />
      </div>
    </div>
  );
}

const MICROSOFT_ACCOUNTS = [
  ['common', 'socialCredentials.microsoftAccountsCommon'],
  ['organizations', 'socialCredentials.microsoftAccountsOrganizations'],
  ['consumers', 'socialCredentials.microsoftAccountsConsumers'],
] as const;

/** Which Microsoft authority the app's client signs in with (server/auth/federation/providers.ts). */
function MicrosoftAccounts() {
  const { t } = useTranslation();
  const { draft, set } = useEditor();
  const id = useId();
  const path = ['socialProviders', 'azureAd', 'tenant'];
  const value = getIn(draft.config, path);
  return (
    <div className="foyer-field">
      <label className="foyer-label" htmlFor={id}>
        {t('socialCredentials.microsoftAccounts')}
      </label>
      <select
        id={id}
        className="foyer-select"
        value={typeof value === 'string' ? value : 'common'}
        onChange={(event) => set(path, event.target.value)}
      >
        {MICROSOFT_ACCOUNTS.map(([tenant, label]) => (
          <option key={tenant} value={tenant}>
            {t(label)}
          </option>
        ))}
      </select>
    </div>
  );
}
