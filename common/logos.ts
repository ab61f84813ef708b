// What a logo upload may be (the configurator's app logo, a workspace's logo): the server refuses
// anything else (server/admin/logo.ts), and the file pickers offer and describe exactly this.
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 256 * 1024;
