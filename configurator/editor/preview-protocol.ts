// The configurator's half of the preview protocol (src/preview/protocol.ts is the runtime's): the
// runtime in the iframe is fed the draft by postMessage, on the hosted UI's own origin.
import { PREVIEW_TAG, type PreviewMessage, type PreviewReply } from '../../src/preview/protocol.ts';

export { previewScreens, type PreviewScreen } from '../../src/preview/protocol.ts';

/** The runtime page the iframe shows: the app's login in preview mode. */
export function previewUrl(uiUrl: string, appId: string): string {
  const query = new URLSearchParams({ appId, preview: '1' });
  return `${uiUrl.replace(/\/+$/, '')}/auth/login?${query.toString()}`;
}

/** 'ready' or 'applied' when `event` is the runtime in `frame` speaking the protocol; otherwise null. */
export function runtimeSignal(event: MessageEvent, frame: Window | null | undefined, origin: string): PreviewReply['type'] | null {
  if (!frame || event.source !== frame || event.origin !== origin) return null;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return null;
  const { tag, type } = data as Record<string, unknown>;
  if (tag !== PREVIEW_TAG) return null;
  return type === 'ready' || type === 'applied' ? type : null;
}

export function postToPreview(frame: Window | null | undefined, message: PreviewMessage, origin: string): void {
  frame?.postMessage({ tag: PREVIEW_TAG, ...message }, origin);
}
