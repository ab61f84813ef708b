import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { foyerForms } from './src/flow/build/formsPlugin.ts';
import { bundleBudget } from './scripts/bundle-budget.ts';

// Two pages built into dist/ui and served by the UI server, which injects the client config in place
// of <!--foyer-config-->: the hosted runtime (index.html) and the owners' configurator
// (configurator/index.html → dist/ui/configurator/index.html).
export default defineConfig({
  plugins: [
    react(),
    foyerForms({ formsDir: 'schema/forms' }),
    bundleBudget([
      { entry: 'main', route: '/auth/login', maxGzipKiB: 304 },
      { entry: 'configurator', route: '/configurator', maxGzipKiB: 180 },
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
