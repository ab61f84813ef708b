// One "Continue with …" link per social provider the app switched on, in the provider's own mark and
// button colours. Each leads to the auth service's /federated/{provider}/login, naming the app so the
// answer works without a pending authorization.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntime } from '../runtime/context.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { socialProviders, type SocialProvider } from '../../common/app-config.ts';
import { ProviderMark } from '../theme/ProviderMark.tsx';

function providersOf(value: unknown): SocialProvider[] {
  if (!Array.isArray(value)) return [];
  return socialProviders.filter((provider) => value.includes(provider));
}

export function socialLoginUrl(authUrl: string, provider: SocialProvider, appId: string): string {
  const url = `${authUrl}/federated/${encodeURIComponent(provider)}/login`;
  return appId ? `${url}?appId=${encodeURIComponent(appId)}` : url;
}

export default function SocialButtons({ props }: FlowComponentProps) {
  const { t } = useTranslation();
  const { config } = useRuntime();
  // The clicked link shows the busy state while the browser leaves for the provider.
  const [leavingFor, setLeavingFor] = useState<SocialProvider | null>(null);
  const providers = providersOf(props.providers);
  if (providers.length === 0) return null;
  return (
    <ul className="foyer-stack foyer-plain-list" aria-label={t('login.social.label')}>
      {providers.map((provider) => (
        <li key={provider}>
          <a
            className={`foyer-button foyer-button--lg foyer-social foyer-social--${provider}`}
            href={socialLoginUrl(config.authUrl, provider, config.appId)}
            aria-busy={leavingFor === provider || undefined}
            onClick={() => setLeavingFor(provider)}
          >
            {leavingFor === provider ? <span className="foyer-spinner" aria-hidden="true" /> : <ProviderMark provider={provider} />}
            {t(`login.social.${provider}`)}
          </a>
        </li>
      ))}
    </ul>
  );
}
