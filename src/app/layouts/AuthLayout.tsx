// The layout every /auth screen shares: logo, heading, sub-heading, card, footer.
import { useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig, useAuthChanges, useRuntime } from '../runtime.tsx';

export const PLACEHOLDER_LOGO = `${import.meta.env.BASE_URL}placeholder-logo.svg`;

function Logo({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const shown = failed === src ? PLACEHOLDER_LOGO : src;
  return <img className="foyer-logo" src={shown} alt={alt} onError={() => setFailed(src)} />;
}

export interface AuthLayoutProps {
  heading: ReactNode;
  subheading?: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
  children?: ReactNode;
}

export function AuthLayout({ heading, subheading, headingRef, children }: AuthLayoutProps) {
  const { t } = useTranslation();
  const { config } = useRuntime();
  const app = useAppConfig();
  const auth = useAuthChanges();
  const tenantLogo = auth.isAuthenticated() ? auth.currentUser().tenant.logo : undefined;
  const logo = tenantLogo || app?.logo || PLACEHOLDER_LOGO;
  const year = new Date().getFullYear();
  return (
    <div className="foyer-auth">
      <main className="foyer-card" aria-labelledby="foyer-heading">
        <Logo src={logo} alt={app?.name ? t('app.logoAlt', { name: app.name }) : t('app.placeholderLogoAlt')} />
        <h1 id="foyer-heading" className="foyer-heading" tabIndex={-1} ref={headingRef}>
          {heading}
        </h1>
        {subheading && <p className="foyer-subheading">{subheading}</p>}
        {children}
      </main>
      <footer className="foyer-footer">
        <span>{app?.copyrightFooter || config.copyrightFooter || t('footer.copyright', { year })}</span>
        {app?.privacyPolicyUrl && <a href={app.privacyPolicyUrl}>{t('footer.privacyPolicy')}</a>}
      </footer>
    </div>
  );
}
