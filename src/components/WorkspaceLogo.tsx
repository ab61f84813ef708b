// The workspace's logo on its settings screen, or its initials when none is set or it fails to load.
import { useTranslation } from 'react-i18next';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { BrandMark } from '../theme/BrandMark.tsx';

export default function WorkspaceLogo({ props }: FlowComponentProps) {
  const { t } = useTranslation();
  const logo = typeof props.logo === 'string' && props.logo ? props.logo : undefined;
  const name = typeof props.name === 'string' && props.name ? props.name : t('chooseUser.newAccount');
  return (
    <figure className="foyer-workspace-logo">
      <BrandMark className="foyer-workspace-logo__mark" src={logo} name={name} alt={t('workspace.logoAlt', { name })} />
      <figcaption>{t('workspace.logo')}</figcaption>
    </figure>
  );
}
