// Routes: every flow's routes, the OAuth callback, logout, the handover, the signed-in home, the
// management screens inside the signed-in layout, and fallbacks to the login. React Router in its
// declarative form (<Routes>): the runtime uses no loaders, actions or fetchers, so the data router's
// code stays out of the page. Screens other than the login route's flows are lazy chunks, drawn inside
// the router's transition (the previous screen stays until the next one is in).
import { lazy, use, useMemo, type ComponentType, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Navigate, Outlet, Route, Routes, useLocation, useNavigate, useParams } from 'react-router';
import { flows, loadFlow, type BundledFlow } from '../flow/flows.ts';
import { NavigationContext, type Navigation } from './navigation.tsx';
import { FlowScreen } from './screens/FlowScreen.tsx';
import { RouteError } from './screens/RouteError.tsx';
import { ScreenShell } from './shell.tsx';

const LOGIN_PATH = '/auth/login';

/** Flow routes under these prefixes are signed-in management screens (WorkspaceLayout and its guard). */
const MANAGEMENT_PREFIXES = ['/user-management/', '/user/'];

export function isManagementRoute(path: string): boolean {
  return MANAGEMENT_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** The screens' shell (./shell.tsx) around the matched route. */
function Shell() {
  const location = useLocation();
  return (
    <ScreenShell pathname={location.pathname}>
      <Outlet />
    </ScreenShell>
  );
}

/**
 * The address, navigation and route parameters from React Router, for the screens that read them
 * through ./navigation.tsx (also drawn without the router, src/app/first-step.tsx).
 */
export function RouterNavigation({ children }: { children: ReactNode }) {
  const location = useLocation();
  const routerNavigate = useNavigate();
  const params = useParams();
  const navigation = useMemo<Navigation>(
    () => ({ location, params, navigate: (to, options) => void routerNavigate(to, options) }),
    [location, params, routerNavigate],
  );
  return <NavigationContext value={navigation}>{children}</NavigationContext>;
}

const Home = lazy(() => import('./screens/Home.tsx'));
const OAuthCallback = lazy(() => import('./screens/OAuthCallback.tsx'));
const Logout = lazy(() => import('./screens/Logout.tsx'));
const SignOut = lazy(() => import('./screens/SignOut.tsx'));
const ErrorPage = lazy(() => import('./screens/ErrorPage.tsx'));
const PrivacyPolicy = lazy(async () => ({ default: (await import('./screens/DemoPolicy.tsx')).PrivacyPolicy }));
const TermsOfService = lazy(async () => ({ default: (await import('./screens/DemoPolicy.tsx')).TermsOfService }));
const MarketplaceLanding = lazy(() => import('./screens/MarketplaceLanding.tsx'));
const Handover = lazy(() => import('./screens/Handover.tsx'));
const WorkspaceLayout = lazy(async () => ({ default: (await import('./layouts/WorkspaceLayout.tsx')).WorkspaceLayout }));

/** A flow's screen: at once for the flows the page brings, after fetching the flow for the others. */
function authScreen(entry: BundledFlow): ComponentType {
  if ('flow' in entry) return () => <FlowScreen key={entry.id} flow={entry.flow} />;
  return function FetchedFlowScreen() {
    return <FlowScreen key={entry.id} flow={use(loadFlow(entry))} />;
  };
}

/** A management flow's screen, framed by the signed-in page (both its own chunks). */
function managementScreen(entry: BundledFlow): ComponentType {
  return lazy(async () => {
    const [flow, { AdminPage }] = await Promise.all(['flow' in entry ? entry.flow : entry.load(), import('./layouts/WorkspaceLayout.tsx')]);
    return { default: () => <FlowScreen key={entry.id} flow={flow} layout={AdminPage} /> };
  });
}

interface FlowRoute {
  path: string;
  Screen: ComponentType;
}

function flowRoutes(screen: (entry: BundledFlow) => ComponentType, management: boolean): FlowRoute[] {
  return flows.flatMap((entry) => {
    const paths = entry.routes.filter((path) => isManagementRoute(path) === management);
    if (paths.length === 0) return [];
    const Screen = screen(entry);
    return paths.map((path) => ({ path, Screen }));
  });
}

// Made once: a lazy component made again on each render would load and suspend again.
const authRoutes = flowRoutes(authScreen, false);
const managementRoutes = flowRoutes(managementScreen, true);

function screenRoute(path: string, Screen: ComponentType): ReactNode {
  return (
    <Route
      key={path}
      path={path}
      element={
        <RouterNavigation>
          <Screen />
        </RouterNavigation>
      }
    />
  );
}

/** Every route of the runtime, inside a <BrowserRouter> (src/app/App.tsx) or any other router. */
export function AppRoutes() {
  const location = useLocation();
  return (
    // A screen that throws shows RouteError (React logs the error) until the address changes.
    <RouterNavigation>
      <ErrorBoundary FallbackComponent={RouteError} resetKeys={[location.pathname]}>
        <Routes>
          <Route element={<Shell />}>
            {screenRoute('/', Home)}
            {authRoutes.map(({ path, Screen }) => screenRoute(path, Screen))}
            <Route element={<WorkspaceLayout />}>{managementRoutes.map(({ path, Screen }) => screenRoute(path, Screen))}</Route>
            <Route path="/user-management" element={<Navigate to="/user-management/profile" replace />} />
            <Route path="/user-management/*" element={<Navigate to="/user-management/profile" replace />} />
            <Route path="/user/*" element={<Navigate to="/user/list" replace />} />
            {screenRoute('/auth/oauth-callback', OAuthCallback)}
            {screenRoute('/auth/logout', Logout)}
            {screenRoute('/auth/sign-out', SignOut)}
            {screenRoute('/auth/error', ErrorPage)}
            {screenRoute('/privacy', PrivacyPolicy)}
            {screenRoute('/terms', TermsOfService)}
            {screenRoute('/ms-marketplace-landing', MarketplaceLanding)}
            {screenRoute('/handover/*', Handover)}
            <Route path="/auth/*" element={<Navigate to={LOGIN_PATH} replace />} />
            <Route path="*" element={<Navigate to={LOGIN_PATH} replace />} />
          </Route>
        </Routes>
      </ErrorBoundary>
    </RouterNavigation>
  );
}
