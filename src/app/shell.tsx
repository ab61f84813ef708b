// What every screen of the runtime is drawn in, under React Router (src/app/router.tsx Shell) and on a
// hydrated first step (src/app/first-step.tsx): the screen's language, the session check and the
// unknown-app gate (each screen sets its page title).
import { Suspense, useEffect, type ReactNode } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { browserLanguages, screenLanguage, signedInLocale } from '../i18n/choice.ts';
import { useLanguageChoice } from '../i18n/choice-context.ts';
import { useAppConfig, useAuthChanges, useRuntime } from '../runtime/context.tsx';
import { useSessionCheck } from './session-check.ts';
import { UnknownApp } from './screens/UnknownApp.tsx';

export function ScreenShell({ pathname, children }: { pathname: string; children: ReactNode }) {
  const { showLanguage } = useTexts().texts;
  const { appConfig, config } = useRuntime();
  const app = useAppConfig();
  const auth = useAuthChanges();
  const [chosen] = useLanguageChoice();
  const language = screenLanguage({ userLocale: signedInLocale(auth), chosen, preferred: browserLanguages(), app });
  useSessionCheck();

  useEffect(() => {
    // The configurator picks the preview's language (src/preview/listener.ts).
    // Until i18next has loaded (src/app/first-step.tsx) the drawn language shows, then this runs again.
    if (!config.preview) void showLanguage?.(language);
  }, [showLanguage, language, config.preview]);

  if (appConfig.status === 'unknown-app' && !pathname.startsWith('/handover')) return <UnknownApp />;
  return <Suspense fallback={null}>{children}</Suspense>;
}
