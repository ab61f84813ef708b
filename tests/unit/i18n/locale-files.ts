// The three sets of shipped texts (runtime screens, configurator, mail and SMS) as the locale tests
// read them: every <locale>.json present, flattened to dotted keys.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Relative to the repository, where the tests run. */
export const LOCALE_DIRECTORIES = {
  runtime: path.resolve('src/i18n/locales'),
  configurator: path.resolve('configurator/i18n'),
  notify: path.resolve('server/notify/locales'),
};

export type Texts = Record<string, string>;

export function flatten(tree: unknown, prefix = '', into: Texts = {}): Texts {
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into[path] = value;
    else if (value && typeof value === 'object' && !Array.isArray(value)) flatten(value, path, into);
    else into[path] = String(value);
  }
  return into;
}

/** The locales with a file in `directory`, without the `.json`. */
export function localesIn(directory: string): string[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

export function readTexts(directory: string, locale: string): Texts {
  return flatten(JSON.parse(readFileSync(path.join(directory, `${locale}.json`), 'utf8')));
}
