// The configurator's half of the preview protocol (.tmp contract "Preview protocol"): the runtime in
// the iframe is fed the draft by postMessage, on the hosted UI's own origin.
import type { AppConfig } from '../../src/policy/app-config.ts';

export const PREVIEW_TAG = 'foyer-preview';

export const PREVIEW_SCREENS = ['login', 'login-password', 'signup', 'magic-link', 'choose-user', 'mfa-setup'] as const;
export type PreviewScreen = (typeof PREVIEW_SCREENS)[number];

export type PreviewMessage =
  | { tag: typeof PREVIEW_TAG; type: 'config'; config: AppConfig }
  | { tag: typeof PREVIEW_TAG; type: 'screen'; screen: PreviewScreen }
  | { tag: typeof PREVIEW_TAG; type: 'language'; language: string };

/** The runtime page the iframe shows: the app's login in preview mode. */
export function previewUrl(uiUrl: string, appId: string): string {
  const query = new URLSearchParams({ appId, preview: '1' });
  return `${uiUrl.replace(/\/+$/, '')}/auth/login?${query.toString()}`;
}

/** 'ready' or 'applied' when `event` is the runtime in `frame` speaking the protocol; otherwise null. */
export function runtimeSignal(event: MessageEvent, frame: Window | null | undefined, origin: string): 'ready' | 'applied' | null {
  if (!frame || event.source !== frame || event.origin !== origin) return null;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return null;
  const { tag, type } = data as Record<string, unknown>;
  if (tag !== PREVIEW_TAG) return null;
  return type === 'ready' || type === 'applied' ? type : null;
}

export function postToPreview(frame: Window | null | undefined, message: PreviewMessage, origin: string): void {
  frame?.postMessage(message, origin);
}
