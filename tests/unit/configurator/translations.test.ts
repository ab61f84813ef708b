// Translation overrides: flat keys in the editor, nested texts in the config, counts per language.
import { describe, expect, it } from 'vitest';
import runtimeEn from '../../../src/i18n/locales/en.json';
import { flattenTexts, searchKeys, setOverride, translationCounts, unflattenTexts } from '../../../configurator/editor/translations.ts';

describe('flatten and unflatten', () => {
  it('round-trips the runtime English texts', () => {
    const flat = flattenTexts(runtimeEn);
    expect(flat['login.heading']).toBe('Login');
    expect(Object.values(flat).every((text) => typeof text === 'string')).toBe(true);
    expect(unflattenTexts(flat)).toEqual(runtimeEn);
  });

  it('leaves empty overrides out when nesting', () => {
    expect(unflattenTexts({ 'login.heading': 'Sign in', 'login.subheading': '' })).toEqual({ login: { heading: 'Sign in' } });
  });
});

describe('setOverride', () => {
  it('adds a text to a language, keeping the others', () => {
    const next = setOverride({ sv: { login: { heading: 'Logga in' } } }, 'sv', 'login.subheading', 'Ange e-post');
    expect(next).toEqual({ sv: { login: { heading: 'Logga in', subheading: 'Ange e-post' } } });
  });

  it('removes an emptied text, the emptied language, and answers undefined when nothing is left', () => {
    const start = { sv: { login: { heading: 'Logga in' } }, en: { login: { heading: 'Welcome' } } };
    const withoutSv = setOverride(start, 'sv', 'login.heading', '');
    expect(withoutSv).toEqual({ en: { login: { heading: 'Welcome' } } });
    expect(setOverride(withoutSv, 'en', 'login.heading', '')).toBeUndefined();
  });

  it('does not change the object it was given', () => {
    const start = { en: { login: { heading: 'Welcome' } } };
    setOverride(start, 'en', 'login.heading', 'Hello');
    expect(start).toEqual({ en: { login: { heading: 'Welcome' } } });
  });
});

describe('translationCounts', () => {
  const defaults = { a: 'A', b: 'B', c: 'C' };

  it('counts nothing missing in a language Foyer ships', () => {
    expect(translationCounts(defaults, defaults, { a: 'Override' })).toEqual({ total: 3, overridden: 1, missing: 0 });
  });

  it('counts every key without an override as missing in a language Foyer does not ship', () => {
    expect(translationCounts(defaults, undefined, { a: 'Ä', b: 'Bé' })).toEqual({ total: 3, overridden: 2, missing: 1 });
    expect(translationCounts(defaults, undefined, {})).toEqual({ total: 3, overridden: 0, missing: 3 });
  });
});

describe('searchKeys', () => {
  const defaults = { 'login.heading': 'Login', 'signup.heading': 'Sign up', 'footer.privacy': 'Privacy policy' };
  const keys = Object.keys(defaults);

  it('matches every word against the key, the default text and the override', () => {
    expect(searchKeys(keys, 'heading', defaults, {})).toEqual(['login.heading', 'signup.heading']);
    expect(searchKeys(keys, 'PRIVACY', defaults, {})).toEqual(['footer.privacy']);
    expect(searchKeys(keys, 'välkommen', defaults, { 'login.heading': 'Välkommen' })).toEqual(['login.heading']);
    expect(searchKeys(keys, 'sign heading', defaults, {})).toEqual(['signup.heading']);
  });

  it('answers every key for an empty query', () => {
    expect(searchKeys(keys, '  ', defaults, {})).toEqual(keys);
  });
});
