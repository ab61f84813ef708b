// /auth/error: where a failed page load on the auth service or the hosted UI lands (server/http/errors.ts),
// so a person sees what went wrong in their language and a way back, never a server's raw answer.
import { useTexts } from '../../i18n/texts.ts';
import { Link, useLocation } from 'react-router';
import { Alert } from '../../theme/Alert.tsx';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { usePageTitle } from '../page-title.ts';

/** The message (errorPage.messages.*) of each server error code that has one of its own. */
const MESSAGES: Record<string, string> = {
  INVALID_REDIRECT_URI: 'redirectUri',
  invalid_redirect_uri: 'redirectUri',
  AUTHORIZATION_EXPIRED: 'expired',
  UNAUTHENTICATED: 'signedOut',
  FORBIDDEN: 'forbidden',
  UNKNOWN_APP: 'unknownApp',
  invalid_client: 'unknownApp',
  NOT_FOUND: 'notFound',
  BAD_REQUEST: 'badAddress',
  FEDERATION_STATE_INVALID: 'expired',
  FEDERATION_FAILED: 'federationFailed',
  FEDERATION_PROVIDER_UNAVAILABLE: 'providerUnavailable',
  PAYMENT_PROVIDER_FAILED: 'paymentProvider',
};

export default function ErrorPage() {
  const { t } = useTexts();
  usePageTitle(t('errorPage.heading'));
  const { search } = useLocation();
  const code = new URLSearchParams(search).get('error') ?? '';
  return (
    <AuthLayout heading={t('errorPage.heading')}>
      <Alert variant="danger" title={t('errors.title')}>
        {t(`errorPage.messages.${Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : 'generic'}`)}
      </Alert>
      <p className="foyer-center">
        <Link to="/auth/login">{t('actions.backToLogin')}</Link>
      </p>
    </AuthLayout>
  );
}
