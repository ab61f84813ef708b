// The runtime's server entry (`vite build --ssr`, dist/ui-ssr/render.js; the hosted UI server loads it on
// the first page it serves, server/ui/first-paint.ts). For a flow route whose first step is a plain
// form it draws that step with the runtime's own screens (the same App tree, router table and theme
// as src/start.tsx), in the visitor's language and with the app's texts and branding, which the
// runtime then hydrates; for every page it says what the runtime would otherwise fetch at start-up
// (src/ssr/first-paint.ts). The visitor is drawn signed out: the server sees no stored session.
import { text } from 'node:stream/consumers';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { localeDirection } from '../../common/locales.ts';
import type { FirstPaint, FirstPaintRequest } from '../../common/first-paint.ts';
import { createApiClient } from '../api/client.ts';
import { RuntimeScreens } from '../app/App.tsx';
import { launchParameters } from '../app/launch.ts';
import { pageTitle } from '../app/page-title.ts';
import { AppRoutes, isManagementRoute } from '../app/router.tsx';
import { createAuthClient } from '../auth/index.ts';
import { defaultConfig, type ClientConfig } from '../config.ts';
import { flowAt } from '../flow/flows.ts';
import { buildContext, initialState, opensAtOnce } from '../flow/engine.ts';
import type { Flow } from '../flow/types.ts';
import type { CustomSignupField } from '../../common/app-config.ts';
import { createLanguageChoiceStore, screenLanguage } from '../i18n/choice.ts';
import { customCssUrl, shippedTextsOf } from '../i18n/index.ts';
import { applyTranslations, createI18n, showLanguage } from '../i18n/i18next.ts';
import { i18nextTexts } from '../i18n/i18next-texts.ts';
import { previewBrowserRuntime } from '../preview/storage.ts';
import { createAppConfigStore, withAuthMode, type AppConfigState, type PublicAppConfig } from '../runtime/app-config.ts';
import { publicAppConfigOf } from './app-config.ts';
import { STEP_PARAM } from '../app/step-address.ts';
import type { FirstPaintData } from './first-paint.ts';

/** Any origin serves: only the path and query of the address are read. */
const ADDRESS_ORIGIN = 'http://ui.invalid';

/**
 * The flow whose first step the server draws at `address`: a signed-out screen's flow (not a
 * management screen) opening on a form at once for this visitor (signed out, `app`, the address's
 * query; opensAtOnce), so what the server draws, defaults filled in, is what the runtime shows until
 * the person acts.
 */
async function flowDrawnAt(address: URL, app: PublicAppConfig | undefined, config: ClientConfig): Promise<Flow | undefined> {
  const flow = isManagementRoute(address.pathname) ? undefined : await flowAt(address.pathname);
  const step = flow?.steps[flow.initial];
  if (!flow || !step?.form) return undefined;
  // The context the runtime's flow starts in (src/app/screens/flow-screen/environment.ts) for a signed-out visitor.
  const context = buildContext(
    {
      app: { ...(app ?? {}) },
      config: { ...config },
      query: Object.fromEntries(address.searchParams),
      user: { authenticated: false },
      tenant: {},
      params: {},
      state: {},
      path: `${address.pathname}${address.search}`,
    },
    initialState(flow),
    flow,
  );
  return opensAtOnce(flow, context) ? flow : undefined;
}

/** The app config the page carries: GetAppAnonymous's answer and the app's signup fields, when the server gave them. */
function firstPaintAppConfig(config: Record<string, unknown>): PublicAppConfig {
  const { customSignupFields } = config;
  return {
    ...publicAppConfigOf(config),
    ...(Array.isArray(customSignupFields) ? { customSignupFields: customSignupFields as CustomSignupField[] } : {}),
  };
}

export async function renderFirstPaint(request: FirstPaintRequest): Promise<FirstPaint> {
  const address = new URL(request.url, ADDRESS_ORIGIN);
  const launch = launchParameters(address.search);
  // The configurator's preview draws its drafts, which only it knows.
  if (launch.preview) return {};
  const config: ClientConfig = { ...defaultConfig, ...request.clientConfig };
  config.appId = launch.appId ?? config.appId;
  const app = config.appId ? await request.loadApp(config.appId) : undefined;
  const appConfig: AppConfigState = app ? { status: 'ready', app: firstPaintAppConfig(app.config) } : { status: 'unknown-app' };
  const translations = app?.translations ?? {};

  const i18n = createI18n();
  applyTranslations(i18n, translations);
  const language = screenLanguage({
    chosen: address.searchParams.get('lng'),
    preferred: request.preferredLanguages,
    app: appConfig.status === 'ready' ? appConfig.app : undefined,
  });
  await showLanguage(i18n, language);

  // A step named in the address is resumed by the runtime (src/app/step-address.ts): it draws that one.
  const flow = address.searchParams.has(STEP_PARAM)
    ? undefined
    : await flowDrawnAt(address, appConfig.status === 'ready' ? appConfig.app : undefined, config);
  // Without an app every screen but the handover says so (src/app/router.tsx Shell).
  const unknownApp = appConfig.status === 'unknown-app' && !address.pathname.startsWith('/handover');
  const drawn = unknownApp ? 'errors.unknownApp.title' : flow?.title;
  const data: FirstPaintData = {
    appId: config.appId,
    appConfig,
    translations,
    language,
    texts: await shippedTextsOf(language),
    rendered: drawn !== undefined,
  };
  const page: FirstPaint = {
    data,
    lang: language,
    dir: localeDirection(language),
    stylesheet: app ? customCssUrl(config.apiUrl, config.appId) : undefined,
  };
  if (drawn === undefined) return page;

  // As src/start.tsx starts the runtime: the auth client in the app's auth mode, here with nothing stored.
  const auth = await createAuthClient(withAuthMode(config, appConfig), previewBrowserRuntime());
  const started = { config, auth, api: createApiClient(config, auth), appConfig: createAppConfigStore(appConfig), language, translations };
  // Prerendering waits for every lazy part (the screen, the form, the slots' components), so the markup is whole.
  const texts = i18nextTexts(i18n);
  const { prelude } = await prerenderToNodeStream(
    <RuntimeScreens started={started} texts={texts} languageChoice={createLanguageChoiceStore(undefined)}>
      <StaticRouter location={`${address.pathname}${address.search}`}>
        <AppRoutes />
      </StaticRouter>
    </RuntimeScreens>,
  );
  const appName = appConfig.status === 'ready' ? appConfig.app.name : undefined;
  return { ...page, markup: await text(prelude), title: pageTitle(texts.get().t, texts.get().t(drawn), appName) };
}
