import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { foyerFlows } from './src/flow/build/flowsPlugin.ts';
import { foyerForms } from './src/flow/build/formsPlugin.ts';
import { bundleBudget } from './scripts/bundle-budget.ts';
import { firstStepModules } from './scripts/first-step-modules.ts';
import { precompress } from './scripts/precompress.ts';

/**
 * `vite build --ssr src/ssr/render.tsx`: the runtime's server entry, into dist/ui-ssr, which the hosted UI
 * server loads to draw the first step of a flow's route (server/ui/first-paint.ts); npm packages stay
 * imports there. It runs in Node, where nothing is downloaded: no page budget.
 */
function serverEntryBuild(): Plugin {
  return {
    name: 'foyer-server-entry',
    apply: (_config, env) => env.isSsrBuild === true,
    config: () => ({ build: { outDir: 'dist/ui-ssr', copyPublicDir: false, sourcemap: false } }),
  };
}

// Two pages built into dist/ui and served by the UI server, which injects the client config in place
// of <!--foyer-config--> (and, in the runtime's page, the first step the server entry drew): the hosted runtime (index.html) and the owners' configurator
// (configurator/index.html → dist/ui/configurator/index.html). FOYER_FLOWS_DIR, FOYER_FORMS_DIR and
// FOYER_LOCALES_DIR build it from other flows, forms and English texts (docs/configuration.md).
const flowsDir = process.env.FOYER_FLOWS_DIR || 'flows';
const formsDir = process.env.FOYER_FORMS_DIR || 'schema/forms';

export default defineConfig({
  plugins: [
    react(),
    foyerFlows({ flowsDir, localesDir: process.env.FOYER_LOCALES_DIR || 'src/i18n/locales' }),
    foyerForms({ formsDir }),
    bundleBudget([
      {
        entry: 'main',
        route: '/auth/login',
        maxGzipKiB: 106,
        // The runtime's start, which the entry imports once the page is painted (src/main.tsx), and the first step's parts.
        beforeInteractive: [path.resolve('src/start.tsx'), ...firstStepModules({ flowsDir, formsDir, route: '/auth/login' })],
      },
      { entry: 'configurator', route: '/configurator', maxGzipKiB: 148 },
    ]),
    precompress(),
    serverEntryBuild(),
  ],
  build: {
    outDir: 'dist/ui',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      input: { main: 'index.html', configurator: 'configurator/index.html' },
    },
  },
  server: { port: 5173 },
});
