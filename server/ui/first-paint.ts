// The runtime page's first paint: the runtime's server entry (src/ssr/render.tsx, built by `npm run
// build` into `ssr/render.js` beside the built UI) draws a flow's first step and says what the page
// carries for the runtime; this file reads the app for it and puts the result into the page. The
// entry is imported on the first page served, not at start, so the server answers as soon as before.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Negotiator from 'negotiator';
import type { FastifyRequest } from 'fastify';
import { APP_STYLESHEET_ELEMENT_ID, FIRST_PAINT_ELEMENT_ID, type FirstPaint, type RenderFirstPaint } from '../../common/first-paint.ts';
import { findApp } from '../apps/lookup.ts';
import type { Database } from '../db/client.ts';
import { publicAppConfig } from '../graphql/apps/service.ts';

export type FirstPaintOf = (request: FastifyRequest, clientConfig: Record<string, unknown>) => Promise<FirstPaint>;

/** Where the server entry of the UI built into `uiDist` is: beside it (dist/ui → dist/ssr/render.js). */
export function serverEntryOf(uiDist: string): string {
  return path.join(path.dirname(uiDist), 'ssr', 'render.js');
}

/** The first paint of each runtime page by the server entry `entry`; undefined when it is not built. */
export function firstPaintRenderer(entry: string, db: Database): FirstPaintOf | undefined {
  if (!existsSync(entry)) return undefined;
  let loading: Promise<RenderFirstPaint> | undefined;
  return async (request, clientConfig) => {
    loading ??= import(pathToFileURL(entry).href).then((module: { renderFirstPaint: RenderFirstPaint }) => module.renderFirstPaint);
    const render = await loading;
    return render({
      url: request.url,
      preferredLanguages: new Negotiator(request.raw).languages(),
      clientConfig,
      async loadApp(appId) {
        const app = await findApp(db, appId);
        return app && { config: { ...publicAppConfig(app) }, translations: app.settings.translations ?? {} };
      },
    });
  };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** JSON that cannot end the element it sits in: every `<` is written as \u003c. */
export function escapeJsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The built runtime page `html` with `paint` in it: language, title, the app's stylesheet, the data and the markup. */
export function withFirstPaint(html: string, paint: FirstPaint): string {
  let page = html;
  if (paint.lang) page = page.replace(/<html lang="[^"]*">/, `<html lang="${escapeHtml(paint.lang)}" dir="${paint.dir ?? 'ltr'}">`);
  if (paint.title) page = page.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(paint.title)}</title>`);
  const head: string[] = [];
  if (paint.data !== undefined)
    head.push(`<script id="${FIRST_PAINT_ELEMENT_ID}" type="application/json">${escapeJsonForHtml(paint.data)}</script>`);
  // After Foyer's own stylesheet, so the app's tokens win (src/i18n/index.ts loadCustomCss).
  if (paint.stylesheet) head.push(`<link rel="stylesheet" id="${APP_STYLESHEET_ELEMENT_ID}" href="${escapeHtml(paint.stylesheet)}">`);
  page = page.replace('</head>', `${head.join('')}</head>`);
  if (paint.markup) page = page.replace('<div id="root"></div>', `<div id="root">${paint.markup}</div>`);
  return page;
}
