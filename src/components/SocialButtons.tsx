// One link per social provider the app switched on, in the provider's own mark and button colours,
// worded for where it shows (SPEC.md section 2): 'Sign in with …' on the login, 'Sign up with …' on the
// signup, 'Continue with …' on the federated continue screen, which shows only the forced provider.
// Each leads to the auth service's /federated/{type}/login or /signup, naming the app so the answer
// works without a pending authorization.
import { useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { useRuntime } from '../runtime/context.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { federationTypeOf, socialProviderOf, socialProviders, type SocialProvider } from '../../common/app-config.ts';
import { ProviderMark } from '../theme/ProviderMark.tsx';

export type SocialButtonsMode = 'signIn' | 'signUp' | 'continue';

function providersOf(value: unknown): SocialProvider[] {
  if (!Array.isArray(value)) return [];
  return socialProviders.filter((provider) => value.includes(provider));
}

function modeOf(value: unknown): SocialButtonsMode {
  return value === 'signUp' || value === 'continue' ? value : 'signIn';
}

export function socialLoginUrl(authUrl: string, provider: SocialProvider, appId: string, action: 'login' | 'signup' = 'login'): string {
  const url = `${authUrl}/federated/${encodeURIComponent(federationTypeOf[provider])}/${action}`;
  return appId ? `${url}?appId=${encodeURIComponent(appId)}` : url;
}

export default function SocialButtons({ props }: FlowComponentProps) {
  const { t } = useTexts();
  const { config } = useRuntime();
  // The clicked link shows the busy state while the browser leaves for the provider.
  const [leavingFor, setLeavingFor] = useState<SocialProvider | null>(null);
  const mode = modeOf(props.mode);
  // The continue screen names its one provider by its address type (?federation=ms-azure-ad).
  const forced = typeof props.federation === 'string' ? socialProviderOf(props.federation) : undefined;
  const providers = mode === 'continue' ? (forced ? [forced] : []) : providersOf(props.providers);
  if (providers.length === 0) return null;
  // Continuing after a login that found no account creates the account.
  const action = mode === 'signIn' ? 'login' : 'signup';
  return (
    <ul className="foyer-stack foyer-plain-list" aria-label={t('login.social.label')}>
      {providers.map((provider) => (
        <li key={provider}>
          <a
            className={`foyer-button foyer-button--lg foyer-social foyer-social--${provider}`}
            href={socialLoginUrl(config.authUrl, provider, config.appId, action)}
            aria-busy={leavingFor === provider || undefined}
            aria-disabled={(leavingFor !== null && leavingFor !== provider) || undefined}
            onClick={(event) => {
              // One provider at a time: a second click while the browser leaves does nothing.
              if (leavingFor !== null) event.preventDefault();
              else setLeavingFor(provider);
            }}
          >
            {leavingFor === provider ? <span className="foyer-spinner" aria-hidden="true" /> : <ProviderMark provider={provider} />}
            {t(`login.social.${mode}.${provider}`)}
          </a>
        </li>
      ))}
    </ul>
  );
}
