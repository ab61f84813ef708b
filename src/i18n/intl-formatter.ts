// Numbers in texts ({{count}}, {{total}}) are written the way the text's language writes them
// (1 234 in Swedish, 1.234 in German, ١٬٢٣٤ in Arabic) by Intl, in the runtime and the configurator.
import type { FormatterModule, InitOptions } from 'i18next';

export const intlFormatter: FormatterModule = {
  type: 'formatter',
  init() {},
  add() {},
  addCached() {},
  // i18next types the result as a string, yet hands back whatever it gets for non-numbers.
  format(value: unknown, _format: string | undefined, language: string | undefined): string {
    return (typeof value === 'number' && Number.isFinite(value) ? new Intl.NumberFormat(language).format(value) : value) as string;
  },
};

/** Every interpolated value passes the formatter; values are text, React escapes them. */
export const INTERPOLATION: InitOptions['interpolation'] = { escapeValue: false, alwaysFormat: true };
