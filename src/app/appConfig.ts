// The app's public configuration (SPEC.md section 3): read at start-up with GetAppAnonymous, held in a
// store every screen reads, which the configurator's preview (src/preview) may replace with a draft.
import type { ApiClient } from '../api/index.ts';
import { errorCodes } from '../flow/errors.ts';
import { GetAppAnonymousDocument, type GetAppAnonymousQuery } from '../gql/graphql.ts';
import type { CustomSignupField } from '../policy/app-config.ts';

export type PublicAppConfig = NonNullable<GetAppAnonymousQuery['getAppAnonymous']> & {
  /**
   * Signup fields that replace the published ones (getTenantUserCustomParamsConfigAnonymous): set
   * only by a preview, whose draft may have changed them.
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
    const data = await api.request(GetAppAnonymousDocument);
    return data.getAppAnonymous ? { status: 'ready', app: data.getAppAnonymous } : { status: 'unknown-app' };
  } catch (error) {
    return isUnknownAppError(error) ? { status: 'unknown-app' } : { status: 'unavailable' };
  }
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
