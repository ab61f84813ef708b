// `npm run dev`: Vite's dev server in middleware mode inside the hosted UI listener, so flows, forms,
// translations and components are served from source with hot reload (its websocket shares the
// listener's port). Loaded only in development: Vite is a dev dependency.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { PageSource } from './pages.ts';

export async function viteDevPages(app: FastifyInstance, root: string): Promise<PageSource> {
  const [{ createServer }, { default: middie }] = await Promise.all([import('vite'), import('@fastify/middie')]);
  // React's refresh preamble and Vite's hot-reloaded styles are inline: the CSP allows them by a nonce
  // Vite puts on each.
  const cspNonce = randomBytes(16).toString('base64');
  const vite = await createServer({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    appType: 'custom',
    html: { cspNonce },
    server: { middlewareMode: true, hmr: { server: app.server } },
  });
  await app.register(middie);
  app.use(vite.middlewares);
  app.addHook('onClose', async () => vite.close());
  return {
    html: async (file, url) => vite.transformIndexHtml(url, await readFile(path.join(root, file), 'utf8')),
    cspNonce,
    servesBuiltFiles: false,
  };
}
