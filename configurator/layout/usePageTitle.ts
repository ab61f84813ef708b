import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the document title to "<page> · Foyer console". */
export function usePageTitle(page: string | undefined): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = page ? t('app.pageTitle', { page }) : t('app.title');
  }, [page, t]);
}

/** For screens that show a title only in some states (loading, failure). */
export function PageTitle({ page }: { page: string }): null {
  usePageTitle(page);
  return null;
}
