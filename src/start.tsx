// The runtime's start, imported by the page's entry (src/main.tsx): reads what the page carries, starts
// the auth client and the runtime, then hydrates the server's drawing or draws.
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchLocale } from '../common/locales.ts';
import { createApiClient } from './api/client.ts';
import { languageChoiceStore, startRuntime, type StartedRuntime } from './app/App.tsx';
import { FirstStepApp } from './app/first-step.tsx';
import { loadAppConfigAnonymously, withAuthMode } from './runtime/app-config.ts';
import { addressWithoutAppId, launchConfig } from './app/launch.ts';
import { browserRuntime, createAuthClient } from './auth/index.ts';
import { adoptShippedTexts, CUSTOM_CSS_LINK_ID, loadCustomCss } from './i18n/index.ts';
import { carriedTexts } from './i18n/carried-texts.ts';
import type { I18nextTexts } from './i18n/i18next.ts';
import { fixedTexts } from './i18n/texts.ts';
import { previewBrowserRuntime } from './preview/storage.ts';
import { createRedirect } from './runtime/redirect.ts';
import { loadOwnerPatterns } from './flow/logic.ts';
import { flowAt, openingForms } from './flow/flows.ts';
import { loadForm } from './flow/forms.ts';
import { readFirstPaint } from './ssr/first-paint.ts';
import { componentRegistry } from './components/registry.ts';
import { RjsfStepForm } from './app/screens/flow-screen/rjsf-step-form.ts';
import { isComponentName } from './flow/registry-names.ts';
import type { Flow } from './flow/types.ts';

const config = launchConfig(globalThis.location.search);
// What the server carried in the page (src/ssr/render.tsx): no app config or texts to fetch then.
const firstPaint = readFirstPaint(config);
const cleanAddress = addressWithoutAppId(globalThis.location);
if (cleanAddress) globalThis.history.replaceState(globalThis.history.state, '', cleanAddress);
// A page drawn for another app (an address without ?appId, for the app this tab stored) carries that app's stylesheet.
if (!firstPaint) document.getElementById(CUSTOM_CSS_LINK_ID)?.remove();
loadCustomCss(config.apiUrl, config.appId);
const languageChoice = languageChoiceStore(config);
// ?lng= is the visitor's choice, as the language switch makes it; the server's first paint reads it too.
const addressLanguage = matchLocale(new URLSearchParams(globalThis.location.search).get('lng'));
if (addressLanguage && !config.preview) languageChoice.set(addressLanguage);

// A page the server did not draw is drawn under React Router and i18next: their chunks are fetched from the start.
const routedScreens = firstPaint?.rendered ? undefined : import('./app/routed-screens.tsx');
const i18nextModule = firstPaint?.rendered ? undefined : import('./i18n/i18next.ts');

let i18nextLoading: Promise<I18nextTexts> | undefined;
/** i18next showing the started runtime's language and the app's texts, set up once. */
function loadI18next(started: StartedRuntime): Promise<I18nextTexts> {
  i18nextLoading ??= (i18nextModule ?? import('./i18n/i18next.ts')).then(({ i18nextShowing }) =>
    i18nextShowing(started.language, started.translations),
  );
  return i18nextLoading;
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
// The first step's form and its validator load while the app config is read, not after it.
for (const form of openingForms(globalThis.location.pathname)) void loadForm(form).catch(() => undefined);

/** The drawn flow, its first step's form and components loaded, so hydration draws all of it at once. */
async function firstStepLoaded(path: string): Promise<Flow | undefined> {
  const flow = await flowAt(path);
  const step = flow?.steps[flow.initial];
  const components = [step?.component, ...(step?.slots ?? []).map((slot) => (slot.type === 'component' ? slot.component : undefined))]
    .filter((name): name is string => typeof name === 'string')
    .filter(isComponentName);
  const form = async (name: string) => {
    if (!(await loadForm(name)).plainFields) await RjsfStepForm.preload();
  };
  await Promise.all([step?.form ? form(step.form) : undefined, ...components.map((name) => componentRegistry[name].preload())]);
  return flow;
}

async function start(root: HTMLElement): Promise<void> {
  // The app config names the app's auth mode, so it is read first; the mode is chosen here, once.
  const appConfig = firstPaint?.appConfig ?? (await loadAppConfigAnonymously(config));
  if (appConfig.status === 'ready' && appConfig.app.passwordComplexityRegex) await loadOwnerPatterns();
  const auth = await createAuthClient(
    withAuthMode(config, appConfig),
    config.preview ? previewBrowserRuntime() : browserRuntime(createRedirect(config).replace),
  );
  const api = createApiClient(config, auth);
  if (firstPaint?.texts) adoptShippedTexts(firstPaint.language, firstPaint.texts);
  const started = await startRuntime({ config, auth, api, appConfig }, languageChoice, firstPaint?.translations);
  // The server drew the screen for a signed-out visitor in the language it chose: hydrated when the
  // runtime would draw the same, drawn afresh otherwise (a stored session or language choice).
  const hydrating = firstPaint?.rendered === true && started.language === firstPaint.language && !auth.isAuthenticated();
  if (hydrating) {
    // The page's texts draw the step until i18next is in (./app/first-step.tsx); a language Foyer does
    // not ship comes with no texts but the app's, and their English fallback comes with i18next.
    const texts = firstPaint.texts
      ? fixedTexts(carriedTexts(firstPaint.language, firstPaint.texts, started.translations))
      : (await loadI18next(started)).texts;
    // The drawn step's code first: the flow's start updates the step, and React draws a part that is
    // still waiting for its code afresh, losing what was typed into it.
    const flow = await firstStepLoaded(globalThis.location.pathname);
    // As a transition, hydration yields to the browser every few milliseconds (React's time slicing)
    // instead of running as one long task, so keystrokes into the drawn field are handled meanwhile.
    startTransition(() => {
      hydrateRoot(
        root,
        <FirstStepApp
          started={started}
          texts={texts}
          loadI18next={() => loadI18next(started)}
          languageChoice={languageChoice}
          flow={flow}
        />,
      );
    });
  } else {
    // React Router and every screen: not in a drawn page's first load (./app/first-step.tsx).
    const [{ App }, { i18n, texts }] = await Promise.all([routedScreens ?? import('./app/routed-screens.tsx'), loadI18next(started)]);
    createRoot(root).render(<App started={started} i18n={i18n} texts={texts} languageChoice={languageChoice} />);
  }
}

void start(container);
