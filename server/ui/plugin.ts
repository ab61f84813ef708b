// The hosted UI origin: the built runtime (dist/ui) with a single-page fallback, and the owners'
// configurator under /configurator (dist/ui/configurator); with `npm run dev`, both from Vite's dev
// server instead. Each page gets the deployment's client config injected as JSON (not script), so it
// runs under a strict CSP.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import cookie from '@fastify/cookie';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import fresh from 'fresh';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_APP_ID } from '../apps/console.ts';
import { isNavigation } from '../http/errors.ts';
import { SIGN_OUT_SCREEN } from '../auth/oidc/logout.ts';
import type { FoyerContext } from '../context.ts';
import { builtPages, type PageFile, type PageSource } from './pages.ts';
import {
  escapeJsonForHtml,
  firstPaintRenderer,
  rememberAddressedApp,
  serverEntryOf,
  withFirstPaint,
  type PagePaint,
} from './first-paint.ts';
import { pageEncodingOf, sentPage, withStyleSources, type SentPage } from './sent-page.ts';

export interface UiOptions extends FoyerContext {
  /** The app the hosted screens serve unless a handover names another. */
  appId: string;
}

const CONFIG_MARKER = '<!--foyer-config-->';

const HTML = 'text/html; charset=utf-8';

export const CONFIGURATOR_PATH = '/configurator';

/**
 * Vite names every built asset `assets/<name>-<8-character hash>.<ext>` (its source map adds `.map`):
 * a changed file gets a new name, so browsers may keep these a year without asking again.
 */
const HASHED_ASSET = /^\/assets\/.+-[\w-]{8}\.[a-z0-9]+(\.map)?$/i;
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The ending of the build's brotli and gzip copies of a file (scripts/precompress.ts). */
const PRECOMPRESSED_COPY = /\.(br|gz)$/;

/**
 * The pages' security headers, by @fastify/helmet with Foyer's directives. Runtime pages may be framed
 * by the same origin only: the configurator's live preview is that one framer. Configurator pages may
 * be framed by nobody. Nothing is fetched from outside Foyer's own origins: images come from this
 * origin, the API host (uploaded logos and assets) and data: URLs, so an app's custom CSS cannot send
 * what it sees to another host. Forms post to this origin and the auth service; the sign-out screen's
 * form is answered with a redirect to the app's registered post-logout address, which browsers check
 * against form-action too. HSTS is the listener's (server/http/listener.ts), on every answer.
 */
export function securityHeaders(urls: { auth: string; api: string }, nonce?: string): FastifyHelmetOptions {
  const pathOf = (request: IncomingMessage) => (request.url ?? '').split(/[?#]/)[0] ?? '';
  const nonceSource = nonce ? [`'nonce-${nonce}'`] : [];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...nonceSource],
        styleSrc: ["'self'", urls.api, ...nonceSource],
        imgSrc: ["'self'", 'data:', urls.api],
        connectSrc: ["'self'", urls.auth, urls.api],
        formAction: [(request) => (pathOf(request) === SIGN_OUT_SCREEN ? '*' : `'self' ${urls.auth}`)],
        frameAncestors: [(request) => (isConfiguratorPath(pathOf(request)) ? "'none'" : "'self'")],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // frame-ancestors decides framing per page; X-Frame-Options cannot say "none here, same origin there".
    frameguard: false,
    strictTransportSecurity: false,
  };
}

/** True for /configurator and everything under it. */
export function isConfiguratorPath(url: string): boolean {
  const pathname = url.split(/[?#]/)[0] ?? '';
  return pathname === CONFIGURATOR_PATH || pathname.startsWith(`${CONFIGURATOR_PATH}/`);
}

function notBuiltPage(title: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body><main><h1>${title}</h1><p>The hosted UI is not built yet: run <code>npm run build</code>.</p></main></body></html>`
  );
}

/** The page with `clientConfig` in place of the marker. */
function withClientConfig(html: string, clientConfig: unknown): string {
  return html.replace(CONFIG_MARKER, `<script id="foyer-config" type="application/json">${escapeJsonForHtml(clientConfig)}</script>`);
}

export async function uiPlugin(app: FastifyInstance, options: UiOptions): Promise<void> {
  const { config } = options;
  const pages: PageSource = config.uiDev
    ? await (await import('./dev-pages.ts')).viteDevPages(app, process.cwd())
    : builtPages(config.uiDist);
  const runtimePage = {
    file: 'index.html',
    title: 'Foyer',
    clientConfig: {
      appId: options.appId,
      authUrl: config.urls.auth,
      apiUrl: config.urls.api,
      uiUrl: config.urls.ui,
      env: config.env,
      passwordValidation: true,
    },
  } as const;
  const configuratorPage = {
    file: 'configurator/index.html',
    title: 'Foyer console',
    clientConfig: {
      consoleAppId: CONSOLE_APP_ID,
      authUrl: config.urls.auth,
      apiUrl: config.urls.api,
      uiUrl: config.urls.ui,
      env: config.env,
    },
  } as const;
  await app.register(helmet, securityHeaders(config.urls, pages.cspNonce));
  await app.register(cookie);

  if (pages.servesBuiltFiles) {
    // Never sent under their own name: the HTML pages (they go out only with their config injected,
    // through the routes below), the precompressed copies (sent in place of their file) and, in
    // production, the source maps (they would publish the runtime's source).
    const unserved = ['.html', '.br', '.gz', ...(config.env === 'production' ? ['.map'] : [])];
    const files = {
      index: false,
      maxAge: '1h',
      // The build's brotli and gzip copies (scripts/precompress.ts) go out as they are, to a client
      // that accepts them; @fastify/compress leaves an answer already encoded alone.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        // A precompressed copy is sent for the file it copies, and cached as that file is.
        const relative = `/${path.relative(config.uiDist, filePath).split(path.sep).join('/')}`.replace(PRECOMPRESSED_COPY, '');
        if (HASHED_ASSET.test(relative)) reply.header('cache-control', IMMUTABLE);
      },
    } satisfies Partial<FastifyStaticOptions>;
    // The build's assets, some 150 files with their maps and copies: one route, each file looked up
    // when asked for. A route per file took Fastify about 0.1 s more to get ready (bench/README.md, Start).
    await app.register(fastifyStatic, {
      ...files,
      root: path.join(config.uiDist, 'assets'),
      prefix: '/assets/',
      wildcard: true,
      allowedPath: (pathName) => !unserved.some((extension) => pathName.toLowerCase().endsWith(extension)),
    });
    // The few files beside the pages: a route each, since every other path there is a page (below).
    await app.register(fastifyStatic, {
      ...files,
      root: config.uiDist,
      wildcard: false,
      decorateReply: false,
      globIgnore: ['assets/**', ...unserved.map((extension) => `**/*${extension}`)],
    });
  }
  // Built pages only: with `npm run dev` the runtime draws every screen in the browser.
  const firstPaintOf = pages.servesBuiltFiles ? firstPaintRenderer(serverEntryOf(config.uiDist), options.db) : undefined;
  const assets = new Map<string, string | undefined>();
  /** A built asset's text by its address (/assets/…), read once. */
  const readAsset = (address: string) => {
    if (!assets.has(address)) {
      const file = path.join(config.uiDist, path.normalize(address));
      assets.set(address, file.startsWith(config.uiDist) && existsSync(file) ? readFileSync(file, 'utf8') : undefined);
    }
    return assets.get(address);
  };
  /** A drawn page as sent, by its drawing: a kept drawing is answered as the same object (first-paint.ts). */
  const sentPages = new WeakMap<PagePaint, SentPage>();
  /** The runtime page `configured` with its first paint, as sent; undefined when none is drawn. */
  const drawnPage = async (request: FastifyRequest, reply: FastifyReply, configured: string): Promise<SentPage | undefined> => {
    if (!firstPaintOf) return undefined;
    rememberAddressedApp(request, reply, config.urls.ui);
    try {
      const drawing = await firstPaintOf(request, runtimePage.clientConfig);
      let sent = sentPages.get(drawing);
      if (!sent) sentPages.set(drawing, (sent = sentPage(withFirstPaint(configured, drawing, readAsset))));
      return sent;
    } catch (error) {
      // The runtime draws the page itself, as without a server entry.
      request.log.error({ err: error }, 'the first paint failed');
      return undefined;
    }
  };
  const sendPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    page: { file: PageFile; title: string; clientConfig: Record<string, unknown> },
  ) => {
    const html = await pages.html(page.file, request.url);
    reply.header('cache-control', 'no-cache');
    // A handover's address holds a one-time code until the page's script drops it: the page's own
    // requests (styles, icon, scripts) must not carry it along as their Referer.
    if (page.file === 'index.html' && request.url.startsWith('/handover')) reply.header('referrer-policy', 'no-referrer');
    if (html === undefined) return reply.type(HTML).send(notBuiltPage(page.title));
    const configured = withClientConfig(html, page.clientConfig);
    const sent = page.file === 'index.html' ? await drawnPage(request, reply, configured) : undefined;
    if (!sent) return reply.type(HTML).send(configured);
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') reply.header('content-security-policy', withStyleSources(policy, sent.styleSources));
    const encoding = pageEncodingOf(request);
    reply.header('vary', 'accept-encoding').header('etag', sent.etag(encoding));
    if (fresh(request.headers, { etag: sent.etag(encoding) })) return reply.code(304).send();
    // Sent already encoded, which @fastify/compress leaves as it is.
    if (encoding) reply.header('content-encoding', encoding);
    return reply.type(HTML).send(sent.body(encoding));
  };
  app.get('/', (request, reply) => sendPage(request, reply, runtimePage));
  app.get(CONFIGURATOR_PATH, (request, reply) => sendPage(request, reply, configuratorPage));
  const fallback = (request: FastifyRequest, reply: FastifyReply) => {
    // Missing files keep a real 404; every other path, and any address a person opens, is a runtime
    // or configurator route (the runtime sends unknown ones to the login).
    const missingFile = path.extname(request.url.split('?')[0] ?? '') !== '' && !isNavigation(request);
    if (request.method !== 'GET' || missingFile) {
      return reply.status(404).send({ statusCode: 404, message: 'Not found', error: 'NOT_FOUND' });
    }
    return sendPage(request, reply, isConfiguratorPath(request.url) ? configuratorPage : runtimePage);
  };
  // Pages as a route, not only as the not-found answer: @fastify/compress compresses routes only
  // (server/http/listener.ts). The built files' own routes (above) come before this wildcard.
  app.get(`${CONFIGURATOR_PATH}/*`, fallback);
  app.get('/*', fallback);
  app.setNotFoundHandler(fallback);
}
