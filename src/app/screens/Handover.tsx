// /handover/*: an app hands a user over to the hosted runtime. This issue covers the app id switch
// (SPEC.md: a different ?appId is stored and the page reloads); the named handover flows come later
// and until then every handover continues to the handover route.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { STORAGE_PREFIX } from '../../config.ts';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { useRuntime } from '../runtime.tsx';

export const APP_ID_KEY = `${STORAGE_PREFIX}APP_ID`;

export default function Handover() {
  const { t } = useTranslation();
  const { config } = useRuntime();
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const appId = new URLSearchParams(location.search).get('appId');
    if (appId && appId !== config.appId) {
      localStorage.setItem(APP_ID_KEY, appId);
      globalThis.location.reload();
      return;
    }
    void navigate(config.handoverRoute || '/', { replace: true });
  }, [config.appId, config.handoverRoute, location.search, navigate]);

  return (
    <AuthLayout heading={t('handover.redirecting')}>
      <p role="status" className="foyer-center">
        {t('handover.redirecting')}
      </p>
    </AuthLayout>
  );
}
