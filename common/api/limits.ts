// The admin API's input limits the configurator's fields show, apart from the schemas in admin.ts so
// a screen reads them without bundling TypeBox.

/** At most this many characters name an API key. */
export const MAX_API_KEY_NAME_LENGTH = 100;
/** At most this many characters of a publish note. */
export const MAX_PUBLISH_NOTE_LENGTH = 500;
