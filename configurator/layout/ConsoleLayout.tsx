// The signed-in frame: brand, navigation, the signed-in owner and sign out, then the page. Signed out
// (no session, an expired one, or a 401 from the admin API) every console route shows SignedOut.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { Button } from '../../src/theme/Button.tsx';
import { CONSOLE_BASE_PATH, consoleHomeUrl } from '../config.ts';
import { useConsole, useConsoleAuth } from '../session.tsx';
import { SignedOut } from './SignedOut.tsx';

export function ConsoleLayout() {
  const { t } = useTranslation();
  const auth = useConsoleAuth();
  const { config } = useConsole();
  const location = useLocation();
  const [leaving, setLeaving] = useState(false);

  if (!auth.isAuthenticated()) return <SignedOut returnPath={`${CONSOLE_BASE_PATH}${location.pathname}${location.search}`} />;

  const user = auth.currentUser();
  return (
    <div className="foyer-admin console">
      <a className="foyer-skip-link" href="#console-main">
        {t('layout.skipToContent')}
      </a>
      <header className="foyer-admin__header">
        <div className="foyer-admin__brand">
          <span className="console__brand">{t('app.title')}</span>
          {user.tenant.name && <span className="console__workspace">{user.tenant.name}</span>}
        </div>
        <nav aria-label={t('layout.navLabel')}>
          <ul className="foyer-admin__nav">
            <li>
              <NavLink to="/apps" end className="foyer-admin__link">
                {t('layout.nav.apps')}
              </NavLink>
            </li>
          </ul>
        </nav>
        <div className="foyer-admin__user">
          <span>{user.email}</span>
          <Button
            variant="secondary"
            size="sm"
            className="console__inline-button"
            loading={leaving}
            onClick={() => {
              setLeaving(true);
              void auth.logout(consoleHomeUrl(config));
            }}
          >
            {t('layout.signOut')}
          </Button>
        </div>
      </header>
      <main id="console-main" className="foyer-admin__main console__main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
