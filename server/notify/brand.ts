// An app's look in a mail: its name, its logo (only an absolute http(s) image; otherwise the name
// stands in as text), and its primary colour on the button with the more legible of black or white
// text on it, which always reaches WCAG's 4.5:1.
import type { AppSettings } from '../db/app-settings.ts';

/** Foyer's own primary colour (src/theme/tokens.css), for apps without one. */
export const DEFAULT_PRIMARY = '#1f42dd';

export interface Brand {
  name: string;
  logoUrl?: string;
  buttonColor: string;
  buttonTextColor: '#ffffff' | '#000000';
}

type Rgb = [number, number, number];

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const RGB = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(?:0|1|0?\.\d+)\s*)?\)$/i;

/** Reads #rgb, #rrggbb and rgb()/rgba() colours; anything else (names, var(), url()) is not used in mail. */
export function parseColor(value: string | undefined | null): Rgb | undefined {
  const color = value?.trim() ?? '';
  const hex = HEX.exec(color)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
    return [0, 2, 4].map((at) => parseInt(full.slice(at, at + 2), 16)) as Rgb;
  }
  const rgb = RGB.exec(color);
  if (rgb) {
    const channels = rgb.slice(1, 4).map(Number);
    if (channels.every((channel) => channel <= 255)) return channels as Rgb;
  }
  return undefined;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export function isAbsoluteHttpUrl(value: string | undefined | null): value is string {
  if (!value || !URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

export function brandOf(app: { name: string; settings: AppSettings }): Brand {
  const primary = parseColor(app.settings.branding?.colors?.primary) ?? parseColor(DEFAULT_PRIMARY)!;
  const white: Rgb = [255, 255, 255];
  const black: Rgb = [0, 0, 0];
  const logo = app.settings.logo;
  return {
    name: app.name,
    logoUrl: isAbsoluteHttpUrl(logo) ? new URL(logo).href : undefined,
    buttonColor: toHex(primary),
    buttonTextColor: contrastRatio(primary, white) >= contrastRatio(primary, black) ? '#ffffff' : '#000000',
  };
}
