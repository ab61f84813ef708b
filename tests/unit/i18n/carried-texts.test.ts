// The texts a server-drawn page hydrates with before i18next has loaded (src/i18n/carried-texts.ts)
// must read exactly as i18next reads them, or the hydrated screen would differ from the server's
// drawing: every key of every shipped locale, the app's overrides, plurals and values, both ways.
import { describe, expect, it } from 'vitest';
import { carriedTexts } from '../../../src/i18n/carried-texts.ts';
import { applyTranslations, createI18n } from '../../../src/i18n/i18next.ts';
import type { TranslationResources } from '../../../src/i18n/index.ts';
import { flatten, LOCALE_DIRECTORIES, localesIn } from './locale-files.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const COUNTS = [0, 1, 2, 5, 21];

const shippedOf = (locale: string) =>
  JSON.parse(readFileSync(path.join(LOCALE_DIRECTORIES.runtime, `${locale}.json`), 'utf8')) as Record<string, unknown>;

/** Every `{{name}}` the texts name, given a value: words, and a number where a text writes one. */
function sampleValues(texts: string[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const text of texts) {
    for (const [, inner] of text.matchAll(/{{-?(.+?)}}/g)) values[inner!.split(',')[0]!.trim()] = `«${inner}»`;
  }
  return { ...values, total: 12345, percentage: 42.5, year: 2026 };
}

/** The app's overrides: a shipped text replaced, new texts with values and plural forms, some only in English. */
function overridesFor(locale: string): TranslationResources {
  const english = {
    custom: {
      onlyEnglish: 'Only in English, {{name}}',
      englishItems_one: 'one English item',
      englishItems_other: '{{count}} English items',
    },
  };
  const own = {
    login: { heading: 'Welcome back to {{app}}' },
    custom: {
      greeting: 'Hello {{name}}, {{ name }} and {{name, uppercase}}',
      items_zero: 'No items',
      items_one: '{{count}} item',
      items_two: '{{count}} items (two)',
      items_few: '{{count}} items (few)',
      items_many: '{{count}} items (many)',
      items_other: '{{count}} items of {{total}}',
      nested: { deeper: { text: 'Deep {{missing}} and {{gone}} and {{none}}' } },
      'dotted.key': 'A key with a dot',
      empty: '',
    },
  };
  return locale === 'en' ? { en: { ...own, custom: { ...own.custom, ...english.custom } } } : { [locale]: own, en: english };
}

const OVERRIDE_KEYS = [
  'login.heading',
  'custom.greeting',
  'custom.items',
  'custom.nested.deeper.text',
  'custom.dotted.key',
  'custom.empty',
  'custom.onlyEnglish',
  'custom.englishItems',
  'custom.nested',
  'custom.nowhere',
  'not a key: a sentence.',
];

describe('carriedTexts', () => {
  for (const locale of localesIn(LOCALE_DIRECTORIES.runtime)) {
    it(`reads every ${locale} text and override as i18next does`, () => {
      const shipped = shippedOf(locale);
      const overrides = overridesFor(locale);
      const i18n = createI18n(locale, { [locale]: shipped });
      applyTranslations(i18n, overrides);
      const carried = carriedTexts(locale, shipped, overrides);
      const flat = flatten(shipped);
      const keys = [...Object.keys(flat), ...OVERRIDE_KEYS];
      const values = sampleValues(Object.values(flat));
      const optionSets: Record<string, unknown>[] = [
        {},
        values,
        ...COUNTS.map((count) => ({ ...values, count })),
        { ...values, name: undefined, gone: null, defaultValue: 'Default for {{name}}' },
      ];

      expect(carried.language).toBe(i18n.language);
      let compared = 0;
      for (const key of keys) {
        // Plural keys are read by their base key with a count: both ways are compared.
        const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
        for (const candidate of new Set([key, base])) {
          expect(carried.exists(candidate), candidate).toBe(i18n.exists(candidate));
          for (const options of optionSets) {
            expect(carried.exists(candidate, options), candidate).toBe(i18n.exists(candidate, options));
            expect(carried.t(candidate, options), `${candidate} ${JSON.stringify(options)}`).toBe(i18n.t(candidate, options));
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(keys.length * optionSets.length - 1);
    });
  }

  it('takes the plural form the language names, and _zero for none when the text has it', () => {
    const texts = carriedTexts('en', {}, overridesFor('en'));
    expect(COUNTS.map((count) => texts.t('custom.items', { count, total: 12345 }))).toEqual([
      'No items',
      '1 item',
      '2 items of 12,345',
      '5 items of 12,345',
      '21 items of 12,345',
    ]);
    const arabic = carriedTexts('ar', {}, overridesFor('ar'));
    expect(arabic.t('custom.items', { count: 2 })).toBe(`${new Intl.NumberFormat('ar').format(2)} items (two)`);
    expect(arabic.t('custom.englishItems', { count: 21 })).toBe('21 English items');
  });
});
