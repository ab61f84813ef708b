// Where the hosted UI's two HTML pages come from: the build (dist/ui, read once) or, with `npm run
// dev`, Vite's dev server (server/ui/dev-pages.ts), which transforms the source pages on every load.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type PageFile = 'index.html' | 'configurator/index.html';

export interface PageSource {
  /** The page's HTML for the address `url`, or undefined when there is none (not built yet). */
  html(file: PageFile, url: string): Promise<string | undefined>;
  /** A nonce the page's CSP must allow for scripts and styles (the dev server injects both inline). */
  cspNonce?: string;
  /** Whether the built assets of `uiDist` are served (not with the dev server, which serves the sources). */
  servesBuiltFiles: boolean;
}

export function builtPages(uiDist: string): PageSource {
  const read = (file: PageFile) => {
    const full = path.join(uiDist, file);
    return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
  };
  const pages = { 'index.html': read('index.html'), 'configurator/index.html': read('configurator/index.html') };
  return {
    html: async (file) => pages[file],
    servesBuiltFiles: pages['index.html'] !== undefined,
  };
}
