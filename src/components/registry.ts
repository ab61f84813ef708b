// The component registry: every component a flow may name, each its own lazy chunk. A chunk loaded
// ahead (`preload`, before the runtime hydrates a server-drawn step: src/main.tsx) is drawn without
// suspending, so hydration never leaves a drawn part to be redrawn later.
import { createElement, lazy, useState, type ComponentType } from 'react';
import type { FlowComponentProps } from '../flow/component-types.ts';
import type { ComponentName } from '../flow/registry-names.ts';

type Loaded = { default: ComponentType<FlowComponentProps> };

export type FlowComponent = ComponentType<FlowComponentProps> & { preload(): Promise<unknown> };

function preloadable(load: () => Promise<Loaded>): FlowComponent {
  let loading: Promise<Loaded> | undefined;
  let loaded: Loaded['default'] | undefined;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(preload);
  function FlowComponent(props: FlowComponentProps) {
    // Chosen once per instance: a later switch of element type would remount the component.
    const [Drawn] = useState<ComponentType<FlowComponentProps>>(() => loaded ?? Lazy);
    return createElement(Drawn, props);
  }
  return Object.assign(FlowComponent, { preload });
}

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
