// The rule an app's custom CSS must pass, checked by the server on every draft write and by the
// runtime before it applies a stylesheet (common/branding-css.ts). Custom CSS may restyle the
// screens; it must not read what a person types (attribute selectors: React mirrors an input's value
// into its `value` attribute), fetch from anywhere but the app's own uploaded assets, pull in other
// stylesheets, run script, or carry markup. It is parsed (css-tree) and every node must be of an
// allowed kind: an allowlist, so a construct nobody thought of is refused rather than let through.
import parse from 'css-tree/parser';
import walk from 'css-tree/walker';
import type { CssNode } from 'css-tree';

export const MAX_CUSTOM_CSS_LENGTH = 50_000;

export type CustomCssProblem = 'too_long' | 'markup' | 'syntax' | 'import' | 'at_rule' | 'attribute' | 'url' | 'function' | 'binding';

export type CustomCssCheck = { ok: true } | { ok: false; reason: CustomCssProblem };

export interface CustomCssOptions {
  /** The app the CSS belongs to: asset addresses must then name it. */
  appId?: string;
}

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

/** A name as the browser reads it: escapes decoded, ASCII case folded. */
const nameOf = (raw: string) => decodeCssEscapes(raw).toLowerCase();

const AT_RULES = new Set(['media', 'supports', 'font-face', 'keyframes', '-webkit-keyframes', 'layer', 'container']);

/**
 * Value functions that compute colours, lengths, gradients, transforms, filters and shapes: none
 * fetches anything or reads the document. Left out on purpose: image-set() and cross-fade() (they
 * take a plain string as an address), attr() (reads attributes), element(), and IE's expression().
 */
const FUNCTIONS = new Set(
  [
    'rgb rgba hsl hsla hwb lab lch oklab oklch color color-mix light-dark',
    'calc min max clamp round mod rem abs sign sin cos tan asin acos atan atan2 pow sqrt hypot log exp var env',
    'linear-gradient radial-gradient conic-gradient repeating-linear-gradient repeating-radial-gradient repeating-conic-gradient',
    'translate translatex translatey translatez translate3d scale scalex scaley scalez scale3d',
    'rotate rotatex rotatey rotatez rotate3d skew skewx skewy matrix matrix3d perspective',
    'cubic-bezier steps linear blur brightness contrast drop-shadow grayscale hue-rotate invert opacity saturate sepia',
    'minmax repeat fit-content counter counters local format rect inset circle ellipse polygon',
  ].flatMap((line) => line.split(' ')),
);

/** Properties that attach behaviour (IE's HTC behaviours, Mozilla's XBL bindings). */
const BINDINGS = new Set(['behavior', '-moz-binding']);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/**
 * An uploaded asset as a path on the API host (server/branding/plugin.ts serves `/{appId}/assets/{id}`):
 * the app's custom.css is served from there, so the path resolves on Foyer's own origin.
 */
const ASSET_PATH = new RegExp(`^/(${UUID})/assets/${UUID}$`, 'i');
/** Inline raster images: nothing is fetched. SVG is left out (it is markup). */
const DATA_IMAGE = /^data:image\/(png|gif|jpeg|webp);base64,[a-z0-9+/=]*$/i;

function allowedUrl(address: string, options: CustomCssOptions): boolean {
  if (DATA_IMAGE.test(address)) return true;
  const asset = ASSET_PATH.exec(address);
  return asset !== null && (options.appId === undefined || asset[1]!.toLowerCase() === options.appId.toLowerCase());
}

function problemOf(node: CssNode, options: CustomCssOptions): Exclude<CustomCssProblem, 'too_long' | 'markup'> | null {
  switch (node.type) {
    case 'Raw':
      // What the parser could not read as CSS; whitespace is all that may be left over.
      return node.value.trim() === '' ? null : 'syntax';
    case 'Atrule': {
      const name = nameOf(node.name);
      if (name === 'import') return 'import';
      return AT_RULES.has(name) ? null : 'at_rule';
    }
    case 'AttributeSelector':
      return 'attribute';
    case 'Url':
      return allowedUrl(node.value, options) ? null : 'url';
    case 'Function':
      return FUNCTIONS.has(nameOf(node.name)) ? null : 'function';
    case 'Declaration':
      return BINDINGS.has(nameOf(node.property)) ? 'binding' : null;
    default:
      return null;
  }
}

export function checkCustomCss(css: string, options: CustomCssOptions = {}): CustomCssCheck {
  if (css.length > MAX_CUSTOM_CSS_LENGTH) return { ok: false, reason: 'too_long' };
  // A `<` anywhere (escapes decoded) could close a <style> element that inlines the CSS.
  if (decodeCssEscapes(css).includes('<')) return { ok: false, reason: 'markup' };
  let syntaxError = false;
  // Custom property values parsed too: `--x: url(...)` used through var() would fetch as well.
  const ast = parse(css, {
    parseCustomProperty: true,
    onParseError: () => {
      syntaxError = true;
    },
  });
  if (syntaxError) return { ok: false, reason: 'syntax' };
  let problem: CustomCssProblem | null = null;
  walk(ast, (node) => {
    problem = problemOf(node, options);
    return problem === null ? undefined : walk.break;
  });
  return problem === null ? { ok: true } : { ok: false, reason: problem };
}

/** What each refusal means, for error messages (the configurator shows its own translated texts). */
export const customCssProblemTexts: Record<CustomCssProblem, string> = {
  too_long: `Custom CSS is limited to ${MAX_CUSTOM_CSS_LENGTH} characters`,
  markup: 'Custom CSS cannot contain "<" (no markup)',
  syntax: 'Custom CSS must be valid CSS',
  import: 'Custom CSS cannot contain @import',
  at_rule: 'Custom CSS may use only @media, @supports, @font-face, @keyframes, @layer and @container',
  attribute: 'Custom CSS cannot use attribute selectors (they could read what people type); use classes and pseudo-classes',
  url: "Custom CSS may load only the app's uploaded assets (url(/{appId}/assets/{id})) and inline PNG, GIF, JPEG or WebP images",
  function: 'Custom CSS cannot use this function (image-set, cross-fade, attr, element and expression are refused)',
  binding: 'Custom CSS cannot contain behavior or -moz-binding',
};
