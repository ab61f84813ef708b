// Builds the package a host app installs: one ES module (dist/index.js, with the shared rules of
// common/ bundled in) and its type declarations (dist/index.d.ts). Run by the repository's
// `npm run build` (npm run build:sdk).
import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('.', import.meta.url));
const dist = `${root}dist`;

await rm(dist, { recursive: true, force: true });
await build({
  entryPoints: [`${root}src/index.ts`],
  outfile: `${dist}/index.js`,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  jsx: 'automatic',
  sourcemap: true,
  // The host app brings React; oidc-client-ts is the package's own dependency.
  external: ['react', 'react/jsx-runtime', 'oidc-client-ts'],
  logLevel: 'warning',
});
execFileSync(process.execPath, [fileURLToPath(import.meta.resolve('typescript/bin/tsc')), '-p', `${root}tsconfig.build.json`], {
  stdio: 'inherit',
});
await writeFile(`${dist}/index.d.ts`, "export * from './types/sdk/react/src/index.ts';\n");
