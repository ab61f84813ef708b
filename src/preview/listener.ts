// The runtime side of the preview: listens for the configurator's messages (guarded by protocol.ts)
// and feeds the same state the real start-up fills: the app config store, the translation store and
// the language, the router, and the document's stylesheet.
import type { i18n as I18n } from 'i18next';
import type { AppConfigStore } from '../runtime/app-config.ts';
import { replaceAppTranslations, showLanguage } from '../i18n/i18next.ts';
import type { AppConfig } from '../../common/app-config.ts';
import { publicConfigOf, translationsOf } from './draft.ts';
import { loadOwnerPatterns } from '../flow/logic.ts';
import { acceptedMessage, PREVIEW_TAG, type PreviewReply, type PreviewWindow, type ReceivedMessage } from './protocol.ts';
import { PREVIEW_NAVIGATION, previewScreenTargets, type PreviewNavigation } from './screens.ts';
import { brandingStylesheet } from '../../common/branding-css.ts';
import type { StyleTarget } from './styles.ts';

/** The runtime's window: where messages arrive and whose parent hears the replies. */
export interface PreviewHost extends PreviewWindow {
  addEventListener(type: 'message', listener: (event: ReceivedMessage) => void): void;
  removeEventListener(type: 'message', listener: (event: ReceivedMessage) => void): void;
}

export interface PreviewTargets {
  host: PreviewHost;
  appConfig: AppConfigStore;
  i18n: I18n;
  styles: StyleTarget;
  navigate(path: string, state: Record<string, PreviewNavigation>): void;
}

/** Applies a draft at once: public config, translations (replacing the previous overrides), look. */
export function applyDraft(config: AppConfig, { appConfig, i18n, styles }: Pick<PreviewTargets, 'appConfig' | 'i18n' | 'styles'>): void {
  replaceAppTranslations(i18n, translationsOf(config));
  appConfig.set({ status: 'ready', app: publicConfigOf(config) });
  styles.show(brandingStylesheet(config.branding));
  // A new store value once RE2 is there, so the password checks are evaluated again with it.
  if (config.passwordPolicy?.complexityRegex) void loadOwnerPatterns().then(() => appConfig.set({ ...appConfig.get() }));
}

function reply(host: PreviewHost, type: PreviewReply['type']): void {
  if (host.parent === host) return;
  const message: PreviewReply = { tag: PREVIEW_TAG, type };
  (host.parent as Pick<Window, 'postMessage'>).postMessage(message, host.location.origin);
}

/** Starts listening and tells the parent it is ready; answers the function that stops listening. */
export function startPreview(targets: PreviewTargets): () => void {
  const { host } = targets;
  const onMessage = (event: ReceivedMessage) => {
    const message = acceptedMessage(event, host);
    if (!message) return;
    switch (message.type) {
      case 'config':
        applyDraft(message.config, targets);
        reply(host, 'applied');
        return;
      case 'screen': {
        const target = previewScreenTargets[message.screen];
        targets.navigate(target.path, { [PREVIEW_NAVIGATION]: target.step ? { step: target.step } : {} });
        return;
      }
      case 'language':
        void showLanguage(targets.i18n, message.language);
        return;
    }
  };
  host.addEventListener('message', onMessage);
  reply(host, 'ready');
  return () => host.removeEventListener('message', onMessage);
}
