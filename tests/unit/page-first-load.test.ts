// What a page loads first, as the build counts it (scripts/bundle-budget.ts) and preloads it
// (scripts/entry-preload.ts), on a bundle shaped like the runtime page's: an entry that starts the
// runtime with an import() (src/main.tsx), the runtime's static imports, and a lazy screen.
import { describe, expect, it } from 'vitest';
import { firstLoadFiles } from '../../scripts/bundle-budget.ts';
import { startChunksOf } from '../../scripts/entry-preload.ts';

function chunk(fileName: string, imports: string[], dynamicImports: string[] = [], css: string[] = [], name = fileName) {
  return {
    type: 'chunk',
    fileName,
    name,
    isEntry: name === 'main',
    imports,
    dynamicImports,
    code: '',
    viteMetadata: { importedCss: new Set(css) },
  };
}

const bundle = {
  'main.js': chunk('main.js', ['helper.js'], ['start.js'], ['main.css'], 'main'),
  'helper.js': chunk('helper.js', []),
  'start.js': chunk('start.js', ['react.js', 'helper.js'], ['screen.js']),
  'react.js': chunk('react.js', []),
  'screen.js': chunk('screen.js', ['react.js', 'screen-only.js']),
  'screen-only.js': chunk('screen-only.js', []),
  'main.css': { type: 'asset', fileName: 'main.css', source: '' },
} as never;

describe("a page's first load", () => {
  it("preloads what the entry's own import() loads, without what the page already loads or lazy screens", () => {
    expect(startChunksOf(bundle, 'main.js').sort()).toEqual(['react.js', 'start.js']);
  });

  it("counts what the entry's import() loads when the page starts by it, and only its static part otherwise", () => {
    const page = { entry: 'main', route: '/auth/login', maxGzipKiB: 1 };
    expect(firstLoadFiles(bundle, { ...page, startsByImport: true }).sort()).toEqual([
      'helper.js',
      'main.css',
      'main.js',
      'react.js',
      'start.js',
    ]);
    expect(firstLoadFiles(bundle, page).sort()).toEqual(['helper.js', 'main.css', 'main.js']);
  });
});
