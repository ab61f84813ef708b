// The texts of a server-drawn page before i18next has loaded (src/app/first-step.tsx): the drawn
// language's shipped texts and the app's overrides the page carries (src/ssr/first-paint.ts), read as
// i18next reads them with ./i18next.ts's settings. Hand-written rather than i18next itself so that
// i18next stays out of the page's first load (docs/architecture.md, Texts before i18next);
// tests/unit/i18n/carried-texts.test.ts checks it gives i18next's strings for every text.
import type { TranslationResources } from './index.ts';
import { formatInterpolated } from './intl-formatter.ts';
import type { TextOptions, Texts } from './texts.ts';

type Tree = Record<string, unknown>;

const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null;

/** `overrides` merged into a copy of `base`, as i18next's addResourceBundle merges deeply (a text replaces a branch). */
function merged(base: Tree, overrides: Tree): Tree {
  const result: Tree = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const current = result[key];
    result[key] = has(result, key) && isTree(current) && isTree(value) ? merged(current, value) : value;
  }
  return result;
}

/** The text at a dotted `key`: its own path first, then keys that hold dots themselves (i18next's deepFind). */
function find(tree: Tree | undefined, key: string): unknown {
  if (!tree) return undefined;
  let node: unknown = tree;
  for (const part of key.split('.')) node = isTree(node) && has(node, part) ? node[part] : undefined;
  if (node !== undefined && node !== null) return node;
  if (tree[key]) return has(tree, key) ? tree[key] : undefined;
  const tokens = key.split('.');
  let current: unknown = tree;
  for (let start = 0; start < tokens.length;) {
    if (!isTree(current)) return undefined;
    let next: unknown;
    let path = '';
    for (let end = start; end < tokens.length; end++) {
      path += (end === start ? '' : '.') + tokens[end];
      next = current[path];
      if ((typeof next === 'function' || path === '__proto__') && !has(current, path)) next = undefined;
      if (next !== undefined) {
        if (['string', 'number', 'boolean'].includes(typeof next) && end < tokens.length - 1) continue;
        start = end + 1;
        break;
      }
    }
    current = next;
  }
  return current;
}

/** A found text, as i18next takes it: neither missing nor null. */
const isFound = (value: unknown) => value !== undefined && value !== null;

/** The languages a text is looked up in, in order: `language`, its base language, English. */
function lookupLanguages(language: string): string[] {
  return [...new Set([language, language.split('-')[0]!, 'en'])];
}

function valueAt(options: TextOptions, path: string): unknown {
  let node: unknown = options;
  for (const part of path.split('.')) node = isTree(node) && has(node, part) ? node[part] : undefined;
  return node === undefined || node === null ? options[path] : node;
}

/** `{{name}}` (or `{{name, format}}`) replaced by its value; a name without one stays as written. */
function interpolated(text: string, options: TextOptions, language: string): string {
  return text.replace(/{{-?(.+?)}}/g, (whole, inner: string) => {
    const written = inner.trim();
    const value = formatInterpolated(valueAt(options, written.split(',')[0]!.trim()), language);
    // As i18next: a value given as undefined is written as nothing, when given under the whole `name, format`.
    if (value === undefined) return has(options, written) ? '' : whole;
    return value === null ? '' : String(value);
  });
}

/** Texts read from `shipped` (Foyer's texts of `language`) under `overrides` (the app's, every language). */
export function carriedTexts(language: string, shipped: Tree, overrides: TranslationResources): Texts {
  const languages = lookupLanguages(language);
  const store = new Map(languages.map((code) => [code, merged(code === language ? shipped : {}, overrides[code] ?? {})]));
  const plurals = new Map(languages.map((code) => [code, new Intl.PluralRules(code)]));

  const resolve = (key: string, options: TextOptions): unknown => {
    const count = options.count;
    const plural = count !== undefined && typeof count !== 'string';
    for (const code of languages) {
      const candidates = plural
        ? [...(count === 0 ? [`${key}_zero`] : []), `${key}_${plurals.get(code)!.select(count as number)}`, key]
        : [key];
      for (const candidate of candidates) {
        const text = find(store.get(code), candidate);
        if (isFound(text)) return text;
      }
    }
    return undefined;
  };

  return {
    language,
    exists: (key, options = {}) => isFound(resolve(key, options)),
    t: (key, options = {}) => {
      const found = resolve(key, options);
      // i18next's word for a key naming a group of texts rather than one.
      if (isTree(found)) return `key '${key} (${language})' returned an object instead of string.`;
      const text = isFound(found) ? found : (options.defaultValue ?? key);
      return interpolated(String(text), options, language);
    },
  };
}
