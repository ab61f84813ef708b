// /ms-marketplace-landing (SPEC.md section 2): where the Azure Marketplace handover lands after a
// purchase. 'Continue' signs in through Microsoft (the forced federation ms-azure-ad).
import { useTexts } from '../../i18n/texts.ts';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { useRuntime } from '../../runtime/context.tsx';
import { usePageTitle } from '../page-title.ts';
import { socialLoginUrl } from '../../components/SocialButtons.tsx';

export default function MarketplaceLanding() {
  const { t } = useTexts();
  usePageTitle(t('marketplace.heading'));
  const { config } = useRuntime();
  return (
    <AuthLayout heading={t('marketplace.heading')}>
      <a className="foyer-button foyer-button--lg foyer-button--primary" href={socialLoginUrl(config.authUrl, 'azureAd', config.appId)}>
        {t('actions.continue')}
      </a>
    </AuthLayout>
  );
}
