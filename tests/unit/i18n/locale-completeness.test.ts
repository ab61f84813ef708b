// Every supported locale (common/locales.ts) ships all three files: the runtime's, the configurator's
// and the mail's.
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../../../common/locales.ts';
import { LOCALE_DIRECTORIES, localesIn } from './locale-files.ts';

describe('shipped languages', () => {
  it.each(Object.entries(LOCALE_DIRECTORIES))('%s: a file for every supported locale', (_name, directory) => {
    const present = localesIn(directory);
    expect(SUPPORTED_LOCALES.filter((locale) => !present.includes(locale))).toEqual([]);
  });
});
