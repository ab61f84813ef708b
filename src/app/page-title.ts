// The document title of a hosted screen: the screen's own title joined with the app's name (docs/SPEC.md
// section 2: 'Login', 'Choose workspace', …), so tabs and screen readers can tell screens apart.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../runtime/context.tsx';

export function usePageTitle(page: string): void {
  const { t } = useTranslation();
  const appName = useAppConfig()?.name || t('app.defaultTitle');
  useEffect(() => {
    document.title = t('app.pageTitle', { page, app: appName });
  }, [appName, page, t]);
}
