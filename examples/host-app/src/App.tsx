// The example's screens: everything about the person and the session comes from @foyer/react.
import { FoyerCallback, Gate, useCurrentUser, useFoyer, type FoyerUser } from '@foyer/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Routes, useNavigate } from 'react-router';

export function App() {
  return (
    <>
      <Header />
      <main>
        <Routes>
          <Route path="/" element={<Loaded page={<Home />} />} />
          <Route path="/owners" element={<Loaded page={<OwnersPage />} />} />
          <Route path="/team" element={<Loaded page={<TeamPage />} />} />
          <Route path="/callback" element={<Callback />} />
        </Routes>
      </main>
    </>
  );
}

/** A page, once the stored session has loaded (the callback page loads none: it makes one). */
function Loaded({ page }: { page: ReactNode }) {
  const { t } = useTranslation();
  const { status } = useFoyer();
  return status === 'loading' ? <p role="status">{t('app.loading')}</p> : <>{page}</>;
}

function Header() {
  const { t } = useTranslation();
  const { user, login, logout, switchWorkspace, userManagementUrl } = useFoyer();
  return (
    <header>
      <nav aria-label={t('app.navLabel')}>
        <ul>
          <li>
            <Link to="/">{t('nav.home')}</Link>
          </li>
          <li>
            <Link to="/owners">{t('nav.owners')}</Link>
          </li>
          <li>
            <Link to="/team">{t('nav.team')}</Link>
          </li>
        </ul>
      </nav>
      {user ? (
        <div className="actions">
          {user.multiTenant && (
            <button type="button" onClick={() => void switchWorkspace(location.pathname)}>
              {t('session.switchWorkspace')}
            </button>
          )}
          <a href={userManagementUrl('users')}>{t('session.manageUsers')}</a>
          <a href={userManagementUrl('profile')}>{t('session.profile')}</a>
          <button type="button" onClick={() => void logout()}>
            {t('session.signOut')}
          </button>
        </div>
      ) : (
        <div className="actions">
          <button type="button" onClick={() => void login(location.pathname)}>
            {t('session.signIn')}
          </button>
        </div>
      )}
    </header>
  );
}

function Home() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  if (!user) {
    return (
      <>
        <h1>{t('home.welcome')}</h1>
        <p>{t('home.signedOutText')}</p>
      </>
    );
  }
  return (
    <>
      <h1>{t('home.greeting', { name: user.fullName || user.email })}</h1>
      <dl>
        <dt>{t('home.email')}</dt>
        <dd>{user.email}</dd>
        <dt>{t('home.role')}</dt>
        <dd>{roleLabel(user, t)}</dd>
        <dt>{t('home.workspace')}</dt>
        <dd>{user.tenant.name}</dd>
        <dt>{t('home.plan')}</dt>
        <dd>{user.tenant.plan ?? t('home.noPlan')}</dd>
      </dl>
    </>
  );
}

function roleLabel(user: FoyerUser, t: (key: string) => string): string {
  return t(`roles.${user.role ?? 'none'}`);
}

/** Pages for signed-in people only: others are asked to sign in. */
function SignedIn({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return user ? <>{children}</> : <p>{t('signInNeeded')}</p>;
}

function OwnersPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <>
      <h1>{t('owners.heading')}</h1>
      <SignedIn>
        <Gate roles={['OWNER']} fallback={<p role="alert">{t('owners.refused')}</p>}>
          <p>{t('owners.text', { workspace: user?.tenant.name })}</p>
        </Gate>
      </SignedIn>
    </>
  );
}

function TeamPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <>
      <h1>{t('team.heading')}</h1>
      <SignedIn>
        <Gate plans={['TEAM']} fallback={<p role="alert">{t('team.refused', { plan: user?.tenant.plan ?? t('home.noPlan') })}</p>}>
          <p>{t('team.text', { workspace: user?.tenant.name })}</p>
        </Gate>
      </SignedIn>
    </>
  );
}

function Callback() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { login } = useFoyer();
  return (
    <FoyerCallback
      onSignedIn={(returnTo) => navigate(returnTo && returnTo !== '/callback' ? returnTo : '/', { replace: true })}
      renderError={() => (
        <>
          <p role="alert">{t('callback.failed')}</p>
          <button type="button" onClick={() => void login()}>
            {t('callback.retry')}
          </button>
        </>
      )}
    >
      <p role="status">{t('callback.signingIn')}</p>
    </FoyerCallback>
  );
}
