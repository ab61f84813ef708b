// Routes under /configurator: the OAuth callback, then the signed-in console (apps, create app, the
// app editor with one route per section). Signed out, every console route shows the sign-in page.
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { CONSOLE_BASE_PATH } from './config.ts';
import { EditorLayout } from './editor/EditorLayout.tsx';
import { EDITOR_SECTIONS } from './editor/sections.ts';
import { ConsoleLayout } from './layout/ConsoleLayout.tsx';
import { RouteError } from './layout/RouteError.tsx';
import { AppsList } from './screens/AppsList.tsx';
import { Callback } from './screens/Callback.tsx';
import { CreateApp } from './screens/CreateApp.tsx';
import { SignIn } from './screens/SignIn.tsx';
import { NotFound } from './screens/NotFound.tsx';

export function consoleRoutes(): RouteObject[] {
  return [
    {
      errorElement: <RouteError />,
      children: [
        { path: '/callback', element: <Callback /> },
        { path: '/sign-in', element: <SignIn /> },
        {
          element: <ConsoleLayout />,
          children: [
            { index: true, element: <Navigate to="/apps" replace /> },
            { path: '/apps', element: <AppsList /> },
            { path: '/apps/new', element: <CreateApp /> },
            {
              path: '/apps/:appId',
              element: <EditorLayout />,
              children: [
                { index: true, element: <Navigate to={EDITOR_SECTIONS[0].path} replace /> },
                ...EDITOR_SECTIONS.map(({ path, load }) => ({ path, lazy: async () => ({ Component: await load() }) })),
              ],
            },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ];
}

export function createConsoleRouter() {
  return createBrowserRouter(consoleRoutes(), { basename: CONSOLE_BASE_PATH });
}
