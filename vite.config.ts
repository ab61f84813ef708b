import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { foyerForms } from './src/flow/build/formsPlugin.ts';

// The hosted runtime: built into dist/ui, served by the UI server, which injects the client config in
// place of <!--foyer-config--> in index.html.
export default defineConfig({
  plugins: [react(), foyerForms({ formsDir: 'schema/forms' })],
  build: {
    outDir: 'dist/ui',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { port: 5173 },
});
