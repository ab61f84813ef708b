// What a page the hosted UI server drew carries for the runtime (src/ssr/render.tsx writes it, as JSON
// in a non-script element, common/first-paint.ts): the app config and texts the first screen needs, so
// the runtime starts without fetching them, and whether #root holds the server's drawing to hydrate.
import { FIRST_PAINT_ELEMENT_ID } from '../../common/first-paint.ts';
import type { ClientConfig } from '../config.ts';
import type { TranslationResources } from '../i18n/index.ts';
import type { AppConfigState } from '../runtime/app-config.ts';

export interface FirstPaintData {
  /** The app the server drew the page for. */
  appId: string;
  appConfig: AppConfigState;
  /** The app's text overrides, every language. */
  translations: TranslationResources;
  /** The language the server chose (src/i18n/choice.ts screenLanguage, with the request's languages). */
  language: string;
  /** The shipped texts of `language` (none for a language Foyer does not ship). */
  texts?: Record<string, unknown>;
  /** Whether #root holds the server's drawing of the address. */
  rendered: boolean;
}

/**
 * The page's first-paint data when it is about the app this page load serves: a handover may have
 * stored another app than the one the server read (src/config.ts), and the preview takes drafts only.
 */
export function readFirstPaint(
  config: ClientConfig,
  root: Pick<Document, 'getElementById'> | undefined = globalThis.document,
): FirstPaintData | undefined {
  if (config.preview) return undefined;
  const text = root?.getElementById(FIRST_PAINT_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as FirstPaintData;
    return data.appId === config.appId ? data : undefined;
  } catch {
    return undefined;
  }
}
