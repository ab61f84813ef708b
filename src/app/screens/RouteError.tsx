import { useTexts } from '../../i18n/texts.ts';
import { AppLink } from '../navigation.tsx';

/** The screen of any render failure under the routes (src/app/router.tsx): free of the runtime context so it renders whatever broke. */
export function RouteError() {
  const { t } = useTexts();
  return (
    <div className="foyer-auth">
      <main className="foyer-card" aria-labelledby="foyer-route-error">
        <h1 id="foyer-route-error" className="foyer-heading">
          {t('errors.unexpected')}
        </h1>
        <p className="foyer-center">
          <AppLink to="/auth/login">{t('login.title')}</AppLink>
        </p>
      </main>
    </div>
  );
}
