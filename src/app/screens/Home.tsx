// "/" host content: the demo customer app. Signed-in users see who they are and in which workspace;
// everyone else is sent to the login, coming back here afterwards.
import { useTexts } from '../../i18n/texts.ts';
import { Link, useLocation } from 'react-router';
import { Alert } from '../../theme/Alert.tsx';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { WorkspaceSwitcher } from '../layouts/WorkspaceSwitcher.tsx';
import { usePageTitle } from '../page-title.ts';
import { useSignInGuard } from '../sign-in-guard.ts';
import { useAuthChanges } from '../../runtime/context.tsx';

export default function Home() {
  const { t } = useTexts();
  const auth = useAuthChanges();
  const location = useLocation();
  const authenticated = useSignInGuard();
  usePageTitle(t(authenticated ? 'home.title' : 'handover.redirecting'));

  if (!authenticated) {
    return (
      <AuthLayout heading={t('handover.redirecting')}>
        <p role="status" className="foyer-center">
          {t('handover.redirecting')}
        </p>
      </AuthLayout>
    );
  }

  const user = auth.currentUser();
  // A used sign-in link opened while signed in comes back here (flows/login.json) rather than signing out.
  const magicLinkUsed = (location.state as { notice?: unknown } | null)?.notice === 'magicLinkUsed';
  return (
    <AuthLayout heading={t('home.title')}>
      {magicLinkUsed && (
        <Alert variant="primary" polite>
          {t('home.magicLinkUsed')}
        </Alert>
      )}
      <dl className="foyer-details">
        <dt>{t('home.name')}</dt>
        <dd>{user.fullName}</dd>
        <dt>{t('home.email')}</dt>
        <dd>{user.email}</dd>
        <dt>{t('home.workspace')}</dt>
        <dd>{user.tenant.name || t('chooseUser.newAccount')}</dd>
        <dt>{t('home.role')}</dt>
        <dd>{t(`roles.${user.role}`, { defaultValue: user.role })}</dd>
        <dt>{t('home.plan')}</dt>
        <dd>{user.plan ?? t('home.noPlan')}</dd>
      </dl>
      <div className="foyer-actions">
        <Link className="foyer-button foyer-button--secondary foyer-button--md" to="/tenant/plan">
          {t('home.plans')}
        </Link>
        <WorkspaceSwitcher />
        <Link className="foyer-button foyer-button--secondary foyer-button--md" to="/auth/logout">
          {t('actions.logout')}
        </Link>
      </div>
    </AuthLayout>
  );
}
