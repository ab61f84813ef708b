// What a page loads before it is interactive, as the build counts it (scripts/bundle-budget.ts), on a
// bundle shaped like the runtime page's: an entry that
// starts the runtime with an import() (src/main.tsx), the runtime's static imports, the first step's
// lazy component, and a lazy screen.
import { describe, expect, it } from 'vitest';
import { firstLoadFiles } from '../../../scripts/bundle-budget.ts';

function chunk(
  fileName: string,
  moduleIds: string[],
  imports: string[],
  dynamicImports: string[] = [],
  css: string[] = [],
  name = fileName,
) {
  return {
    type: 'chunk',
    fileName,
    name,
    isEntry: name === 'main',
    moduleIds,
    imports,
    dynamicImports,
    code: '',
    viteMetadata: { importedCss: new Set(css) },
  };
}

const bundle = {
  'main.js': chunk('main.js', ['/src/main.tsx'], ['helper.js'], ['start.js'], ['main.css'], 'main'),
  'helper.js': chunk('helper.js', ['/helper.ts'], []),
  'start.js': chunk('start.js', ['/src/start.tsx'], ['react.js', 'helper.js'], ['button.js', 'screen.js']),
  'react.js': chunk('react.js', ['/react.js'], []),
  'button.js': chunk('button.js', ['/src/components/Button.tsx'], ['react.js', 'webauthn.js']),
  'webauthn.js': chunk('webauthn.js', ['/webauthn.js'], []),
  'screen.js': chunk('screen.js', ['/src/Screen.tsx'], ['react.js', 'screen-only.js']),
  'screen-only.js': chunk('screen-only.js', ['/screen-only.ts'], []),
  'main.css': { type: 'asset', fileName: 'main.css', source: '' },
} as never;

describe("a page's first load", () => {
  it('counts the static imports, and the lazy modules loaded before the page is interactive with their static imports', () => {
    const page = { entry: 'main', route: '/auth/login', maxGzipKiB: 1 };
    expect(firstLoadFiles(bundle, page).sort()).toEqual(['helper.js', 'main.css', 'main.js']);
    expect(firstLoadFiles(bundle, { ...page, beforeInteractive: ['/src/start.tsx', '/src/components/Button.tsx'] }).sort()).toEqual([
      'button.js',
      'helper.js',
      'main.css',
      'main.js',
      'react.js',
      'start.js',
      'webauthn.js',
    ]);
  });

  it('fails on a module loaded before the page is interactive that no chunk holds, rather than leaving it out', () => {
    expect(() =>
      firstLoadFiles(bundle, { entry: 'main', route: '/auth/login', maxGzipKiB: 1, beforeInteractive: ['/src/Gone.tsx'] }),
    ).toThrow(/no chunk holds \/src\/Gone\.tsx/);
  });
});
