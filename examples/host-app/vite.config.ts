import react from '@vitejs/plugin-react';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/** Port of the example's dev and preview servers (`npm run example`). */
export const EXAMPLE_PORT = 3330;

/**
 * Serves /config.json (where Foyer is and the app id) from FOYER_EXAMPLE_CONFIG, so one build runs
 * against any Foyer: `npm run example` sets it from the demo seed, the browser test serves its own.
 */
function exampleConfig(): Plugin {
  const serve = (server: { middlewares: { use(path: string, handler: (req: unknown, res: ServerResponse) => void): unknown } }) => {
    server.middlewares.use('/config.json', (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(process.env.FOYER_EXAMPLE_CONFIG ?? '{}');
    });
  };
  return { name: 'foyer-example-config', configureServer: serve, configurePreviewServer: serve };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), exampleConfig()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: { port: EXAMPLE_PORT, strictPort: true },
  preview: { port: EXAMPLE_PORT, strictPort: true },
});
