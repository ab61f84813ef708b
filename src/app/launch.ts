// What the page's address tells the runtime at load (common/launch.ts), adopted: the app is stored
// for the next page loads. Read once; client-side navigation keeps what was read.
import { launchParametersOf, type LaunchParameters } from '../../common/launch.ts';
import { APP_ID_STORAGE_KEY, loadConfig, type ClientConfig } from '../config.ts';
import { sessionKeys } from '../auth/storage-keys.ts';

export function launchParameters(search: string): LaunchParameters {
  return launchParametersOf(new URLSearchParams(search));
}

/**
 * Makes `appId` the stored app. A session belongs to one app: when another app was in use, its
 * session keys go, so the new app's screens never act on the old app's tokens.
 */
export function adoptAppId(storage: Storage, appId: string, previousAppId: string): void {
  if (appId !== previousAppId) {
    for (const key of sessionKeys) storage.removeItem(key);
  }
  storage.setItem(APP_ID_STORAGE_KEY, appId);
}

/**
 * The client config of this page load. A preview keeps the app id in memory only: the configurator's
 * iframe must not change which app (and session) the runtime's own tabs use.
 */
export function launchConfig(search: string): ClientConfig {
  const launch = launchParameters(search);
  if (!launch.appId) return loadConfig({ preview: launch.preview });
  if (!launch.preview) adoptAppId(localStorage, launch.appId, loadConfig().appId);
  return loadConfig({ appId: launch.appId, preview: launch.preview });
}

/**
 * The page's address without `appId` once it has been adopted, so the address bar, reloads and
 * return paths carry only the screen; undefined when there is nothing to drop (or in preview mode).
 */
export function addressWithoutAppId(location: { pathname: string; search: string; hash: string }): string | undefined {
  const query = new URLSearchParams(location.search);
  if (!query.has('appId') || launchParameters(location.search).preview) return undefined;
  query.delete('appId');
  const search = query.toString();
  return `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
}
