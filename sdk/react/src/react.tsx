// The React face of FoyerClient: a provider, hooks, a role and plan gate, and the callback page.
// The SDK shows no texts of its own: everything it renders comes from the host app's props.
import { createContext, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { accessOf, meetsRule, type Access, type AccessRule } from './access.ts';
import type { FoyerUser } from './claims.ts';
import { FoyerClient, type FoyerConfig, type FoyerState, type UserManagementView } from './client.ts';

const FoyerContext = createContext<FoyerClient | null>(null);

export interface FoyerProviderProps extends FoyerConfig {
  children?: ReactNode;
}

export function FoyerProvider({ children, authOrigin, appId, redirectUri, postLogoutRedirectUri, hostedUiOrigin }: FoyerProviderProps) {
  const [client] = useState(() => new FoyerClient({ authOrigin, appId, redirectUri, postLogoutRedirectUri, hostedUiOrigin }));
  useEffect(() => {
    // The callback page starts nothing: FoyerCallback completes the sign-in there.
    if (new URL(redirectUri).pathname !== globalThis.location.pathname) void client.start();
    return () => client.close();
  }, [client, redirectUri]);
  return <FoyerContext.Provider value={client}>{children}</FoyerContext.Provider>;
}

function useClient(): FoyerClient {
  const client = useContext(FoyerContext);
  if (!client) throw new Error('Foyer hooks need a <FoyerProvider> above them');
  return client;
}

function useFoyerState(): FoyerState {
  const client = useClient();
  return useSyncExternalStore(client.subscribe, client.getState, client.getState);
}

export interface Foyer {
  status: FoyerState['status'];
  user: FoyerUser | null;
  login(returnTo?: string): Promise<void>;
  logout(): Promise<void>;
  switchWorkspace(returnTo?: string): Promise<void>;
  accessToken(): string | null;
  userManagementUrl(view: UserManagementView): string;
  userManagementHandoverUrl(view: UserManagementView, handover: { code: string; codeVerifier: string }): string;
}

/** The session and its actions. */
export function useFoyer(): Foyer {
  const client = useClient();
  const state = useFoyerState();
  return useMemo(
    () => ({
      status: state.status,
      user: state.user,
      login: (returnTo?: string) => client.login(returnTo),
      logout: () => client.logout(),
      switchWorkspace: (returnTo?: string) => client.switchWorkspace(returnTo),
      accessToken: () => client.accessToken(),
      userManagementUrl: (view: UserManagementView) => client.userManagementUrl(view),
      userManagementHandoverUrl: (view: UserManagementView, handover: { code: string; codeVerifier: string }) =>
        client.userManagementHandoverUrl(view, handover),
    }),
    [client, state],
  );
}

/** The signed-in person (docs/SPEC.md section 3), or null while loading or signed out. */
export function useCurrentUser(): FoyerUser | null {
  return useFoyerState().user;
}

/** Role, plan and privilege checks for the signed-in person. */
export function useAccess(): Access {
  const user = useCurrentUser();
  return useMemo(() => accessOf(user), [user]);
}

export interface GateProps extends AccessRule {
  children?: ReactNode;
  /** Shown to a person signed in who does not meet the rule, and to nobody signed in. */
  fallback?: ReactNode;
  /** Shown while the stored session loads. */
  loading?: ReactNode;
}

/** Its children for a person meeting every given rule (any of `roles`, any of `plans`, all `privileges`). */
export function Gate({ children, fallback = null, loading = null, roles, plans, privileges }: GateProps) {
  const state = useFoyerState();
  if (state.status === 'loading') return <>{loading}</>;
  return <>{meetsRule(state.user, { roles, plans, privileges }) ? children : fallback}</>;
}

export interface FoyerCallbackProps {
  /** Where to go once signed in (the host's router); by default a page move to `returnTo` or "/". */
  onSignedIn?: (returnTo: string | undefined) => void;
  /** Shown while the code is exchanged. */
  children?: ReactNode;
  /** Shown when the sign-in cannot complete (a stale or foreign state, a refused code). */
  renderError?: (error: Error) => ReactNode;
}

/** Render at the redirect URI's path: completes the sign-in and moves on. */
export function FoyerCallback({ onSignedIn, children = null, renderError }: FoyerCallbackProps) {
  const client = useClient();
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    let current = true;
    client.handleCallback().then(
      (returnTo) => {
        if (!current) return;
        if (onSignedIn) onSignedIn(returnTo);
        else globalThis.location.replace(returnTo ?? '/');
      },
      (failure: unknown) => current && setError(failure instanceof Error ? failure : new Error(String(failure))),
    );
    return () => {
      current = false;
    };
  }, [client, onSignedIn]);
  if (error) return <>{renderError?.(error) ?? null}</>;
  return <>{children}</>;
}
