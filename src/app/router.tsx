// Routes: every flow's routes, the OAuth callback, logout, the handover, the signed-in home, the
// management screens inside the signed-in layout, and fallbacks to the login. Screens other than the
// login route's flows are lazy chunks.
import { useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, matchRoutes, Navigate, Outlet, useLocation, type DataRouter, type RouteObject } from 'react-router';
import { flows, type BundledFlow } from '../flow/flows.ts';
import { WorkspaceLayout, AdminPage } from './layouts/WorkspaceLayout.tsx';
import { browserLanguages, screenLanguage, signedInLocale } from '../i18n/choice.ts';
import { useLanguageChoice } from '../i18n/choice-context.ts';
import { showLanguage } from '../i18n/index.ts';
import { useAppConfig, useAuthChanges, useRuntime } from '../runtime/context.tsx';
import { useSessionCheck } from './session-check.ts';
import type { AuthLayoutProps } from './layouts/AuthLayout.tsx';
import { FlowScreen } from './screens/FlowScreen.tsx';
import { RouteError } from './screens/RouteError.tsx';
import { UnknownApp } from './screens/UnknownApp.tsx';

const LOGIN_PATH = '/auth/login';

/** Flow routes under these prefixes are signed-in management screens (WorkspaceLayout and its guard). */
const MANAGEMENT_PREFIXES = ['/user-management/', '/user/'];

export function isManagementRoute(path: string): boolean {
  return MANAGEMENT_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Language, the session check and the unknown-app gate for every route (each screen sets its page title). */
function Shell() {
  const { i18n } = useTranslation();
  const { appConfig, config } = useRuntime();
  const app = useAppConfig();
  const auth = useAuthChanges();
  const location = useLocation();
  const [chosen] = useLanguageChoice();
  const language = screenLanguage({ userLocale: signedInLocale(auth), chosen, preferred: browserLanguages(), app });
  useSessionCheck();

  useEffect(() => {
    // The configurator picks the preview's language (src/preview/listener.ts).
    if (!config.preview) void showLanguage(i18n, language);
  }, [i18n, language, config.preview]);

  if (appConfig.status === 'unknown-app' && !location.pathname.startsWith('/handover')) return <UnknownApp />;
  return <Outlet />;
}

/** A flow's route: its screen at once for the flows the page brings, after fetching the flow for the others. */
function flowRoute(entry: BundledFlow, path: string, layout?: ComponentType<AuthLayoutProps>): RouteObject {
  if ('flow' in entry) return { path, element: <FlowScreen key={entry.id} flow={entry.flow} layout={layout} /> };
  return { path, lazy: async () => ({ element: <FlowScreen key={entry.id} flow={await entry.load()} layout={layout} /> }) };
}

export function routes(): RouteObject[] {
  const flowRoutes: RouteObject[] = flows.flatMap((entry) =>
    entry.routes.filter((path) => !isManagementRoute(path)).map((path) => flowRoute(entry, path)),
  );
  const managementRoutes: RouteObject[] = flows.flatMap((entry) =>
    entry.routes.filter(isManagementRoute).map((path) => flowRoute(entry, path, AdminPage)),
  );
  return [
    {
      element: <Shell />,
      errorElement: <RouteError />,
      // Shown while the first address's lazy route loads; a page the server drew is hydrated only after
      // that route has loaded (createRouter), so it never shows there.
      HydrateFallback: () => null,
      children: [
        { path: '/', lazy: async () => ({ Component: (await import('./screens/Home.tsx')).default }) },
        ...flowRoutes,
        { element: <WorkspaceLayout />, children: managementRoutes },
        { path: '/user-management', element: <Navigate to="/user-management/profile" replace /> },
        { path: '/user-management/*', element: <Navigate to="/user-management/profile" replace /> },
        { path: '/user/*', element: <Navigate to="/user/list" replace /> },
        {
          path: '/auth/oauth-callback',
          lazy: async () => ({ Component: (await import('./screens/OAuthCallback.tsx')).default }),
        },
        { path: '/auth/logout', lazy: async () => ({ Component: (await import('./screens/Logout.tsx')).default }) },
        { path: '/auth/sign-out', lazy: async () => ({ Component: (await import('./screens/SignOut.tsx')).default }) },
        { path: '/auth/error', lazy: async () => ({ Component: (await import('./screens/ErrorPage.tsx')).default }) },
        { path: '/privacy', lazy: async () => ({ Component: (await import('./screens/DemoPolicy.tsx')).PrivacyPolicy }) },
        { path: '/terms', lazy: async () => ({ Component: (await import('./screens/DemoPolicy.tsx')).TermsOfService }) },
        { path: '/ms-marketplace-landing', lazy: async () => ({ Component: (await import('./screens/MarketplaceLanding.tsx')).default }) },
        { path: '/handover/*', lazy: async () => ({ Component: (await import('./screens/Handover.tsx')).default }) },
        { path: '/auth/*', element: <Navigate to={LOGIN_PATH} replace /> },
        { path: '*', element: <Navigate to={LOGIN_PATH} replace /> },
      ],
    },
  ];
}

/**
 * The browser's router. `hydrating`: #root holds the server's drawing of this address (src/ssr/render.tsx),
 * so the lazy routes it matches load first and the router's first render draws what the server drew.
 */
export async function createRouter(hydrating: boolean): Promise<DataRouter> {
  const table = routes();
  if (hydrating) await loadLazyRoutes(table, globalThis.location.pathname);
  return createBrowserRouter(table);
}

/** Replaces the lazy parts of the routes `pathname` matches with what they load. */
export async function loadLazyRoutes(table: RouteObject[], pathname: string): Promise<void> {
  await Promise.all(
    (matchRoutes(table, pathname) ?? []).map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
}
