// The configurator's client config: the hosted UI server injects {consoleAppId, authUrl, apiUrl, uiUrl,
// env} as JSON in configurator/index.html. The configurator signs in as the console app, so the auth
// client gets a ClientConfig whose app is the console app and whose callback is /configurator/callback.
import { defaultConfig, type ClientConfig } from '../src/config.ts';

export const CONSOLE_BASE_PATH = '/configurator';
export const CONSOLE_CALLBACK_PATH = `${CONSOLE_BASE_PATH}/callback`;
export const CONSOLE_APPS_PATH = `${CONSOLE_BASE_PATH}/apps`;

export interface ConsoleConfig {
  consoleAppId: string;
  authUrl: string;
  apiUrl: string;
  uiUrl: string;
  env: ClientConfig['env'];
}

const defaults: ConsoleConfig = {
  consoleAppId: 'foyer-console',
  authUrl: defaultConfig.authUrl,
  apiUrl: defaultConfig.apiUrl,
  uiUrl: defaultConfig.uiUrl,
  env: defaultConfig.env,
};

function injected(): Partial<ConsoleConfig> {
  if (typeof document === 'undefined') return {};
  const text = document.getElementById('foyer-config')?.textContent;
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<ConsoleConfig>) : {};
  } catch {
    return {};
  }
}

export function loadConsoleConfig(overrides: Partial<ConsoleConfig> = {}): ConsoleConfig {
  return { ...defaults, ...injected(), ...overrides };
}

/** The auth client's view: the console app, its callback, and the apps list after sign-in. */
export function consoleClientConfig(config: ConsoleConfig): ClientConfig {
  return {
    ...defaultConfig,
    appId: config.consoleAppId,
    authUrl: config.authUrl,
    apiUrl: config.apiUrl,
    uiUrl: config.uiUrl,
    env: config.env,
    oauthRedirectPath: CONSOLE_CALLBACK_PATH,
    handoverRoute: CONSOLE_APPS_PATH,
  };
}

/** The console's signed-out page: where a sign-out returns (a registered post-logout URI of the console app). */
export function consoleHomeUrl(config: ConsoleConfig): string {
  return `${config.uiUrl.replace(/\/+$/, '')}${CONSOLE_BASE_PATH}`;
}

/** The runtime's hosted signup for the console app: a new owner gets a console workspace. */
export function consoleSignupUrl(config: ConsoleConfig): string {
  return `${config.uiUrl.replace(/\/+$/, '')}/auth/signup?appId=${encodeURIComponent(config.consoleAppId)}`;
}
