// Client configuration (docs/SPEC.md section 3). The hosted UI server injects the deployment's values as
// JSON in index.html (<script id="foyer-config" type="application/json">); the rest are defaults.

export interface ClientConfig {
  appId: string;
  authUrl: string;
  apiUrl: string;
  uiUrl: string;
  graphqlPath: string;
  oauthRedirectPath: string;
  handoverRoute: string;
  authLegacy: boolean;
  passwordValidation: boolean;
  passwordComplexityRegex?: string;
  copyrightFooter?: string;
  disableRedirects: boolean;
  debug: boolean;
  languages: string[];
  openRoutes: string[];
  env: 'development' | 'production';
  /** The configurator's live preview (?preview=1): the draft arrives by postMessage (src/preview). */
  preview: boolean;
}

export const defaultConfig: ClientConfig = {
  appId: '',
  authUrl: 'http://localhost:3070',
  apiUrl: 'http://localhost:3000',
  uiUrl: 'http://localhost:8080',
  graphqlPath: '/graphql',
  oauthRedirectPath: '/auth/oauth-callback',
  handoverRoute: '/',
  authLegacy: false,
  passwordValidation: true,
  disableRedirects: false,
  debug: false,
  languages: ['en'],
  openRoutes: [],
  env: 'production',
  preview: false,
};

export const STORAGE_PREFIX = 'NB_';

/** The app the runtime serves, stored by a handover or an ?appId= address (docs/SPEC.md section 3). */
export const APP_ID_STORAGE_KEY = `${STORAGE_PREFIX}APP_ID`;

function injected(): Partial<ClientConfig> {
  if (typeof document === 'undefined') return {};
  const text = document.getElementById('foyer-config')?.textContent;
  if (!text) return {};
  try {
    return JSON.parse(text) as Partial<ClientConfig>;
  } catch {
    return {};
  }
}

/** The app id a handover or an ?appId= address stored wins over the injected one. */
function storedAppId(): string | undefined {
  if (typeof localStorage === 'undefined') return undefined;
  return localStorage.getItem(APP_ID_STORAGE_KEY) ?? undefined;
}

export function loadConfig(overrides: Partial<ClientConfig> = {}): ClientConfig {
  const merged = { ...defaultConfig, ...injected(), ...overrides };
  return { ...merged, appId: overrides.appId ?? storedAppId() ?? merged.appId };
}
