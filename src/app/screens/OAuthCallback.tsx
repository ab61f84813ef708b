// /auth/oauth-callback: finishes the OAuth sign-in, then continues to the onboarding start carrying the
// return path. Failures show in the danger alert with a way to start again, never a stuck spinner.
import { useTexts } from '../../i18n/texts.ts';
import { useNavigate } from 'react-router';
import { useOAuthCallback } from '../../auth/use-oauth-callback.ts';
import { Alert } from '../../theme/Alert.tsx';
import { Button } from '../../theme/Button.tsx';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { useRuntime } from '../../runtime/context.tsx';
import { usePageTitle } from '../page-title.ts';

export const ONBOARDING_START = '/onboard';

export default function OAuthCallback() {
  const { t } = useTexts();
  usePageTitle(t('callback.loggingIn'));
  const { auth } = useRuntime();
  const navigate = useNavigate();
  const failure = useOAuthCallback(
    auth,
    // The onboarding start decides where a fresh sign-in goes; the return path travels along as its target.
    (path) => void navigate(ONBOARDING_START, { replace: true, state: { target: path } }),
    'login.errors.generic',
  );

  return (
    <AuthLayout heading={t('callback.loggingIn')}>
      {failure ? (
        <>
          <Alert variant="danger" title={t('errors.title')}>
            {t(failure)}
          </Alert>
          <Button onClick={() => void auth.login()}>{t('actions.tryAgain')}</Button>
        </>
      ) : (
        <p role="status" className="foyer-center">
          <span className="foyer-spinner foyer-inline" aria-hidden="true" /> {t('callback.loggingIn')}
        </p>
      )}
    </AuthLayout>
  );
}
