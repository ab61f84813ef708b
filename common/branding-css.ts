// An app's look as a stylesheet: design tokens on :root, then its custom CSS. The API host serves the
// published one as custom.css; the runtime's preview applies a draft's. Token values are checked
// again with the schema's own patterns (stored or drafted data may not have passed it), and custom
// CSS failing the rule is left out rather than applied.
import appConfigSchema from '../schema/app-config.schema.json' with { type: 'json' };
import { brandingColors } from './app-config.ts';
import { checkCustomCss } from './custom-css.ts';

const brandingProperties = appConfigSchema.properties.branding.properties;

export const TOKEN_PATTERNS = {
  color: new RegExp(brandingProperties.colors.properties.primary.pattern),
  radius: new RegExp(brandingProperties.radius.pattern),
  font: new RegExp(brandingProperties.font.pattern),
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const matching = (value: unknown, pattern: RegExp): value is string => typeof value === 'string' && pattern.test(value);

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
