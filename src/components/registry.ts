// The component registry: every component a flow may name, each its own lazy chunk, which can be
// loaded ahead (./preloadable.ts).
import type { ComponentType } from 'react';
import type { FlowComponentProps } from '../flow/component-types.ts';
import type { ComponentName } from '../flow/registry-names.ts';
import { preloadable, type Preloadable } from './preloadable.ts';

type Loaded = { default: ComponentType<FlowComponentProps> };

export type FlowComponent = Preloadable<FlowComponentProps>;

/** A component that reads or writes through TanStack Query, which loads with it (src/runtime/query-scope.tsx). */
const withQueries = (load: () => Promise<Loaded>) =>
  preloadable(async () => {
    const [{ withQueries: scoped }, loaded] = await Promise.all([import('../runtime/query-scope.tsx'), load()]);
    return { default: scoped(loaded.default) };
  });

export const componentRegistry: Record<ComponentName, FlowComponent> = {
  ActivityList: withQueries(() => import('./ActivityList.tsx')),
  EnterpriseConnections: withQueries(() => import('./EnterpriseConnections.tsx')),
  FederationConnections: preloadable(() => import('./FederationConnections.tsx')),
  InviteUsers: withQueries(() => import('./InviteUsers.tsx')),
  PasskeyManager: withQueries(() => import('./PasskeyManager.tsx')),
  PlanCards: withQueries(() => import('./PlanCards.tsx')),
  PasskeyRegistration: preloadable(() => import('./PasskeyRegistration.tsx')),
  PasskeySignIn: preloadable(() => import('./PasskeySignIn.tsx')),
  PasswordPolicy: preloadable(() => import('./PasswordPolicy.tsx')),
  RecoveryCodeActions: preloadable(() => import('./RecoveryCodeActions.tsx')),
  SessionList: withQueries(() => import('./SessionList.tsx')),
  SocialButtons: preloadable(() => import('./SocialButtons.tsx')),
  TotpSecret: preloadable(() => import('./TotpSecret.tsx')),
  TwoFactorToggle: withQueries(() => import('./TwoFactorToggle.tsx')),
  UsersTable: withQueries(() => import('./UsersTable.tsx')),
  WorkspaceLog: withQueries(() => import('./WorkspaceLog.tsx')),
  WorkspaceLogo: preloadable(() => import('./WorkspaceLogo.tsx')),
  WorkspacePicker: preloadable(() => import('./WorkspacePicker.tsx')),
};
