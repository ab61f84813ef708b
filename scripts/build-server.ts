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
import { readFileSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_DIST = path.join(ROOT, 'dist', 'server');
export const SERVER_ENTRY = path.join(SERVER_DIST, 'main.js');

/**
 * Loaded from node_modules, not bundled: PGlite (its WebAssembly and file-system image beside its
 * code), argon2 (a native addon), @fastify/swagger-ui (it serves the static files of its folder),
 * pino (its transports run worker files from its folder), and the development-only Vite with
 * @fastify/middie (server/ui/dev-pages.ts, dev dependencies). @fastify/swagger is bundled: it reads
 * its package.json only for a title and version Foyer gives (server/management/openapi.ts), and as
 * files its YAML library alone was some 80 modules to resolve and compile at every start.
 */
const EXTERNAL_PACKAGES = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@node-rs/argon2',
  '@fastify/swagger-ui',
  'pino',
  'vite',
  '@fastify/middie',
];

/** The bundled CommonJS packages call require() for Node's own modules, which ES modules lack. */
const REQUIRE_IN_ESM =
  "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);";

/**
 * esbuild writes every non-ASCII character of code as an escape (charset ascii) but copies the
 * packages' comments as they are, and one character beyond Latin-1 in a comment makes V8 keep the
 * whole chunk's source at two bytes a character (14 MB instead of 7 for the largest, npm run bench --
 * server-start). Only comments still hold such characters; they get the same escapes.
 */
function asciiOnly(code: string): string {
  // The line and paragraph separators end a // comment, as a newline does.
  return code.replace(/[^\p{ASCII}]/gu, (character) =>
    character === '\u2028' || character === '\u2029' ? '\n' : `\\u{${character.codePointAt(0)!.toString(16)}}`,
  );
}

/**
 * What `npm run start:prod` gives node (package.json): its flags and the entry, relative to the
 * repository, for the bench and the tests that start the bundle as production does.
 */
export function productionNodeArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = scripts['start:prod']!.split(/\s+/).filter((word) => !/^[A-Z_]+=/.test(word));
  if (words[0] !== 'node' || words.at(-1) !== path.relative(ROOT, SERVER_ENTRY)) {
    throw new Error(
      `package.json's start:prod should be "node [flags] ${path.relative(ROOT, SERVER_ENTRY)}", not "${scripts['start:prod']}"`,
    );
  }
  return words.slice(1);
}

/** The bundle's esbuild settings (tests/unit/build/server-start-modules.test.ts reads what they load at start). */
export const serverBuildOptions = {
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
  charset: 'ascii',
  write: false,
  // Readable stack traces without source maps.
  keepNames: true,
  logLevel: 'warning',
} satisfies BuildOptions;

export async function buildServer(): Promise<void> {
  await rm(SERVER_DIST, { recursive: true, force: true });
  const { outputFiles } = await build(serverBuildOptions);
  await mkdir(SERVER_DIST, { recursive: true });
  await Promise.all(outputFiles.map((file) => writeFile(file.path, asciiOnly(file.text))));
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
