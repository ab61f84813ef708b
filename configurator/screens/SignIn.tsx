// /configurator/sign-in: the console app's sign-in start (its initiate_login_uri, server/apps/console.ts).
// A workspace chosen on a hosted screen that the console did not send the owner to lands here, and
// the sign-in it starts at once takes that choice without asking again.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { CONSOLE_BASE_PATH } from '../config.ts';
import { usePageTitle } from '../layout/usePageTitle.ts';
import { useConsole } from '../session.tsx';

export function SignIn() {
  const { t } = useTranslation();
  const { auth } = useConsole();
  const signedIn = auth.isAuthenticated();
  const started = useRef(false);
  usePageTitle(t('callback.signingIn'));

  useEffect(() => {
    if (signedIn || started.current) return;
    started.current = true;
    void auth.login(`${CONSOLE_BASE_PATH}/apps`);
  }, [auth, signedIn]);

  if (signedIn) return <Navigate to="/apps" replace />;
  return (
    <main className="foyer-auth">
      <div className="foyer-card">
        <h1 className="foyer-heading">{t('callback.signingIn')}</h1>
        <p role="status" className="foyer-center">
          <span className="foyer-spinner foyer-inline" aria-hidden="true" /> {t('callback.signingIn')}
        </p>
      </div>
    </main>
  );
}
