// What a runtime page's address says at load, read by the runtime (src/app/launch.ts, which stores
// the app) and by the hosted UI server (server/ui/first-paint.ts, which remembers it in a cookie):
// the app (?appId=, set by the auth service's redirects and the handovers so any app's login shows
// that app) and preview mode (?preview=1, the configurator's iframe).

export interface LaunchParameters {
  appId?: string;
  preview: boolean;
}

/** An address's query (URLSearchParams), as far as it is read here. */
export interface AddressQuery {
  get(name: string): string | null;
}

/** App ids are UUIDs or short slugs (foyer-console); anything else is ignored. */
const APP_ID_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

export function isAppId(text: string): boolean {
  return APP_ID_PATTERN.test(text);
}

export function launchParametersOf(query: AddressQuery): LaunchParameters {
  const appId = query.get('appId') ?? '';
  return { appId: isAppId(appId) ? appId : undefined, preview: query.get('preview') === '1' };
}
