import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { foyerFlows } from './src/flow/build/flowsPlugin.ts';
import { foyerForms } from './src/flow/build/formsPlugin.ts';
import { bundleBudget } from './scripts/bundle-budget.ts';

// Two pages built into dist/ui and served by the UI server, which injects the client config in place
// of <!--foyer-config-->: the hosted runtime (index.html) and the owners' configurator
// (configurator/index.html → dist/ui/configurator/index.html). FOYER_FLOWS_DIR, FOYER_FORMS_DIR and
// FOYER_LOCALES_DIR build it from other flows, forms and English texts (README "Configuration").
export default defineConfig({
  plugins: [
    react(),
    foyerFlows({ flowsDir: process.env.FOYER_FLOWS_DIR || 'flows', localesDir: process.env.FOYER_LOCALES_DIR || 'src/i18n/locales' }),
    foyerForms({ formsDir: process.env.FOYER_FORMS_DIR || 'schema/forms' }),
    bundleBudget([
      { entry: 'main', route: '/auth/login', maxGzipKiB: 132 },
      { entry: 'configurator', route: '/configurator', maxGzipKiB: 148 },
    ]),
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
