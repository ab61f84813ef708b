// The runtime page's first paint: the runtime's server entry (src/ssr/render.tsx, built by `npm run
// build` into `<the built UI's folder>-ssr/render.js`, dist/ui-ssr) draws a flow's first step and says what the page
// carries for the runtime; this file reads the app for it and puts the result into the page. A drawn
// page carries its stylesheets too (Foyer's and the app's, allowed by their hashes in the CSP), so
// nothing stands between its HTML and its first paint. The entry is imported on the first page
// served, not at start, so the server answers as soon as before.
//
// The runtime drops ?appId from the address once it has stored the app (src/app/launch.ts), so a
// reload names no app; the server cannot read the browser's storage, so it remembers the app an
// address last named to this browser in a cookie of the UI host (APP_COOKIE) and draws that one when
// the address names none. The cookie mirrors the runtime's stored app (set by the same addresses,
// never by the preview), and the runtime hydrates only a page drawn for the app it serves
// (src/ssr/first-paint.ts readFirstPaint), drawing afresh otherwise.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Negotiator from 'negotiator';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_STYLESHEET_ELEMENT_ID, FIRST_PAINT_ELEMENT_ID, type FirstPaint, type RenderFirstPaint } from '../../common/first-paint.ts';
import { brandingStylesheet } from '../../common/branding-css.ts';
import { isAppId, launchParametersOf, type LaunchParameters } from '../../common/launch.ts';
import { appVersionOf, findVersionedApp } from '../apps/lookup.ts';
import type { Database } from '../db/client.ts';
import { publicAppConfig } from '../graphql/apps/service.ts';
import { customParamsConfig } from '../graphql/custom-params/service.ts';

export interface PagePaint {
  paint: FirstPaint;
  /** The app's stylesheet (its branding tokens and custom CSS, as the API host serves it). */
  appStyles?: string;
}

export type FirstPaintOf = (request: FastifyRequest, clientConfig: Record<string, unknown>) => Promise<PagePaint>;

/** Where the server entry of the UI built into `uiDist` is: a folder named after it (dist/ui → dist/ui-ssr/render.js). */
export function serverEntryOf(uiDist: string): string {
  return path.join(`${uiDist}-ssr`, 'render.js');
}

/** The app an address last named to this browser, as the runtime stored it (a name, nothing of the app). */
export const APP_COOKIE = 'foyer_app';

/** A year, as long as the runtime's stored app lasts in practice. */
const APP_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** What the address of runtime page `request` says at load (only its query is read: any base will do). */
function launchOf(request: FastifyRequest): LaunchParameters {
  return launchParametersOf(new URL(request.url, 'http://ui.invalid').searchParams);
}

/**
 * Remembers the app the address of runtime page `request` names, as the runtime stores it
 * (src/app/launch.ts launchConfig): not for the preview, which keeps its app in memory only.
 */
export function rememberAddressedApp(request: FastifyRequest, reply: FastifyReply, uiUrl: string): void {
  const launch = launchOf(request);
  if (!launch.appId || launch.preview) return;
  const options: CookieSerializeOptions = {
    path: '/',
    sameSite: 'lax',
    secure: uiUrl.startsWith('https:'),
    maxAge: APP_COOKIE_MAX_AGE_SECONDS,
  };
  reply.setCookie(APP_COOKIE, launch.appId, options);
}

/** The client config the entry draws with: the remembered app when the address names none. */
function clientConfigFor(request: FastifyRequest, clientConfig: Record<string, unknown>): Record<string, unknown> {
  const remembered = request.cookies[APP_COOKIE];
  if (!remembered || !isAppId(remembered) || launchOf(request).appId) return clientConfig;
  return { ...clientConfig, appId: remembered };
}

/** Drawings kept, the least recently drawn forgotten first. */
const KEPT_DRAWINGS = 500;

interface KeptDrawing {
  page: PagePaint;
  /** Each app the drawing read, by its row's version then (appVersion, server/apps/lookup.ts; undefined: no such app). */
  apps: Map<string, string | undefined>;
}

/**
 * The first paint of each runtime page by the server entry `entry`; undefined when it is not built.
 * A drawing is the same for every visitor asking for the same address in the same languages (the
 * visitor is drawn signed out), so it is kept and served again while the rows of the apps it read are
 * unchanged (their config, branding and texts): a page costs one read of its app's row version
 * instead of a drawing (about 10 ms), however large the app's texts. A kept drawing is answered as
 * the same object each time, by which its sent page is kept too (server/ui/sent-page.ts).
 */
export function firstPaintRenderer(entry: string, db: Database): FirstPaintOf | undefined {
  if (!existsSync(entry)) return undefined;
  let loading: Promise<RenderFirstPaint> | undefined;
  const kept = new Map<string, KeptDrawing>();
  return async (request, clientConfig) => {
    const preferredLanguages = new Negotiator(request.raw).languages();
    const effectiveConfig = clientConfigFor(request, clientConfig);
    const key = JSON.stringify([request.url, preferredLanguages, effectiveConfig]);
    const drawn = kept.get(key);
    if (drawn) {
      const unchanged = await Promise.all([...drawn.apps].map(async ([appId, version]) => (await appVersionOf(db, appId)) === version));
      if (unchanged.every(Boolean)) {
        kept.delete(key);
        kept.set(key, drawn);
        return drawn.page;
      }
    }
    loading ??= import(pathToFileURL(entry).href).then((module: { renderFirstPaint: RenderFirstPaint }) => module.renderFirstPaint);
    const render = await loading;
    let appStyles: string | undefined;
    const apps = new Map<string, string | undefined>();
    const paint = await render({
      url: request.url,
      preferredLanguages,
      clientConfig: effectiveConfig,
      async loadApp(appId) {
        const read = await findVersionedApp(db, appId);
        apps.set(appId, read?.version);
        if (!read) return undefined;
        const { app } = read;
        appStyles = brandingStylesheet(app.settings.branding);
        // The published signup fields, as getTenantUserCustomParamsConfigAnonymous answers them: the signup step is drawn with them.
        const customSignupFields = customParamsConfig(app.settings).params;
        return { config: { ...publicAppConfig(app), customSignupFields }, translations: app.settings.translations ?? {} };
      },
    });
    const page = { paint, appStyles: paint.stylesheet ? appStyles : undefined };
    kept.delete(key);
    kept.set(key, { page, apps });
    if (kept.size > KEPT_DRAWINGS) kept.delete(kept.keys().next().value!);
    return page;
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

/** CSS that cannot end the element it sits in: `</style` becomes `<\/style`, the same text in a CSS string. */
function escapeCssForHtml(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1');
}

const STYLESHEET_LINK = /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[^"]+\.css)">/g;

/** A runtime page with its first paint in it, and the CSP sources that allow its inline stylesheets. */
export interface PaintedPage {
  html: string;
  /** `'sha256-…'` of each inline stylesheet, as the CSP's style-src names it. */
  styleSources: string[];
}

/**
 * The built runtime page `html` with `paint` in it: language, title, the data, the app's stylesheet
 * and the markup. With markup drawn, the page's own stylesheets (read by `readAsset`, a built file
 * by its address) and the app's are inline, each allowed by its hash: a drawing's page is then the
 * same for every visitor (server/ui/sent-page.ts).
 */
export function withFirstPaint(
  html: string,
  { paint, appStyles }: PagePaint,
  readAsset: (address: string) => string | undefined,
): PaintedPage {
  let page = html;
  const styleSources: string[] = [];
  if (paint.lang) page = page.replace(/<html lang="[^"]*">/, `<html lang="${escapeHtml(paint.lang)}" dir="${paint.dir ?? 'ltr'}">`);
  if (paint.title) page = page.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(paint.title)}</title>`);
  const style = (css: string, id?: string) => {
    const text = escapeCssForHtml(css);
    styleSources.push(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
    return `<style${id ? ` id="${id}"` : ''}>${text}</style>`;
  };
  if (paint.markup) {
    page = page.replace(STYLESHEET_LINK, (link, address: string) => {
      const css = readAsset(address);
      // The link stays, of a type no browser fetches: Vite's preload helper adds a lazy chunk's stylesheet
      // unless a link to it is in the page, and one added now would come after the app's styles.
      // (`disabled` is fetched all the same by Chromium, competing with the page's first paint.)
      return css === undefined ? link : `${style(css)}<link rel="stylesheet" href="${address}" type="text/plain">`;
    });
  }
  const head: string[] = [];
  if (paint.data !== undefined)
    head.push(`<script id="${FIRST_PAINT_ELEMENT_ID}" type="application/json">${escapeJsonForHtml(paint.data)}</script>`);
  // After Foyer's own stylesheet, so the app's tokens win (src/i18n/index.ts loadCustomCss).
  if (paint.markup && appStyles !== undefined) head.push(style(appStyles, APP_STYLESHEET_ELEMENT_ID));
  else if (paint.stylesheet) head.push(`<link rel="stylesheet" id="${APP_STYLESHEET_ELEMENT_ID}" href="${escapeHtml(paint.stylesheet)}">`);
  page = page.replace('</head>', `${head.join('')}</head>`);
  if (paint.markup) page = page.replace('<div id="root"></div>', `<div id="root">${paint.markup}</div>`);
  return { html: page, styleSources };
}
