// The rule an app's custom CSS must pass, checked by the server on every draft write and by the
// runtime before a preview applies it. Custom CSS may restyle the screens; it must never carry markup
// (a `</style>` breaking out of a style element), run script (javascript: URLs, IE expressions and
// behaviours, Mozilla bindings) or pull in other stylesheets. Obfuscation is undone before looking:
// CSS escapes (`\6a`, `\000073 `, backslash-newline) are decoded, and the text is checked both with
// and without its comments (a comment can split a keyword in old parsers, and a comment opener inside
// a string must not hide what follows it).

export const MAX_CUSTOM_CSS_LENGTH = 50_000;

export type CustomCssProblem = 'too_long' | 'markup' | 'script' | 'expression' | 'import' | 'binding';

export type CustomCssCheck = { ok: true } | { ok: false; reason: CustomCssProblem };

const HEX_DIGIT = /[0-9a-fA-F]/;
const CSS_WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f']);

/** The text with every CSS escape replaced by the character it stands for (CSS Syntax 3, 4.3.7). */
export function decodeCssEscapes(css: string): string {
  let decoded = '';
  let index = 0;
  while (index < css.length) {
    const char = css[index]!;
    if (char !== '\\') {
      decoded += char;
      index += 1;
      continue;
    }
    const next = css[index + 1];
    if (next === undefined) {
      index += 1;
    } else if (next === '\n' || next === '\f') {
      index += 2;
    } else if (next === '\r') {
      index += css[index + 2] === '\n' ? 3 : 2;
    } else if (HEX_DIGIT.test(next)) {
      let end = index + 1;
      while (end < css.length && end - index - 1 < 6 && HEX_DIGIT.test(css[end]!)) end += 1;
      const codePoint = parseInt(css.slice(index + 1, end), 16);
      const valid = codePoint !== 0 && codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff);
      decoded += valid ? String.fromCodePoint(codePoint) : '\ufffd';
      // One whitespace after the hex digits belongs to the escape (CR LF counts as one).
      if (css[end] === '\r' && css[end + 1] === '\n') end += 2;
      else if (css[end] !== undefined && CSS_WHITESPACE.has(css[end]!)) end += 1;
      index = end;
    } else {
      decoded += next;
      index += 2;
    }
  }
  return decoded;
}

/** The text without its comments; an unterminated comment runs to the end. */
export function stripCssComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?(\*\/|$)/g, '');
}

const rules: { reason: Exclude<CustomCssProblem, 'too_long'>; pattern: RegExp }[] = [
  { reason: 'markup', pattern: /</ },
  { reason: 'script', pattern: /javascript:|vbscript:|data:text\/html/ },
  { reason: 'expression', pattern: /expression\(/ },
  { reason: 'import', pattern: /@import/ },
  // `behavior` as a property of its own; scroll-behavior and overscroll-behavior are harmless.
  { reason: 'binding', pattern: /(^|[^a-z0-9_-])behavior:|-moz-binding/ },
];

/**
 * Lower-cased, with whitespace and control characters removed, so `java script :` or
 * `expression (` read as what a lenient parser makes of them.
 */
function compact(text: string): string {
  return text.toLowerCase().replace(/[\s\u0000-\u001f\u007f]+/g, '');
}

export function checkCustomCss(css: string): CustomCssCheck {
  if (css.length > MAX_CUSTOM_CSS_LENGTH) return { ok: false, reason: 'too_long' };
  const readings = [decodeCssEscapes(css), decodeCssEscapes(stripCssComments(css))].map(compact);
  for (const { reason, pattern } of rules) {
    if (readings.some((reading) => pattern.test(reading))) return { ok: false, reason };
  }
  return { ok: true };
}

/** What each refusal means, for error messages (the configurator shows its own translated texts). */
export const customCssProblemTexts: Record<CustomCssProblem, string> = {
  too_long: `Custom CSS is limited to ${MAX_CUSTOM_CSS_LENGTH} characters`,
  markup: 'Custom CSS cannot contain "<" (no markup)',
  script: 'Custom CSS cannot contain javascript:, vbscript: or data:text/html URLs',
  expression: 'Custom CSS cannot contain expression()',
  import: 'Custom CSS cannot contain @import',
  binding: 'Custom CSS cannot contain behavior or -moz-binding',
};
