// What a logo upload may be (the configurator's app logo, a workspace's logo): the server refuses
// anything else (server/admin/logo.ts), and the file pickers offer and describe exactly this.
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 256 * 1024;

/** Where the API host serves an app's uploads (logos); a logo is an upload when its address starts here. */
export function assetsBaseOf(apiUrl: string, appId: string): string {
  return `${apiUrl}/${encodeURIComponent(appId)}/assets/`;
}
