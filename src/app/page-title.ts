// The document title of a hosted screen: the screen's own title joined with the app's name (docs/SPEC.md
// section 2: 'Login', 'Choose workspace', …), so tabs and screen readers can tell screens apart.
import { useEffect } from 'react';
import { useTexts, type Translate } from '../i18n/texts.ts';
import { useAppConfig } from '../runtime/context.tsx';

/** The title of the screen `page` of the app named `appName` (none: the default title); the server's first paint says it too. */
export function pageTitle(t: Translate, page: string, appName: string | null | undefined): string {
  return t('app.pageTitle', { page, app: appName || t('app.defaultTitle') });
}

export function usePageTitle(page: string): void {
  const { t } = useTexts();
  const appName = useAppConfig()?.name;
  useEffect(() => {
    document.title = pageTitle(t, page, appName);
  }, [appName, page, t]);
}
