// The workspace's logo on its settings screen, with the placeholder when none is set or it fails to load.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PLACEHOLDER_LOGO } from '../app/layouts/AuthLayout.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';

export default function WorkspaceLogo({ props }: FlowComponentProps) {
  const { t } = useTranslation();
  const logo = typeof props.logo === 'string' && props.logo ? props.logo : PLACEHOLDER_LOGO;
  const name = typeof props.name === 'string' ? props.name : '';
  const [failed, setFailed] = useState<string | null>(null);
  const shown = failed === logo ? PLACEHOLDER_LOGO : logo;
  return (
    <figure className="foyer-workspace-logo">
      <img src={shown} alt={name ? t('workspace.logoAlt', { name }) : t('app.placeholderLogoAlt')} onError={() => setFailed(logo)} />
      <figcaption>{t('workspace.logo')}</figcaption>
    </figure>
  );
}
