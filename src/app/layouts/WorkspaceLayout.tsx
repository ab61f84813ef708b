// The signed-in management frame: workspace logo and name, navigation between Users, Workspace and
// Profile, log out, and the page. Its guard runs before anything renders: a signed-out visitor sees
// only a redirect notice while the browser leaves for the login (coming back here afterwards), never
// the management content. The runtime renders after the start-up auth check, so the answer is final.
import type { ReactNode } from 'react';
import { useTexts } from '../../i18n/texts.ts';
import { Link, Outlet, useLocation } from 'react-router';
import { useAppConfig, useAuthChanges } from '../../runtime/context.tsx';
import { BrandMark } from '../../theme/BrandMark.tsx';
import type { AuthLayoutProps } from './AuthLayout.tsx';
import { WorkspaceSwitcher } from './WorkspaceSwitcher.tsx';
import { useSignInGuard } from '../sign-in-guard.ts';

/** The management pages a signed-in user may open, by the privilege each needs (none: everyone). */
export const MANAGEMENT_PAGES = [
  // The users table is also served at /user/list (docs/SPEC.md section 2).
  { to: '/user-management/users', label: 'management.nav.users', alsoAt: '/user/' },
  { to: '/user-management/workspace', label: 'management.nav.workspace', privilege: 'TENANT_WRITE' },
  { to: '/user-management/activity', label: 'management.nav.activity', privilege: 'TENANT_WRITE' },
  { to: '/user-management/profile', label: 'management.nav.profile' },
] as const;

function isCurrentPage(page: (typeof MANAGEMENT_PAGES)[number], pathname: string): boolean {
  return pathname.startsWith(page.to) || ('alsoAt' in page && pathname.startsWith(page.alsoAt));
}

export function WorkspaceLayout() {
  const { t } = useTexts();
  const auth = useAuthChanges();
  const app = useAppConfig();
  const location = useLocation();
  const authenticated = useSignInGuard();

  if (!authenticated) {
    return (
      <main className="foyer-auth">
        <p role="status">{t('handover.redirecting')}</p>
      </main>
    );
  }

  const user = auth.currentUser();
  const privileges = user.privileges ?? [];
  const workspace = user.tenant.name || t('chooseUser.newAccount');
  const logo = user.tenant.logo || app?.logo;
  return (
    <div className="foyer-admin">
      <a className="foyer-skip-link" href="#foyer-main">
        {t('management.skipToContent')}
      </a>
      <header className="foyer-admin__header">
        <div className="foyer-admin__brand">
          <BrandMark className="foyer-admin__logo" src={logo} name={workspace} alt={t('workspace.logoAlt', { name: workspace })} />
          <span className="foyer-admin__workspace">{workspace}</span>
        </div>
        <nav aria-label={t('management.nav.label')}>
          <ul className="foyer-admin__nav">
            {MANAGEMENT_PAGES.filter((page) => !('privilege' in page) || privileges.includes(page.privilege)).map((page) => (
              <li key={page.to}>
                <Link to={page.to} className="foyer-admin__link" aria-current={isCurrentPage(page, location.pathname) ? 'page' : undefined}>
                  {t(page.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="foyer-admin__user">
          <WorkspaceSwitcher />
          <span>{user.fullName || user.email}</span>
          <Link to="/auth/logout" className="foyer-admin__link">
            {t('actions.logout')}
          </Link>
        </div>
      </header>
      <main id="foyer-main" className="foyer-admin__main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

/** One management page inside WorkspaceLayout: the heading (focus target of a new step) and the content. */
export function AdminPage({ heading, subheading, headingRef, children }: AuthLayoutProps): ReactNode {
  return (
    <div className="foyer-panel">
      <h1 id="foyer-heading" className="foyer-panel__heading" tabIndex={-1} ref={headingRef}>
        {heading}
      </h1>
      {subheading && <p className="foyer-subheading foyer-panel__subheading">{subheading}</p>}
      {children}
    </div>
  );
}
