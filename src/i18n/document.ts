// The page says which language it is in: `<html lang dir>`, right to left for Arabic and Hebrew
// (common/locales.ts), so the layout's logical properties mirror.
import { localeDirection } from '../../common/locales.ts';

export function applyDocumentLanguage(language: string, root: HTMLElement | undefined = globalThis.document?.documentElement): void {
  if (!root) return;
  root.lang = language;
  root.dir = localeDirection(language);
}
