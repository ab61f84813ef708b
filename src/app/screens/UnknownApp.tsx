import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../layouts/AuthLayout.tsx';

/** Shown on every path but /handover when the configured app id names no app. */
export function UnknownApp() {
  const { t } = useTranslation();
  return (
    <AuthLayout heading={t('errors.unknownApp.title')}>
      <p className="foyer-center">{t('errors.unknownApp.message')}</p>
    </AuthLayout>
  );
}
