// A Vite plugin that fails the build when a page's first load grows past its budget: the JavaScript
// and CSS a browser fetches before the page is interactive (the page's entry chunk, every chunk it
// imports statically, the lazy chunks it loads before hydrating a server-drawn first step, and all
// their CSS), gzipped at level 9 and summed. Other lazy chunks (other screens and steps) are not
// counted: the budget guards what every visit pays.
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export interface PageBudget {
  /** The rollup input name of the page (vite.config.ts build.rolldownOptions.input). */
  entry: string;
  /** What the page is called in the build's output. */
  route: string;
  maxGzipKiB: number;
  /**
   * Modules (ids as the bundle names them) the page imports lazily but before it is interactive
   * (scripts/first-step-modules.ts): their chunks and those chunks' static imports count too.
   */
  beforeInteractive?: string[];
}

type Bundle = Parameters<NonNullable<Extract<Plugin['generateBundle'], (...args: never[]) => unknown>>>[1];

export function firstLoadFiles(bundle: Bundle, { entry, beforeInteractive = [] }: PageBudget): string[] {
  const start = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry && output.name === entry);
  if (!start || start.type !== 'chunk') throw new Error(`bundle budget: no entry chunk named ${entry}`);
  const lazyStarts = beforeInteractive.map((moduleId) => {
    const chunk = Object.values(bundle).find((output) => output.type === 'chunk' && output.moduleIds.includes(moduleId));
    // A module the build no longer has would silently drop out of the count.
    if (!chunk) throw new Error(`bundle budget: no chunk holds ${moduleId}, which ${entry} loads before it is interactive`);
    return chunk.fileName;
  });
  const files = new Set<string>();
  const visit = (fileName: string) => {
    if (files.has(fileName)) return;
    files.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk') return;
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const imported of chunk.imports) visit(imported);
  };
  visit(start.fileName);
  for (const fileName of lazyStarts) visit(fileName);
  return [...files];
}

function gzipBytes(bundle: Bundle, fileName: string): number {
  const output = bundle[fileName]!;
  const source = output.type === 'chunk' ? output.code : output.source;
  return gzipSync(source, { level: 9 }).length;
}

export function bundleBudget(budgets: PageBudget[]): Plugin {
  return {
    name: 'foyer-bundle-budget',
    // Pages only: the server entry (vite.config.ts) is not downloaded.
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild !== true,
    generateBundle(_options, bundle) {
      const over: string[] = [];
      for (const budget of budgets) {
        const kib = firstLoadFiles(bundle, budget).reduce((sum, fileName) => sum + gzipBytes(bundle, fileName), 0) / 1024;
        this.info(`${budget.route}: first-load JS+CSS ${kib.toFixed(1)} KiB gzip (budget ${budget.maxGzipKiB} KiB)`);
        if (kib > budget.maxGzipKiB)
          over.push(`${budget.route} loads ${kib.toFixed(1)} KiB gzip up front, over its budget of ${budget.maxGzipKiB} KiB`);
      }
      if (over.length > 0) this.error(`Bundle budget exceeded: ${over.join('; ')} (vite.config.ts)`);
    },
  };
}
