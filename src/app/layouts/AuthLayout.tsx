// The layout every /auth screen shares: logo, heading, sub-heading, card, footer.
import type { ReactNode, Ref } from 'react';
import { useTexts } from '../../i18n/texts.ts';
import { offeredLocales } from '../../../common/locales.ts';
import { useLanguageChoice } from '../../i18n/choice-context.ts';
import { BrandMark } from '../../theme/BrandMark.tsx';
import { LanguageSwitch } from '../../theme/LanguageSwitch.tsx';
import { useAppConfig, useAuthChanges, useRuntime } from '../../runtime/context.tsx';

export interface AuthLayoutProps {
  heading: ReactNode;
  subheading?: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
  children?: ReactNode;
}

export function AuthLayout({ heading, subheading, headingRef, children }: AuthLayoutProps) {
  const { t, texts } = useTexts();
  const { config } = useRuntime();
  const app = useAppConfig();
  const auth = useAuthChanges();
  const [, choose] = useLanguageChoice();
  // Signed in, the workspace's locale decides (SPEC.md section 1); the switch is for visitors.
  const languages = auth.isAuthenticated() ? [] : offeredLocales({ languages: app?.languages ?? undefined });
  const tenantLogo = auth.isAuthenticated() ? auth.currentUser().tenant.logo : undefined;
  const logo = tenantLogo || app?.logo;
  const appName = app?.name || t('app.defaultTitle');
  const year = new Date().getFullYear();
  return (
    <div className="foyer-auth">
      <main className="foyer-card" aria-labelledby="foyer-heading">
        <BrandMark className="foyer-logo" src={logo} name={appName} alt={t('app.logoAlt', { name: appName })} />
        <h1 id="foyer-heading" className="foyer-heading" tabIndex={-1} ref={headingRef}>
          {heading}
        </h1>
        {subheading && <p className="foyer-subheading">{subheading}</p>}
        {children}
      </main>
      <footer className="foyer-footer">
        <span>{app?.copyrightFooter || config.copyrightFooter || t('footer.copyright', { year })}</span>
        {app?.privacyPolicyUrl && <a href={app.privacyPolicyUrl}>{t('footer.privacyPolicy')}</a>}
        {languages.length > 1 && (
          <LanguageSwitch label={t('fields.locale')} languages={languages} value={texts.language} onChange={choose} />
        )}
      </footer>
    </div>
  );
}
