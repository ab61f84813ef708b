// Shows its children only to users who pass the rule. Screens and flows (a slot's `access`,
// src/app/screens/flow-screen/SlotView.tsx) use it alike; nothing renders (or the fallback) while the data it needs loads, so no
// gated content flashes and nothing redirects early.
import type { ReactNode } from 'react';
import type { AccessRule } from './rules.ts';
import { useAccess } from './useAccess.ts';

export interface GateProps extends AccessRule {
  /** Shown to users who do not pass; nothing by default. */
  fallback?: ReactNode;
  /** Shown while the plan loads; nothing by default. */
  pending?: ReactNode;
  children: ReactNode;
}

export function Gate({ roles, plans, fallback = null, pending = null, children }: GateProps) {
  const answer = useAccess({ roles, plans });
  if (answer === 'pending') return <>{pending}</>;
  return <>{answer === 'allowed' ? children : fallback}</>;
}
