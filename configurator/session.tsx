// What every configurator screen shares: its config, the console's auth client and the admin API.
import { createContext, useContext, useEffect, useState } from 'react';
import type { AuthClient } from '../src/auth/index.ts';
import type { AdminApi } from './api/client.ts';
import type { ConsoleConfig } from './config.ts';

export interface ConsoleSession {
  config: ConsoleConfig;
  auth: AuthClient;
  api: AdminApi;
}

export const ConsoleContext = createContext<ConsoleSession | null>(null);

export function useConsole(): ConsoleSession {
  const session = useContext(ConsoleContext);
  if (!session) throw new Error('useConsole outside ConsoleContext');
  return session;
}

/** The auth client, re-rendering the caller on every sign-in, refresh and sign-out. */
export function useConsoleAuth(): AuthClient {
  const { auth } = useConsole();
  const [, setVersion] = useState(0);
  useEffect(() => auth.subscribe(() => setVersion((version) => version + 1)), [auth]);
  return auth;
}
