// Every shipped locale file against English: the same keys (plural keys by the language's own CLDR
// categories, as i18next picks them), no text left in English (but a few intended loanwords), and
// the same {{placeholders}} and <tags>. Runs over whatever locale files exist in the three places.
import { describe, expect, it } from 'vitest';
import { isSupportedLocale } from '../../../common/locales.ts';
import { LOCALE_DIRECTORIES, localesIn, readTexts, type Texts } from './locale-files.ts';

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * Texts a translation may keep as English wrote them (placeholders aside): names of products and
 * companies, and words the languages write as English does. Anything else identical to English is
 * an untranslated text.
 */
const LOANWORDS = new Set([
  'Stripe',
  'Plan',
  'Taxes',
  'Description',
  'VAT',
  'wk',
  'Apple',
  'Facebook',
  'GitHub',
  'Google',
  'LinkedIn',
  'Microsoft',
  'Admin',
  'Manager',
  'Logo',
  'Status',
  'Name',
  'Text',
  'Filter',
  'Live',
  'Desktop',
  'Mobile',
  'Console',
  'Type',
  'Branding',
  'Passkey',
  'Passkeys',
  'E-mail',
  'Email',
  'Person',
  'Version',
  'Versions',
  'Apps',
  'Date',
  'Code',
  'Position',
  'Pagination',
  'Actions',
  'Role',
  'Password',
  'Download',
  'Send link',
  'Login: e-mail',
  'Links',
  'minute',
  'minutes',
  'message',
  'messages',
  // Protocol names (the workspace's enterprise sign-in connections).
  'OpenID Connect (OIDC)',
  'SAML 2.0',
  'Webhooks',
  'Webhook',
  'ms',
]);

function pluralBases(english: Texts): Set<string> {
  return new Set(
    Object.keys(english)
      .filter((key) => key.endsWith('_other'))
      .map((key) => key.replace(PLURAL_SUFFIX, '')),
  );
}

/** The keys `locale` must have: English's, each plural key once per category of the language. */
export function expectedKeys(english: Texts, locale: string): string[] {
  const bases = pluralBases(english);
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of Object.keys(english)) {
    const base = key.replace(PLURAL_SUFFIX, '');
    if (PLURAL_SUFFIX.test(key) && bases.has(base)) for (const category of categories) keys.add(`${base}_${category}`);
    else keys.add(key);
  }
  return [...keys].sort();
}

/** The English text a key of `locale` translates: its own, or for a plural form English's `other`. */
function englishFor(english: Texts, key: string): string | undefined {
  return english[key] ?? english[key.replace(PLURAL_SUFFIX, '_other')];
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map((match) => match[1]!).sort();
const tags = (text: string) => [...text.matchAll(/<\/?([A-Za-z0-9]+)\s*\/?>/g)].map((match) => match[0].replace(/\s/g, '')).sort();

/** The braces outside {{placeholders}}: English's own ({year}, {"keys": [...]}) must stay as they are. */
const strayBraces = (text: string) => text.replace(/\{\{[A-Za-z_][A-Za-z0-9_.]*\}\}/g, '').replace(/[^{}]/g, '');

/** A brace that opens or closes no placeholder ({{name}, {name}}), or a tag without its end. */
function brokenMarkup(text: string, source: string): string | undefined {
  if (strayBraces(text) !== strayBraces(source)) return 'a brace that is no {{placeholder}}';
  const stack: string[] = [];
  for (const [, closing, name] of text.matchAll(/<(\/?)([A-Za-z0-9]+)>/g)) {
    if (!closing) stack.push(name!);
    else if (stack.pop() !== name) return `</${name}> closes no <${name}>`;
  }
  return stack.length > 0 ? `<${stack.at(-1)}> is never closed` : undefined;
}

const withoutPlaceholders = (text: string) => text.replace(/\{\{[^{}]*\}\}/g, '').trim();

/** An example e-mail address or a file name: the same in every language, as a translation may keep it. */
const NEUTRAL = /^(\S+@\S+\.\w+|[\w-]+\.txt)$/;

/** Only placeholders, digits and signs (or a neutral value): reads the same in every language. */
const hasWords = (text: string) => /\p{L}/u.test(withoutPlaceholders(text)) && !NEUTRAL.test(text);

export function localeProblems(english: Texts, locale: string, texts: Texts): string[] {
  const problems: string[] = [];
  const expected = expectedKeys(english, locale);
  const present = Object.keys(texts);
  for (const key of expected) if (!(key in texts)) problems.push(`missing: ${key}`);
  for (const key of present) if (!expected.includes(key)) problems.push(`extra: ${key}`);
  for (const [key, text] of Object.entries(texts)) {
    const source = englishFor(english, key);
    if (source === undefined) continue;
    const broken = brokenMarkup(text, source);
    if (broken) problems.push(`${key}: ${broken}`);
    const isPluralForm = PLURAL_SUFFIX.test(key) && !(key in english && key.endsWith('_other'));
    const wanted = placeholders(source);
    const own = placeholders(text);
    // A plural form other than `other` may write the number out ("one session", "يوم واحد").
    const needed = isPluralForm ? wanted.filter((name) => name !== 'count') : wanted;
    if (own.some((name) => !wanted.includes(name)) || needed.some((name) => !own.includes(name))) {
      problems.push(`${key}: placeholders ${JSON.stringify(own)}, English has ${JSON.stringify(wanted)}`);
    }
    if (JSON.stringify(tags(text)) !== JSON.stringify(tags(source))) {
      problems.push(`${key}: tags ${JSON.stringify(tags(text))}, English has ${JSON.stringify(tags(source))}`);
    }
    if (locale !== 'en' && text === source && hasWords(text) && !LOANWORDS.has(withoutPlaceholders(text)))
      problems.push(`${key}: still English ("${text}")`);
    if (text.trim() === '') problems.push(`${key}: empty`);
  }
  return problems;
}

describe.each(Object.entries(LOCALE_DIRECTORIES))('%s locale files', (_name, directory) => {
  const english = readTexts(directory, 'en');
  const locales = localesIn(directory);

  it('are named after supported locales', () => {
    expect(locales.filter((locale) => !isSupportedLocale(locale))).toEqual([]);
  });

  it('English has both plural forms of every plural key', () => {
    expect(expectedKeys(english, 'en')).toEqual(Object.keys(english).sort());
  });

  it.each(locales.filter((locale) => locale !== 'en'))('%s: same keys as English, translated, placeholders and tags intact', (locale) => {
    expect(localeProblems(english, locale, readTexts(directory, locale))).toEqual([]);
  });
});

describe('the locale check itself', () => {
  const english: Texts = {
    'a.title': 'Sign in',
    'a.count_one': '{{count}} day',
    'a.count_other': '{{count}} days',
    'a.link': 'Read the <terms>terms</terms> of {{app}}',
  };
  const german: Texts = {
    'a.title': 'Anmelden',
    'a.count_one': '{{count}} Tag',
    'a.count_other': '{{count}} Tage',
    'a.link': 'Die <terms>Bedingungen</terms> von {{app}} lesen',
  };

  it('passes a complete translation', () => {
    expect(localeProblems(english, 'de', german)).toEqual([]);
  });

  it('asks for each plural category of the language', () => {
    const { 'a.count_one': _one, ...polishWithoutOne } = german;
    expect(localeProblems(english, 'pl', polishWithoutOne)).toEqual(
      expect.arrayContaining(['missing: a.count_one', 'missing: a.count_few', 'missing: a.count_many']),
    );
    expect(localeProblems(english, 'ja', german)).toContain('extra: a.count_one');
  });

  it('finds missing, extra, English, broken placeholders and tags', () => {
    const problems = localeProblems(english, 'de', {
      'a.title': 'Sign in',
      'a.count_one': '{{count} Tag',
      'a.count_other': '{{anzahl}} Tage',
      'a.link': 'Die <terms>Bedingungen von {{app}} lesen',
      'a.other': 'x',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'a.title: still English ("Sign in")',
        'a.count_one: a brace that is no {{placeholder}}',
        'a.count_other: placeholders ["anzahl"], English has ["count"]',
        'a.link: <terms> is never closed',
        'extra: a.other',
      ]),
    );
  });
});
