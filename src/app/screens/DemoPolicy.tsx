// /privacy and /terms: the demo app's own policy pages (server/seed/demo.ts points its links here), so
// the demo's links lead somewhere real. Any other app's links open the addresses its owner configured.
import { useTexts } from '../../i18n/texts.ts';
import { Link } from 'react-router';
import { usePageTitle } from '../page-title.ts';
import { AuthLayout } from '../layouts/AuthLayout.tsx';

export function DemoPolicy({ kind }: { kind: 'privacy' | 'terms' }) {
  const { t } = useTexts();
  usePageTitle(t(`demoPolicy.${kind}.title`));
  return (
    <AuthLayout heading={t(`demoPolicy.${kind}.title`)}>
      <p>{t(`demoPolicy.${kind}.body`)}</p>
      <p className="foyer-center">
        <Link to="/">{t('demoPolicy.back')}</Link>
      </p>
    </AuthLayout>
  );
}

export const PrivacyPolicy = () => <DemoPolicy kind="privacy" />;
export const TermsOfService = () => <DemoPolicy kind="terms" />;
