import { useTexts } from '../../i18n/texts.ts';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { usePageTitle } from '../page-title.ts';

/** Shown on every path but /handover when the configured app id names no app. */
export function UnknownApp() {
  const { t } = useTexts();
  usePageTitle(t('errors.unknownApp.title'));
  return (
    <AuthLayout heading={t('errors.unknownApp.title')}>
      <p className="foyer-center">{t('errors.unknownApp.message')}</p>
    </AuthLayout>
  );
}
