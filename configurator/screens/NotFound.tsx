import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageTitle } from '../layout/usePageTitle.ts';

export function NotFound() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.heading'));
  return (
    <div className="foyer-panel">
      <h1 className="foyer-panel__heading">{t('notFound.heading')}</h1>
      <p>{t('notFound.message')}</p>
      <Link to="/apps">{t('layout.nav.apps')}</Link>
    </div>
  );
}
