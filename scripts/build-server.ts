// The production server (part of `npm run build`): server/main.ts and everything it imports from the
// repository bundled into ES modules, dist/server/main.js and the chunks it loads while the database
// opens (server/main.ts), which `npm run start:prod` runs with plain `node` (no TypeScript
// compilation at start, no dev dependencies). npm packages stay imports,
// resolved from node_modules at run time as under tsx, so Node loads the same builds of them (one
// graphql for Foyer and graphql-yoga). The migrations and the mail and SMS texts are copied beside the
// bundle, where server/db/client.ts and server/notify/texts.ts look for them; schema/api.graphql is found as from server/graphql/, since
// dist/server is two folders below the repository root too.
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_DIST = path.join(ROOT, 'dist', 'server');
export const SERVER_ENTRY = path.join(SERVER_DIST, 'main.js');

export async function buildServer(): Promise<void> {
  await rm(SERVER_DIST, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(ROOT, 'server', 'main.ts')],
    outdir: SERVER_DIST,
    entryNames: '[name]',
    // Beside main.js, so that every chunk finds the migrations and the schema as main.js does.
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Readable stack traces without source maps.
    keepNames: true,
    logLevel: 'warning',
  });
  await cp(path.join(ROOT, 'server', 'db', 'migrations'), path.join(SERVER_DIST, 'migrations'), { recursive: true });
  await cp(path.join(ROOT, 'server', 'notify', 'locales'), path.join(SERVER_DIST, 'locales'), { recursive: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  console.log(
    `server: ${path.relative(process.cwd(), SERVER_ENTRY)} and its chunks built in ${Math.round(performance.now() - started)} ms`,
  );
}
