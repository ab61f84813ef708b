// A Vite plugin that writes a brotli (`.br`) and a gzip (`.gz`) copy beside each built text file, each
// at its format's highest level, once per build: the UI server sends those as they are
// (@fastify/static's preCompressed, server/ui/plugin.ts) instead of compressing every asset again on
// every first visit, at a lower level. Source maps are left out: development only, compressed on the
// fly there. The pages' HTML is not served as a file (the server injects its config).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What compresses: the built scripts, stylesheets and text-based images and data. */
const TEXT_FILE = /\.(js|mjs|css|svg|json|txt|webmanifest)$/i;

export const PRECOMPRESSED = { br: '.br', gzip: '.gz' } as const;

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of `folder`, however small: a file
 * without them is streamed through @fastify/compress (server/http/listener.ts), which compresses a
 * stream whatever its size, on every request. Returns the files compressed.
 */
export async function precompressFolder(folder: string): Promise<string[]> {
  const files = (await filesUnder(folder)).filter((file) => TEXT_FILE.test(file));
  return Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([writeFile(`${file}${PRECOMPRESSED.br}`, br), writeFile(`${file}${PRECOMPRESSED.gzip}`, gz)]);
      return file;
    }),
  );
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'foyer-precompress',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild !== true,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressFolder(outDir);
    },
  };
}
