// The screen a server-drawn page hydrates (src/start.tsx): the drawn flow's screen, or the Unknown App
// screen, in the same markup React Router's table draws on the server (src/app/router.tsx AppRoutes,
// src/ssr/render.tsx) but without the router. Its address and history are this file's own while the
// visitor stays on the drawn flow (its steps' `?step=` entries, Back and Forward among them); the router
// and every other screen load right after hydration and take over at the first move to another path.
// Its texts likewise: the page's own (src/i18n/carried-texts.ts) until i18next, loaded right after
// hydration with the same texts, takes their place.
import { useCallback, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import type { i18n as I18n } from 'i18next';
import type { Flow } from '../flow/types.ts';
import type { LanguageChoiceStore } from '../i18n/choice.ts';
import type { I18nextTexts } from '../i18n/i18next.ts';
import type { TextsStore } from '../i18n/texts.ts';
import { RuntimeScreens, type StartedRuntime } from './App.tsx';
import { NavigationContext, type AppLocation, type Navigation, type NavigateOptions, type To } from './navigation.tsx';
import { FlowScreen } from './screens/FlowScreen.tsx';
import type { RoutedScreensProps } from './routed-screens.tsx';
import { RouteError } from './screens/RouteError.tsx';
import { ScreenShell } from './shell.tsx';

const loadRoutedScreens = () => import('./routed-screens.tsx');

/**
 * History entries are written as React Router's browser history writes them (`usr` the navigation
 * state, `key`, `idx` the entry's index), so the router reads them alike once it takes over.
 */
interface HistoryEntry {
  usr: unknown;
  key: string;
  idx: number;
}

function entryOf(state: unknown): Partial<HistoryEntry> {
  return typeof state === 'object' && state !== null ? (state as Partial<HistoryEntry>) : {};
}

function currentLocation(): AppLocation {
  const { pathname, search, hash } = globalThis.location;
  const entry = entryOf(globalThis.history.state);
  return { pathname, search, hash, state: entry.usr ?? null, key: entry.key ?? 'default' };
}

function pathOf(to: To, from: AppLocation): string {
  if (typeof to === 'string') return to;
  return `${to.pathname ?? from.pathname}${to.search ?? ''}${to.hash ?? ''}`;
}

/** The address and history of the drawn screen's `paths`; `onLeave` once the address is elsewhere. */
function FirstStepNavigation({ paths, onLeave, children }: { paths: readonly string[]; onLeave: () => void; children: ReactNode }) {
  const [location, setLocation] = useState(currentLocation);
  const follow = useCallback(() => {
    const next = currentLocation();
    if (paths.includes(next.pathname)) setLocation(next);
    else onLeave();
  }, [paths, onLeave]);

  useEffect(() => {
    globalThis.addEventListener('popstate', follow);
    return () => globalThis.removeEventListener('popstate', follow);
  }, [follow]);

  const navigate = useCallback(
    (to: To, options: NavigateOptions = {}) => {
      const index = entryOf(globalThis.history.state).idx ?? 0;
      const entry: HistoryEntry = {
        usr: options.state ?? null,
        key: Math.random().toString(36).slice(2, 10),
        idx: options.replace ? index : index + 1,
      };
      const url = new URL(pathOf(to, location), globalThis.location.href);
      if (options.replace) globalThis.history.replaceState(entry, '', url);
      else globalThis.history.pushState(entry, '', url);
      follow();
    },
    [location, follow],
  );

  const navigation = useMemo<Navigation>(() => ({ location, params: {}, navigate }), [location, navigate]);
  return <NavigationContext value={navigation}>{children}</NavigationContext>;
}

/** The drawn screen under the first step's own navigation, until the visitor moves to another path. */
function FirstStepScreens({
  flow,
  started,
  loadI18next,
}: {
  flow: Flow | undefined;
  started: StartedRuntime;
  loadI18next: () => Promise<I18nextTexts>;
}) {
  const [routed, setRouted] = useState<{ Routed: ComponentType<RoutedScreensProps>; i18n: I18n }>();
  const leave = useCallback(() => {
    // The address is already the next one: should the router's chunk or i18next's fail to load, the server serves it.
    Promise.all([loadRoutedScreens(), loadI18next()]).then(
      ([{ RoutedScreens }, { i18n }]) => setRouted({ Routed: RoutedScreens, i18n }),
      () => globalThis.location.reload(),
    );
  }, [loadI18next]);
  useEffect(() => {
    // Fetched once the drawn screen is hydrated, so the next screen does not wait for it.
    void loadRoutedScreens();
  }, []);
  const [pathname] = useState(() => globalThis.location.pathname);
  const paths = useMemo(() => flow?.routes ?? [pathname], [flow, pathname]);
  if (routed) return <routed.Routed started={started} i18n={routed.i18n} />;
  return (
    <FirstStepNavigation paths={paths} onLeave={leave}>
      <ErrorBoundary FallbackComponent={RouteError} resetKeys={[pathname]}>
        {/* Without a flow the drawing is the Unknown App screen, which ScreenShell draws on any path. */}
        <ScreenShell pathname={pathname}>{flow && <FlowScreen flow={flow} drawn />}</ScreenShell>
      </ErrorBoundary>
    </FirstStepNavigation>
  );
}

export function FirstStepApp({
  started,
  texts,
  loadI18next,
  languageChoice,
  flow,
}: {
  started: StartedRuntime;
  /** The texts the drawn screen hydrates with. */
  texts: TextsStore;
  /** i18next with the same texts, to take their place: loaded once, however often asked. */
  loadI18next: () => Promise<I18nextTexts>;
  languageChoice: LanguageChoiceStore;
  /** The drawn flow; none when the drawing is the Unknown App screen. */
  flow: Flow | undefined;
}) {
  const [i18next, setI18next] = useState<I18nextTexts>();
  useEffect(() => {
    // Should its chunk fail to load, the drawn screen keeps the page's texts in the drawn language.
    loadI18next().then(setI18next, () => undefined);
  }, [loadI18next]);
  return (
    <RuntimeScreens started={started} texts={i18next?.texts ?? texts} languageChoice={languageChoice}>
      <FirstStepScreens flow={flow} started={started} loadI18next={loadI18next} />
    </RuntimeScreens>
  );
}
