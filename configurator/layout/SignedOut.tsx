// Signed out: what the console is, "Sign in" (the hosted login of the console app, coming back to
// the page asked for) and "Create an account" (the hosted signup, which gives the owner a workspace).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../src/theme/Button.tsx';
import { consoleSignupUrl } from '../config.ts';
import { useConsole } from '../session.tsx';
import { usePageTitle } from './usePageTitle.ts';

export function SignedOut({ returnPath }: { returnPath?: string }) {
  const { t } = useTranslation();
  const { auth, config } = useConsole();
  const [leaving, setLeaving] = useState(false);
  usePageTitle(t('signedOut.signIn'));
  return (
    <main className="foyer-auth">
      <div className="foyer-card">
        <h1 className="foyer-heading">{t('signedOut.heading')}</h1>
        <p className="foyer-subheading">{t('signedOut.intro')}</p>
        <Button
          loading={leaving}
          onClick={() => {
            setLeaving(true);
            void auth.login(returnPath);
          }}
        >
          {t('signedOut.signIn')}
        </Button>
        <p className="foyer-center">
          {t('signedOut.noAccount')} <a href={consoleSignupUrl(config)}>{t('signedOut.createAccount')}</a>
        </p>
      </div>
    </main>
  );
}
