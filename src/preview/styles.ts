// The draft's look: design tokens on :root, then its custom CSS, in one constructable stylesheet
// adopted by the document. The CSP forbids inline <style>; adoptedStyleSheets is allowed. The
// published look (the API host's custom.css <link>) is removed once a draft applies, since the draft
// replaces it entirely.
import { brandingColors } from '../policy/app-config.ts';
import { checkCustomCss } from '../policy/custom-css.ts';

/** The patterns app-config.schema.json gives the token values; a value failing its pattern is left out. */
const TOKEN_PATTERNS = {
  color: /^(#[0-9A-Fa-f]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s]+\)|[a-zA-Z]{3,30})$/,
  radius: /^\d{1,3}(\.\d{1,3})?(px|rem|em)$/,
  font: /^[A-Za-z0-9 ,'"-]+$/,
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const matching = (value: unknown, pattern: RegExp): value is string => typeof value === 'string' && pattern.test(value);

/** The stylesheet text of a draft's branding; custom CSS failing the contract's rule is not included. */
export function brandingStylesheet(branding: unknown): string {
  if (!isRecord(branding)) return '';
  const colors = isRecord(branding.colors) ? branding.colors : {};
  const tokens: string[] = [];
  for (const color of brandingColors) {
    if (matching(colors[color], TOKEN_PATTERNS.color)) tokens.push(`  --foyer-color-${color}: ${colors[color]};`);
  }
  if (matching(branding.radius, TOKEN_PATTERNS.radius)) tokens.push(`  --foyer-radius: ${branding.radius};`);
  if (matching(branding.font, TOKEN_PATTERNS.font)) tokens.push(`  --foyer-font-family: ${branding.font};`);
  const custom = typeof branding.customCss === 'string' && checkCustomCss(branding.customCss).ok ? branding.customCss : '';
  return `${tokens.length ? `:root {\n${tokens.join('\n')}\n}\n` : ''}${custom}`;
}

export interface StyleTarget {
  /** Shows `css` instead of whatever the previous call showed. */
  show(css: string): void;
}

/** The document's preview stylesheet: created on first use, replaced in place afterwards. */
export function documentStyles(document: Document, publishedStylesheetId: string): StyleTarget {
  let sheet: CSSStyleSheet | undefined;
  return {
    show(css) {
      document.getElementById(publishedStylesheetId)?.remove();
      if (!sheet) {
        sheet = new CSSStyleSheet();
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }
      sheet.replaceSync(css);
    },
  };
}
