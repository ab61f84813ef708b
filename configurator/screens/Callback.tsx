// /configurator/callback: finishes the console's OAuth sign-in, then opens the page the owner asked
// for (a same-origin path under /configurator) or the apps list.
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useOAuthCallback } from '../../src/auth/use-oauth-callback.ts';
import { Alert } from '../../src/theme/Alert.tsx';
import { Button } from '../../src/theme/Button.tsx';
import { CONSOLE_BASE_PATH } from '../config.ts';
import { usePageTitle } from '../layout/usePageTitle.ts';
import { useConsole } from '../session.tsx';

/** The router path of a full console path ('/configurator/apps/x' → '/apps/x'); other paths go to the apps. */
export function routerPath(fullPath: string): string {
  if (fullPath === CONSOLE_BASE_PATH) return '/';
  return fullPath.startsWith(`${CONSOLE_BASE_PATH}/`) ? fullPath.slice(CONSOLE_BASE_PATH.length) : '/apps';
}

export function Callback() {
  const { t } = useTranslation();
  const { auth } = useConsole();
  const navigate = useNavigate();
  usePageTitle(t('callback.signingIn'));
  const failure = useOAuthCallback(auth, (path) => void navigate(routerPath(path), { replace: true }), 'auth.errors.loginFailed');

  return (
    <main className="foyer-auth">
      <div className="foyer-card">
        <h1 className="foyer-heading">{t('callback.signingIn')}</h1>
        {failure ? (
          <>
            <Alert variant="danger" title={t('errors.title')}>
              {t(failure)}
            </Alert>
            <Button onClick={() => void auth.login()}>{t('actions.tryAgain')}</Button>
          </>
        ) : (
          <p role="status" className="foyer-center">
            <span className="foyer-spinner foyer-inline" aria-hidden="true" /> {t('callback.signingIn')}
          </p>
        )}
      </div>
    </main>
  );
}
