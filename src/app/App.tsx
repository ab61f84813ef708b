// Start-up: the screens render only after the auth client's start-up check, the app config and the
// app's translations are in.
import { Suspense, use, useState } from 'react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ApiClientProvider, createQueryClient, type ApiClient } from '../api/index.ts';
import type { AuthClient } from '../auth/types.ts';
import type { ClientConfig } from '../config.ts';
import { applyTranslations, loadAppTranslations } from '../i18n/index.ts';
import { loadAppConfig, type AppConfigState } from './appConfig.ts';
import { createRouter } from './router.tsx';
import { RuntimeContext, type Runtime } from './runtime.tsx';

export interface AppProps {
  config: ClientConfig;
  auth: AuthClient;
  api: ApiClient;
  i18n: I18n;
}

export async function startRuntime({ config, auth, api, i18n }: AppProps): Promise<Runtime> {
  const [appConfig] = await Promise.all([
    loadAppConfig(api, config.appId),
    // A failed start-up check means signed out (SPEC.md section 4).
    auth.init().catch(() => undefined),
    loadAppTranslations(config.apiUrl, config.appId).then((resources) => applyTranslations(i18n, resources)),
  ]);
  return { config, auth, api, appConfig: appConfig satisfies AppConfigState };
}

function Started({ starting }: { starting: Promise<Runtime> }) {
  const runtime = use(starting);
  const [router] = useState(createRouter);
  const [queryClient] = useState(() => createQueryClient(runtime.auth));
  return (
    <RuntimeContext value={runtime}>
      <ApiClientProvider client={runtime.api}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ApiClientProvider>
    </RuntimeContext>
  );
}

export function App(props: AppProps) {
  const [starting] = useState(() => startRuntime(props));
  return (
    <I18nextProvider i18n={props.i18n}>
      <Suspense fallback={null}>
        <Started starting={starting} />
      </Suspense>
    </I18nextProvider>
  );
}
