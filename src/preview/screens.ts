// Where each preview screen lives. A screen message always opens its route afresh; the login's
// password step is opened directly (no e-mail to check), through navigation state the flow screen
// reads in preview mode only.
import type { PreviewScreen } from './protocol.ts';

/** Navigation state key of a preview screen switch: `{ [PREVIEW_NAVIGATION]: { step?: string } }`. */
export const PREVIEW_NAVIGATION = 'foyerPreview';

export interface PreviewNavigation {
  /** The flow step to open instead of the flow's first one. */
  step?: string;
}

export const previewScreenTargets: Record<PreviewScreen, { path: string; step?: string }> = {
  login: { path: '/auth/login' },
  'login-password': { path: '/auth/login', step: 'PASSWORD' },
  signup: { path: '/auth/signup' },
  'magic-link': { path: '/auth/magic-link' },
  'choose-user': { path: '/auth/choose-user' },
  'mfa-setup': { path: '/auth/mfa/setup' },
};

/** The preview switch a navigation carries, if any. */
export function previewNavigationOf(state: unknown): PreviewNavigation | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const value = (state as Record<string, unknown>)[PREVIEW_NAVIGATION];
  if (typeof value !== 'object' || value === null) return undefined;
  const step = (value as Record<string, unknown>).step;
  return typeof step === 'string' ? { step } : {};
}
