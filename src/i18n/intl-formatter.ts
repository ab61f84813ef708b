// Numbers in texts ({{count}}, {{total}}) are written the way the text's language writes them
// (12 345 in Swedish, 12.345 in German, ١٢٬٣٤٥ in Arabic) by Intl, in the runtime and the configurator,
// and by ./carried-texts.ts before i18next has loaded.
// Digits are grouped from five on ('min2'), so a year or a version number reads 2026, never 2,026.
import type { FormatterModule, InitOptions } from 'i18next';

export const intlFormatter: FormatterModule = {
  type: 'formatter',
  init() {},
  add() {},
  addCached() {},
  // i18next types the result as a string, yet hands back whatever it gets for non-numbers.
  format(value: unknown, _format: string | undefined, language: string | undefined): string {
    return formatInterpolated(value, language) as string;
  },
};

/** A value put into a text: a number written as `language` writes it, anything else as it is. */
export function formatInterpolated(value: unknown, language: string | undefined): unknown {
  return typeof value === 'number' && Number.isFinite(value)
    ? new Intl.NumberFormat(language, { useGrouping: 'min2' }).format(value)
    : value;
}

/**
 * How the runtime's and the configurator's i18next read texts: English the fallback, set up at once,
 * and every interpolated value through the formatter (values are text, React escapes them).
 */
export const I18NEXT_OPTIONS = {
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false, alwaysFormat: true },
  returnNull: false,
} as const satisfies InitOptions;
