// The component registry: every component a flow may name, each its own lazy chunk.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { FlowComponentProps } from '../flow/component-types.ts';
import type { ComponentName } from '../flow/registry-names.ts';

export const componentRegistry: Record<ComponentName, LazyExoticComponent<ComponentType<FlowComponentProps>>> = {
  AccessGate: lazy(() => import('./AccessGate.tsx')),
  ActivityList: lazy(() => import('./ActivityList.tsx')),
  FederationConnections: lazy(() => import('./FederationConnections.tsx')),
  InviteUsers: lazy(() => import('./InviteUsers.tsx')),
  PasskeyManager: lazy(() => import('./PasskeyManager.tsx')),
  PasskeyRegistration: lazy(() => import('./PasskeyRegistration.tsx')),
  PasskeySignIn: lazy(() => import('./PasskeySignIn.tsx')),
  PasswordPolicy: lazy(() => import('./PasswordPolicy.tsx')),
  RecoveryCodeActions: lazy(() => import('./RecoveryCodeActions.tsx')),
  SessionList: lazy(() => import('./SessionList.tsx')),
  SocialButtons: lazy(() => import('./SocialButtons.tsx')),
  TotpSecret: lazy(() => import('./TotpSecret.tsx')),
  TwoFactorToggle: lazy(() => import('./TwoFactorToggle.tsx')),
  UsersTable: lazy(() => import('./UsersTable.tsx')),
  WorkspaceLog: lazy(() => import('./WorkspaceLog.tsx')),
  WorkspaceLogo: lazy(() => import('./WorkspaceLogo.tsx')),
  WorkspacePicker: lazy(() => import('./WorkspacePicker.tsx')),
};
