// /auth/logout: clears everything and leaves for the auth service's logout URL.
import { useEffect, useRef } from 'react';
import { useTexts } from '../../i18n/texts.ts';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { useRuntime } from '../../runtime/context.tsx';
import { usePageTitle } from '../page-title.ts';

export default function Logout() {
  const { t } = useTexts();
  usePageTitle(t('logout.loggingOut'));
  const { auth } = useRuntime();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void auth.logout();
  }, [auth]);
  return (
    <AuthLayout heading={t('logout.loggingOut')}>
      <p role="status" className="foyer-center">
        {t('logout.loggingOut')}
      </p>
    </AuthLayout>
  );
}
