// The app's public configuration (docs/SPEC.md section 3): read at start-up with GetAppAnonymous, held in a
// store every screen reads, which the configurator's preview (src/preview) may replace with a draft.
// The client itself, not src/api/index.ts, whose TanStack Query helpers the first screen does not need.
import { createApiClient, type ApiClient } from '../api/client.ts';
import { apiHeaderRules } from '../http/headers.ts';
import type { AuthCapability } from '../auth/types.ts';
import type { ClientConfig } from '../config.ts';
import { errorCodes } from '../flow/errors.ts';
import type { GetAppAnonymousQuery } from '../gql/graphql.ts';
import type { CustomSignupField } from '../../common/app-config.ts';

export type PublicAppConfig = NonNullable<GetAppAnonymousQuery['getAppAnonymous']> & {
  /**
   * The signup fields, so the signup step need not ask for them (getTenantUserCustomParamsConfigAnonymous):
   * set by a preview, whose draft may have changed them, and by the server's first paint (the
   * published ones, src/ssr/render.tsx), which draws the step with them.
   */
  customSignupFields?: CustomSignupField[];
};

export type AppConfigState =
  | { status: 'ready'; app: PublicAppConfig }
  /** x-app-id names no app: every screen but /handover shows 'Unknown App Id'. */
  | { status: 'unknown-app' }
  /** The API host did not answer; screens run with defaults (no optional sign-in options). */
  | { status: 'unavailable' };

export function isUnknownAppError(error: unknown): boolean {
  const codes = errorCodes(error);
  return codes.includes('UNKNOWN_APP') || codes.includes('404');
}

export async function loadAppConfig(api: Pick<ApiClient, 'request'>, appId: string): Promise<AppConfigState> {
  if (!appId) return { status: 'unknown-app' };
  try {
    // The generated documents are a chunk of their own: a server-drawn page carries the app config and sends none at start.
    const { GetAppAnonymousDocument } = await import('../gql/graphql.ts');
    const data = await api.request(GetAppAnonymousDocument);
    return data.getAppAnonymous ? { status: 'ready', app: data.getAppAnonymous } : { status: 'unknown-app' };
  } catch (error) {
    return isUnknownAppError(error) ? { status: 'unknown-app' } : { status: 'unavailable' };
  }
}

/**
 * The app config as the runtime starts: read anonymously (x-app-id only), before any auth client
 * exists, because it names the app's auth mode (src/start.tsx).
 */
export function loadAppConfigAnonymously(config: ClientConfig): Promise<AppConfigState> {
  const anonymous = createApiClient(config, {
    apiHeaders: () => apiHeaderRules({ appId: config.appId }),
    ensureFresh: async () => undefined,
    clear: () => undefined,
  });
  return loadAppConfig(anonymous, config.appId);
}

/** The client configuration in the app's auth mode: legacy when the deployment or the app says so. */
export function withAuthMode(config: ClientConfig, state: AppConfigState): ClientConfig {
  return { ...config, authLegacy: config.authLegacy || (state.status === 'ready' && state.app.authLegacy === true) };
}

/**
 * The app config as the screens see it: sign-in options of a capability the auth mode lacks are off,
 * so no screen offers them (passkeys, magic links and social sign-in in the legacy mode).
 */
export function withCapabilities(state: AppConfigState, capabilities: ReadonlySet<AuthCapability>): AppConfigState {
  if (state.status !== 'ready') return state;
  const app = { ...state.app };
  if (!capabilities.has('passkeys')) app.passkeysEnabled = false;
  if (!capabilities.has('magicLink')) app.magicLinkEnabled = false;
  if (!capabilities.has('federation')) {
    app.socialProviders = [];
    for (const flag of [
      'googleSsoEnabled',
      'azureAdSsoEnabled',
      'linkedinSsoEnabled',
      'facebookSsoEnabled',
      'githubSsoEnabled',
      'appleSsoEnabled',
    ] as const) {
      app[flag] = false;
    }
  }
  return { status: 'ready', app };
}

/** The current app config and who to tell when it changes (useSyncExternalStore's contract). */
export interface AppConfigStore {
  get(): AppConfigState;
  set(state: AppConfigState): void;
  subscribe(listener: () => void): () => void;
}

export function createAppConfigStore(initial: AppConfigState): AppConfigStore {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(state) {
      current = state;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
