// The screen a server-drawn page hydrates (src/start.tsx): the drawn flow's screen, or the Unknown App
// screen, in the same markup React Router's table draws on the server (src/app/router.tsx AppRoutes,
// src/ssr/render.tsx) but without the router. Its address and history are this file's own while the
// visitor stays on the drawn flow (its steps' `?step=` entries, Back and Forward among them); the router
// and every other screen load right after hydration and take over at the first move to another path.
import { useCallback, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import type { i18n as I18n } from 'i18next';
import type { Flow } from '../flow/types.ts';
import type { LanguageChoiceStore } from '../i18n/choice.ts';
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
function FirstStepScreens({ flow, started, i18n }: { flow: Flow | undefined; started: StartedRuntime; i18n: I18n }) {
  const [Routed, setRouted] = useState<ComponentType<RoutedScreensProps>>();
  const leave = useCallback(() => {
    // The address is already the next one: should the router's chunk fail to load, the server serves it.
    loadRoutedScreens().then(
      ({ RoutedScreens }) => setRouted(() => RoutedScreens),
      () => globalThis.location.reload(),
    );
  }, []);
  useEffect(() => {
    // Fetched once the drawn screen is hydrated, so the next screen does not wait for it.
    void loadRoutedScreens();
  }, []);
  const [pathname] = useState(() => globalThis.location.pathname);
  const paths = useMemo(() => flow?.routes ?? [pathname], [flow, pathname]);
  if (Routed) return <Routed started={started} i18n={i18n} />;
  return (
    <FirstStepNavigation paths={paths} onLeave={leave}>
      <ErrorBoundary FallbackComponent={RouteError} resetKeys={[pathname]}>
        {/* Without a flow the drawing is the Unknown App screen, which ScreenShell draws on any path. */}
        <ScreenShell pathname={pathname}>{flow && <FlowScreen flow={flow} />}</ScreenShell>
      </ErrorBoundary>
    </FirstStepNavigation>
  );
}

export function FirstStepApp({
  started,
  i18n,
  languageChoice,
  flow,
}: {
  started: StartedRuntime;
  i18n: I18n;
  languageChoice: LanguageChoiceStore;
  /** The drawn flow; none when the drawing is the Unknown App screen. */
  flow: Flow | undefined;
}) {
  return (
    <RuntimeScreens started={started} i18n={i18n} languageChoice={languageChoice}>
      <FirstStepScreens flow={flow} started={started} i18n={i18n} />
    </RuntimeScreens>
  );
}
