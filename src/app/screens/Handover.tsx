// /handover/*: an app hands a user over to the hosted runtime. The app id switch (docs/SPEC.md: a different
// ?appId is stored) happens at page load for every address (src/app/launch.ts); the named handover
// flows come later and until then every handover continues to the handover route.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { useRuntime } from '../../runtime/context.tsx';
import { usePageTitle } from '../page-title.ts';

export default function Handover() {
  const { t } = useTranslation();
  usePageTitle(t('handover.redirecting'));
  const { config } = useRuntime();
  const navigate = useNavigate();

  useEffect(() => {
    void navigate(config.handoverRoute || '/', { replace: true });
  }, [config.handoverRoute, navigate]);

  return (
    <AuthLayout heading={t('handover.redirecting')}>
      <p role="status" className="foyer-center">
        {t('handover.redirecting')}
      </p>
    </AuthLayout>
  );
}
