// The production server (part of `npm run build`): server/main.ts, everything it imports from the
// repository and the npm packages they use, bundled into ES modules: dist/server/main.js and the
// chunks it loads while the database opens (server/main.ts), which `npm run start:prod` runs with
// plain `node` (no TypeScript compilation at start, no dev dependencies). Resolving and compiling
// about 2,700 package files one by one was half of the server's start (npm run bench -- server-start);
// one bundle is parsed at once. Packages that must stay files on disk are left as imports, resolved
// from node_modules at run time (EXTERNAL_PACKAGES). The migrations and the mail and SMS texts are
// copied beside the bundle, where server/db/client.ts and server/notify/texts.ts look for them;
// schema/api.graphql is found as from server/graphql/, since dist/server is two folders below the
// repository root too.
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_DIST = path.join(ROOT, 'dist', 'server');
export const SERVER_ENTRY = path.join(SERVER_DIST, 'main.js');

/**
 * Loaded from node_modules, not bundled: PGlite (its WebAssembly and file-system image beside its
 * code), argon2 (a native addon), @fastify/swagger and @fastify/swagger-ui (they read their own
 * package.json and static files), pino (its transports run worker files from its folder), and the
 * development-only Vite with @fastify/middie (server/ui/dev-pages.ts, dev dependencies).
 */
const EXTERNAL_PACKAGES = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@node-rs/argon2',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
  'vite',
  '@fastify/middie',
];

/** The bundled CommonJS packages call require() for Node's own modules, which ES modules lack. */
const REQUIRE_IN_ESM =
  "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);";

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
    external: EXTERNAL_PACKAGES,
    banner: { js: REQUIRE_IN_ESM },
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
