// The app's public configuration (SPEC.md section 3), read once at start-up with GetAppAnonymous.
import type { ApiClient } from '../api/index.ts';
import { errorCodes } from '../flow/errors.ts';
import { GetAppAnonymousDocument, type GetAppAnonymousQuery } from '../gql/graphql.ts';

export type PublicAppConfig = NonNullable<GetAppAnonymousQuery['getAppAnonymous']>;

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
