import { useTranslation } from 'react-i18next';
import { Alert } from '../../src/theme/Alert.tsx';
import { CONSOLE_APPS_PATH } from '../config.ts';

/** A render failure anywhere in the console (docs/SPEC.md's route error text). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <main className="foyer-auth">
      <div className="foyer-card">
        <h1 className="foyer-heading">{t('errors.unexpected')}</h1>
        <Alert variant="danger" title={t('errors.title')}>
          {t('errors.reload')}
        </Alert>
        <a href={CONSOLE_APPS_PATH}>{t('layout.nav.apps')}</a>
      </div>
    </main>
  );
}
