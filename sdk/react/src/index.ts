// @foyer/react: what a host app imports.
export { FoyerProvider, FoyerCallback, Gate, useAccess, useCurrentUser, useFoyer } from './react.tsx';
export type { Foyer, FoyerCallbackProps, FoyerProviderProps, GateProps } from './react.tsx';
export { FoyerClient } from './client.ts';
export { createHandoverProof } from './handover.ts';
export type { HandoverProof } from './handover.ts';
export type { FoyerConfig, FoyerState, UserManagementView } from './client.ts';
export type { FoyerTenant, FoyerUser } from './claims.ts';
export { meetsRule, accessOf } from './access.ts';
export type { Access, AccessRule } from './access.ts';
export { refreshDelayMs, REFRESH_AT_FRACTION } from './refresh.ts';
