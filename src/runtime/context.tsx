// What every screen shares: config, the auth and API clients, the app config, and the auth state.
import { createContext, useContext, useEffect, useState } from 'react';
import type { ApiClient } from '../api/index.ts';
import type { AuthClient } from '../auth/types.ts';
import type { ClientConfig } from '../config.ts';
import type { AppConfigState, PublicAppConfig } from './app-config.ts';

export interface Runtime {
  config: ClientConfig;
  auth: AuthClient;
  api: ApiClient;
  appConfig: AppConfigState;
}

export const RuntimeContext = createContext<Runtime | null>(null);

export function useRuntime(): Runtime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('useRuntime outside RuntimeContext');
  return runtime;
}

export function useAppConfig(): PublicAppConfig | undefined {
  const { appConfig } = useRuntime();
  return appConfig.status === 'ready' ? appConfig.app : undefined;
}

/** Re-renders the caller whenever the auth client reports a change (sign-in, refresh, sign-out). */
export function useAuthChanges(): AuthClient {
  const { auth } = useRuntime();
  const [, setVersion] = useState(0);
  useEffect(() => auth.subscribe(() => setVersion((version) => version + 1)), [auth]);
  return auth;
}
