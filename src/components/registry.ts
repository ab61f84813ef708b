// The component registry: every component a flow may name, each its own lazy chunk.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { FlowComponentProps } from '../flow/component-types.ts';
import type { ComponentName } from '../flow/registry-names.ts';

type Loaded = { default: ComponentType<FlowComponentProps> };

/** A lazy component that reads or writes through TanStack Query, which loads with it (src/runtime/query-scope.tsx). */
const withQueries = (load: () => Promise<Loaded>) =>
  lazy(async () => {
    const [{ withQueries: scoped }, loaded] = await Promise.all([import('../runtime/query-scope.tsx'), load()]);
    return { default: scoped(loaded.default) };
  });

export const componentRegistry: Record<ComponentName, LazyExoticComponent<ComponentType<FlowComponentProps>>> = {
  ActivityList: withQueries(() => import('./ActivityList.tsx')),
  FederationConnections: lazy(() => import('./FederationConnections.tsx')),
  InviteUsers: withQueries(() => import('./InviteUsers.tsx')),
  PasskeyManager: withQueries(() => import('./PasskeyManager.tsx')),
  PlanCards: withQueries(() => import('./PlanCards.tsx')),
  PasskeyRegistration: lazy(() => import('./PasskeyRegistration.tsx')),
  PasskeySignIn: lazy(() => import('./PasskeySignIn.tsx')),
  PasswordPolicy: lazy(() => import('./PasswordPolicy.tsx')),
  RecoveryCodeActions: lazy(() => import('./RecoveryCodeActions.tsx')),
  SessionList: withQueries(() => import('./SessionList.tsx')),
  SocialButtons: lazy(() => import('./SocialButtons.tsx')),
  TotpSecret: lazy(() => import('./TotpSecret.tsx')),
  TwoFactorToggle: withQueries(() => import('./TwoFactorToggle.tsx')),
  UsersTable: withQueries(() => import('./UsersTable.tsx')),
  WorkspaceLog: withQueries(() => import('./WorkspaceLog.tsx')),
  WorkspaceLogo: lazy(() => import('./WorkspaceLogo.tsx')),
  WorkspacePicker: lazy(() => import('./WorkspacePicker.tsx')),
};
