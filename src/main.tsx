import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/client.ts';
import { App } from './app/App.tsx';
import { loadAppConfigAnonymously, withAuthMode } from './runtime/app-config.ts';
import { addressWithoutAppId, launchConfig } from './app/launch.ts';
import { browserRuntime, createAuthClient } from './auth/index.ts';
import { createI18n, loadCustomCss } from './i18n/index.ts';
import { previewBrowserRuntime } from './preview/storage.ts';
import { createRedirect } from './runtime/redirect.ts';
import { loadOwnerPatterns } from './flow/logic.ts';
import { openingForms } from './flow/flows.ts';
import { loadForm } from './flow/forms.ts';
import './theme/tokens.css';
import './theme/foyer.css';

const config = launchConfig(globalThis.location.search);
const cleanAddress = addressWithoutAppId(globalThis.location);
if (cleanAddress) globalThis.history.replaceState(globalThis.history.state, '', cleanAddress);
const i18n = createI18n();
loadCustomCss(config.apiUrl, config.appId);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
const root = createRoot(container);
// The first step's form and its validator load while the app config is read, not after it.
for (const form of openingForms(globalThis.location.pathname)) void loadForm(form).catch(() => undefined);

// The app config names the app's auth mode, so it is read first; the mode is chosen here, once.
void loadAppConfigAnonymously(config).then(async (appConfig) => {
  if (appConfig.status === 'ready' && appConfig.app.passwordComplexityRegex) await loadOwnerPatterns();
  const auth = await createAuthClient(
    withAuthMode(config, appConfig),
    config.preview ? previewBrowserRuntime() : browserRuntime(createRedirect(config).replace),
  );
  const api = createApiClient(config, auth);
  root.render(<App config={config} auth={auth} api={api} i18n={i18n} appConfig={appConfig} />);
});
