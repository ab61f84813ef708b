// What every screen of the runtime is drawn in, under React Router (src/app/router.tsx Shell) and on a
// hydrated first step (src/app/first-step.tsx): the screen's language, the session check and the
// unknown-app gate (each screen sets its page title).
import { Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { browserLanguages, screenLanguage, signedInLocale } from '../i18n/choice.ts';
import { useLanguageChoice } from '../i18n/choice-context.ts';
import { showLanguage } from '../i18n/index.ts';
import { useAppConfig, useAuthChanges, useRuntime } from '../runtime/context.tsx';
import { useSessionCheck } from './session-check.ts';
import { UnknownApp } from './screens/UnknownApp.tsx';

export function ScreenShell({ pathname, children }: { pathname: string; children: ReactNode }) {
  const { i18n } = useTranslation();
  const { appConfig, config } = useRuntime();
  const app = useAppConfig();
  const auth = useAuthChanges();
  const [chosen] = useLanguageChoice();
  const language = screenLanguage({ userLocale: signedInLocale(auth), chosen, preferred: browserLanguages(), app });
  useSessionCheck();

  useEffect(() => {
    // The configurator picks the preview's language (src/preview/listener.ts).
    if (!config.preview) void showLanguage(i18n, language);
  }, [i18n, language, config.preview]);

  if (appConfig.status === 'unknown-app' && !pathname.startsWith('/handover')) return <UnknownApp />;
  return <Suspense fallback={null}>{children}</Suspense>;
}
