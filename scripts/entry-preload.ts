// A Vite plugin for a page whose entry starts its code with an import() (src/main.tsx starts the
// runtime after the first paint): the chunks that import() loads, and every chunk they import
// statically, get modulepreload links in the page, so the browser fetches them with the page rather
// than when the import() runs. Only the entry's own import()s: lazy screens stay lazy.
import type { HtmlTagDescriptor, Plugin } from 'vite';

type Bundle = NonNullable<Parameters<Extract<NonNullable<Plugin['transformIndexHtml']>, { handler: unknown }>['handler']>[1]['bundle']>;

/** The chunks the entry chunk `entryFile`'s own import()s load, with their static imports, minus what the entry loads statically. */
export function startChunksOf(bundle: Bundle, entryFile: string): string[] {
  const entry = bundle[entryFile];
  if (entry?.type !== 'chunk') return [];
  const loaded = new Set<string>([entryFile]);
  const statically = (fileName: string, into: Set<string>) => {
    if (into.has(fileName)) return;
    into.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type === 'chunk') for (const imported of chunk.imports) statically(imported, into);
  };
  for (const imported of entry.imports) statically(imported, loaded);
  const started = new Set<string>();
  for (const dynamic of entry.dynamicImports) statically(dynamic, started);
  return [...started].filter((fileName) => !loaded.has(fileName));
}

export function entryPreload(entries: string[]): Plugin {
  return {
    name: 'foyer-entry-preload',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild !== true,
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk || !entries.includes(chunk.name)) return [];
        return startChunksOf(bundle, chunk.fileName).map((fileName): HtmlTagDescriptor => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
          injectTo: 'head',
        }));
      },
    },
  };
}
