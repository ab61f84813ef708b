// Start-up: the screens render only after the auth client's start-up check, the app config and the
// app's translations are in (src/start.tsx; on the server, src/ssr/render.tsx draws the same screens). In preview mode the configurator's drafts then replace the app config,
// translations and look (src/preview) through the same stores. The texts' translator is set up by the
// caller (src/i18n/i18next.ts, or src/i18n/carried-texts.ts for a drawn first step), in the language chosen here.
import { useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { ApiClient } from '../api/client.ts';
import { ApiClientProvider } from '../api/context.tsx';
import type { AuthClient } from '../auth/types.ts';
import type { ClientConfig } from '../config.ts';
import { browserLanguages, createLanguageChoiceStore, screenLanguage, signedInLocale, type LanguageChoiceStore } from '../i18n/choice.ts';
import { LanguageChoiceContext } from '../i18n/choice-context.ts';
import { loadAppTranslations, shippedTextsOf, type TranslationResources } from '../i18n/index.ts';
import { TextsProvider, type TextsStore } from '../i18n/texts.ts';
import { createAppConfigStore, withCapabilities, type AppConfigState, type AppConfigStore } from '../runtime/app-config.ts';
import { RuntimeContext, type Runtime } from '../runtime/context.tsx';
import { capabilitiesOf } from '../auth/capabilities.ts';

export interface AppProps {
  config: ClientConfig;
  auth: AuthClient;
  api: ApiClient;
  /** Read before the auth client was created, since it names the auth mode (src/start.tsx). */
  appConfig: AppConfigState;
}

export interface StartedRuntime extends Omit<Runtime, 'appConfig'> {
  appConfig: AppConfigStore;
  /** The language the first screen shows. */
  language: string;
  /** The app's text overrides, every language. */
  translations: TranslationResources;
}

export async function startRuntime(
  { config, auth, api, appConfig }: AppProps,
  languageChoice: LanguageChoiceStore = createLanguageChoiceStore(undefined),
  /** The app's translations when the page carried them (src/ssr/first-paint.ts); fetched otherwise. */
  appTranslations?: TranslationResources,
): Promise<StartedRuntime> {
  const app = appConfig.status === 'ready' ? appConfig.app : undefined;
  const [, translations] = await Promise.all([
    // A failed start-up check means signed out (docs/SPEC.md section 4).
    auth.init().catch(() => undefined),
    appTranslations ? Promise.resolve(appTranslations) : loadAppTranslations(config.apiUrl, config.appId),
    // The language the visitor will most likely see (the signed-in user's is known after init) is
    // fetched beside them rather than after.
    shippedTextsOf(screenLanguage({ chosen: languageChoice.get(), preferred: browserLanguages(), app })),
  ]);
  const language = screenLanguage({ userLocale: signedInLocale(auth), chosen: languageChoice.get(), preferred: browserLanguages(), app });
  return { config, auth, api, appConfig: createAppConfigStore(appConfig), language, translations };
}

/** The runtime context, re-rendered with the app config store's current state. */
export function RuntimeProvider({
  started,
  children,
}: {
  started: Pick<StartedRuntime, 'config' | 'auth' | 'api' | 'appConfig'>;
  children: ReactNode;
}) {
  const appConfig = useSyncExternalStore(started.appConfig.subscribe, started.appConfig.get, started.appConfig.get);
  const runtime = useMemo<Runtime>(
    () => ({
      config: started.config,
      auth: started.auth,
      api: started.api,
      appConfig: withCapabilities(appConfig, capabilitiesOf(started.auth)),
    }),
    [started, appConfig],
  );
  return <RuntimeContext value={runtime}>{children}</RuntimeContext>;
}

/** What every screen is drawn in: its texts, the language choice, the runtime and the API client. */
export function RuntimeScreens({
  started,
  texts,
  languageChoice,
  children,
}: {
  started: StartedRuntime;
  texts: TextsStore;
  languageChoice: LanguageChoiceStore;
  children: ReactNode;
}) {
  return (
    <TextsProvider store={texts}>
      <LanguageChoiceContext value={languageChoice}>
        <RuntimeProvider started={started}>
          <ApiClientProvider client={started.api}>{children}</ApiClientProvider>
        </RuntimeProvider>
      </LanguageChoiceContext>
    </TextsProvider>
  );
}

/** The visitor's choice is remembered in this browser, except in a preview, which leaves storage alone. */
export function languageChoiceStore(config: ClientConfig): LanguageChoiceStore {
  return createLanguageChoiceStore(config.preview ? undefined : globalThis.localStorage);
}
