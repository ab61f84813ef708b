// The hosted UI origin: the built runtime (dist/ui) with a single-page fallback. index.html gets the
// deployment's client config injected as JSON (not script), so the page runs under a strict CSP.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { FoyerContext } from '../context.ts';

export interface UiOptions extends FoyerContext {
  /** The app the hosted screens serve unless a handover names another. */
  appId: string;
}

const CONFIG_MARKER = '<!--foyer-config-->';

function escapeJsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function contentSecurityPolicy(urls: { auth: string; api: string }): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' ${urls.api}`,
    "img-src 'self' data: https:",
    `connect-src 'self' ${urls.auth} ${urls.api}`,
    `form-action 'self' ${urls.auth}`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

export async function uiPlugin(app: FastifyInstance, options: UiOptions): Promise<void> {
  const { config } = options;
  const indexFile = path.join(config.uiDist, 'index.html');
  const built = existsSync(indexFile);
  const clientConfig = {
    appId: options.appId,
    authUrl: config.urls.auth,
    apiUrl: config.urls.api,
    uiUrl: config.urls.ui,
    env: config.env,
    passwordValidation: true,
  };
  const indexHtml = built
    ? readFileSync(indexFile, 'utf8').replace(
        CONFIG_MARKER,
        `<script id="foyer-config" type="application/json">${escapeJsonForHtml(clientConfig)}</script>`,
      )
    : '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Foyer</title></head>' +
      '<body><main><h1>Foyer</h1><p>The hosted UI is not built yet: run <code>npm run build</code>.</p></main></body></html>';
  const csp = contentSecurityPolicy(config.urls);

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    return payload;
  });

  if (built) {
    await app.register(fastifyStatic, { root: config.uiDist, index: false, wildcard: false, maxAge: '1h' });
  }
  const sendIndex = (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  app.get('/', sendIndex);
  app.setNotFoundHandler((request, reply) => {
    // Missing files keep a real 404; every other path is a runtime route.
    if (request.method !== 'GET' || path.extname(request.url.split('?')[0]) !== '') {
      return reply.status(404).send({ statusCode: 404, message: 'Not found', error: 'NOT_FOUND' });
    }
    return sendIndex(request, reply);
  });
}
