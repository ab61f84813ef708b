// The runtime's screens under React Router (./router.tsx): what a page the server did not draw renders
// at start (src/start.tsx), and what a hydrated first step (./first-step.tsx) hands over to at its
// first move to another path. The configurator's preview frame, never drawn, starts here too.
import { useEffect, useRef } from 'react';
import type { i18n as I18n } from 'i18next';
import { BrowserRouter, useNavigate } from 'react-router';
import type { LanguageChoiceStore } from '../i18n/choice.ts';
import type { TextsStore } from '../i18n/texts.ts';
import { CUSTOM_CSS_LINK_ID } from '../i18n/index.ts';
import { RuntimeScreens, type StartedRuntime } from './App.tsx';
import { AppRoutes } from './router.tsx';

/**
 * Only the configurator's preview frame loads the preview and the CSS parser its drafts go through; it
 * tells the configurator when it listens (src/preview/listener.ts), so loading late loses nothing.
 */
function Preview({ started, i18n }: { started: StartedRuntime; i18n: I18n }) {
  const navigate = useNavigate();
  // The preview lives as long as the frame; it navigates with the router's latest navigate.
  const latestNavigate = useRef(navigate);
  useEffect(() => {
    latestNavigate.current = navigate;
  }, [navigate]);

  useEffect(() => {
    let stop: (() => void) | undefined;
    let ended = false;
    void Promise.all([import('../preview/listener.ts'), import('../preview/styles.ts')]).then(([{ startPreview }, { documentStyles }]) => {
      if (ended) return;
      stop = startPreview({
        host: window,
        appConfig: started.appConfig,
        i18n,
        styles: documentStyles(document, CUSTOM_CSS_LINK_ID),
        navigate: (path, state) => void latestNavigate.current(path, { state }),
      });
    });
    return () => {
      ended = true;
      stop?.();
    };
  }, [started, i18n]);
  return null;
}

export interface RoutedScreensProps {
  started: StartedRuntime;
  i18n: I18n;
}

/** Every screen under the browser's router, and the configurator's preview when framed. */
export function RoutedScreens({ started, i18n }: RoutedScreensProps) {
  return (
    <BrowserRouter>
      {started.config.preview && <Preview started={started} i18n={i18n} />}
      <AppRoutes />
    </BrowserRouter>
  );
}

/** The started runtime in the browser, drawn afresh. */
export function App({
  started,
  i18n,
  texts,
  languageChoice,
}: RoutedScreensProps & { texts: TextsStore; languageChoice: LanguageChoiceStore }) {
  return (
    <RuntimeScreens started={started} texts={texts} languageChoice={languageChoice}>
      <RoutedScreens started={started} i18n={i18n} />
    </RuntimeScreens>
  );
}
