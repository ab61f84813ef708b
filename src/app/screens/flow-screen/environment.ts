// What a flow's JSON Logic sees from outside the flow: the app, the runtime's config, the address
// (query, route parameters, navigation state) and the signed-in user, read afresh at each evaluation.
import { useMemo } from 'react';
import type { FlowEnvironment } from '../../../flow/types.ts';
import { useAuthChanges, useAppConfig, useRuntime } from '../../../runtime/context.tsx';
import { useNavigation } from '../../navigation.tsx';

export function useFlowEnvironment(): () => FlowEnvironment {
  const { config } = useRuntime();
  const app = useAppConfig();
  const auth = useAuthChanges();
  const { location, params } = useNavigation();
  const query = useMemo(() => Object.fromEntries(new URLSearchParams(location.search)), [location.search]);
  const navigationState = location.state as unknown;
  return () => {
    const authenticated = auth.isAuthenticated();
    const user = authenticated ? auth.currentUser() : undefined;
    return {
      app: { ...(app ?? {}) },
      config: { ...config },
      query,
      user: { ...(user ?? {}), authenticated, tenantUserId: auth.currentTenantUserId() },
      tenant: { ...(user?.tenant ?? {}) },
      params: Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      state: typeof navigationState === 'object' && navigationState !== null ? { ...(navigationState as Record<string, unknown>) } : {},
      path: `${location.pathname}${location.search}`,
    };
  };
}
