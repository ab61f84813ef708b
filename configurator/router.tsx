// Routes under /configurator: the OAuth callback, then the signed-in console (apps, create app, the
// app editor with one route per section). Signed out, every console route shows the sign-in page.
// React Router in its declarative form (<Routes>), as in the runtime (src/app/router.tsx): the
// console uses no loaders, actions or fetchers. Each editor section is a lazy chunk.
import { lazy } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Navigate, Route, Routes } from 'react-router';
import { EditorLayout } from './editor/EditorLayout.tsx';
import { EDITOR_SECTIONS } from './editor/sections.ts';
import { ConsoleLayout } from './layout/ConsoleLayout.tsx';
import { RouteError } from './layout/RouteError.tsx';
import { AppsList } from './screens/AppsList.tsx';
import { Callback } from './screens/Callback.tsx';
import { CreateApp } from './screens/CreateApp.tsx';
import { SignIn } from './screens/SignIn.tsx';
import { NotFound } from './screens/NotFound.tsx';

// Made once: a lazy component made again on each render would load and suspend again.
const sections = EDITOR_SECTIONS.map(({ path, load }) => ({ path, Section: lazy(async () => ({ default: await load() })) }));

/** Every console route, inside a router whose basename is CONSOLE_BASE_PATH (configurator/App.tsx). */
export function ConsoleRoutes() {
  return (
    // A render failure anywhere shows RouteError, whose link reloads the console.
    <ErrorBoundary FallbackComponent={RouteError}>
      <Routes>
        <Route path="/callback" element={<Callback />} />
        <Route path="/sign-in" element={<SignIn />} />
        <Route element={<ConsoleLayout />}>
          <Route index element={<Navigate to="/apps" replace />} />
          <Route path="/apps" element={<AppsList />} />
          <Route path="/apps/new" element={<CreateApp />} />
          <Route path="/apps/:appId" element={<EditorLayout />}>
            <Route index element={<Navigate to={EDITOR_SECTIONS[0].path} replace />} />
            {sections.map(({ path, Section }) => (
              <Route key={path} path={path} element={<Section />} />
            ))}
          </Route>
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </ErrorBoundary>
  );
}
