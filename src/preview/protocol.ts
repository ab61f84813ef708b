// The preview protocol (docs/configurator.md "Preview protocol"): the configurator, on the same
// origin, frames the runtime at ?preview=1 and posts it drafts. A message counts only when it comes
// from the direct parent window, on this origin, with the preview tag; everything else is ignored.
import type { AppConfig } from '../../common/app-config.ts';

export const PREVIEW_TAG = 'foyer-preview';

export const previewScreens = ['login', 'login-password', 'signup', 'magic-link', 'choose-user', 'mfa-setup'] as const;
export type PreviewScreen = (typeof previewScreens)[number];

export type PreviewMessage =
  { type: 'config'; config: AppConfig } | { type: 'screen'; screen: PreviewScreen } | { type: 'language'; language: string };

/** What the runtime tells the configurator: it listens now, or it has applied a config. */
export type PreviewReply = { tag: typeof PREVIEW_TAG; type: 'ready' | 'applied' };

/** The runtime's own window, as far as the guard needs it. */
export interface PreviewWindow {
  readonly parent: unknown;
  readonly location: { readonly origin: string };
}

/** The parts of a MessageEvent the guard reads. */
export interface ReceivedMessage {
  readonly source: unknown;
  readonly origin: string;
  readonly data: unknown;
}

/** Language codes as app-config.schema.json names translations (en, sv, pt-BR). */
const LANGUAGE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPreviewScreen(value: unknown): value is PreviewScreen {
  return (previewScreens as readonly unknown[]).includes(value);
}

/** True when `self` is framed and `event` comes from its direct parent, on its own origin. */
export function fromParent(event: ReceivedMessage, self: PreviewWindow): boolean {
  return self.parent !== self && event.source === self.parent && event.origin === self.location.origin;
}

/** The preview message `event` carries, or undefined when the guard or the shape refuses it. */
export function acceptedMessage(event: ReceivedMessage, self: PreviewWindow): PreviewMessage | undefined {
  if (!fromParent(event, self)) return undefined;
  const data = event.data;
  if (!isRecord(data) || data.tag !== PREVIEW_TAG) return undefined;
  switch (data.type) {
    case 'config':
      // The server validates drafts; the runtime reads each field defensively (src/preview/draft.ts).
      return isRecord(data.config) ? { type: 'config', config: data.config as unknown as AppConfig } : undefined;
    case 'screen':
      return isPreviewScreen(data.screen) ? { type: 'screen', screen: data.screen } : undefined;
    case 'language':
      return typeof data.language === 'string' && LANGUAGE_PATTERN.test(data.language)
        ? { type: 'language', language: data.language }
        : undefined;
    default:
      return undefined;
  }
}
