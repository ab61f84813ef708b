// Vite plugin that bundles the flows of one folder as data, and the English texts of one locales
// folder, so a deployment (or a test) builds the runtime from flows other than the repository's
// (FOYER_FLOWS_DIR, FOYER_LOCALES_DIR; docs/configuration.md) without editing any TypeScript.
//   virtual:foyer-flows  → default export: every <flowsDir>/*.json as { id, routes, flow } for the
//                          flows of the login route and { id, routes, load } for the others, sorted
//                          by file name; each other flow is its own module, fetched when it is entered
//   virtual:foyer-flows/<file name> → default export: that flow
//   src/i18n/locales/en.json, wherever imported → <localesDir>/en.json
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const FLOWS_ID = 'virtual:foyer-flows';
const RESOLVED_FLOWS_ID = `\0${FLOWS_ID}`;
const ONE_FLOW_PREFIX = `${FLOWS_ID}/`;
// Where every visit without a known address lands (src/app/router.tsx): its flows come with the page.
const LOGIN_PATH = '/auth/login';
const SHIPPED_EN = path.resolve('src/i18n/locales/en.json');

export function foyerFlows(options: { flowsDir: string; localesDir: string }): Plugin {
  const flowsDir = path.resolve(options.flowsDir);
  const en = path.join(path.resolve(options.localesDir), 'en.json');
  return {
    name: 'foyer-flows',
    enforce: 'pre',
    async resolveId(id, importer, resolveOptions) {
      if (id === FLOWS_ID) return RESOLVED_FLOWS_ID;
      if (id.startsWith(ONE_FLOW_PREFIX)) return `\0${id}`;
      if (en === SHIPPED_EN || !id.endsWith('en.json')) return undefined;
      const resolved = await this.resolve(id, importer, { ...resolveOptions, skipSelf: true });
      return resolved && resolved.id.split('?')[0] === SHIPPED_EN ? en : undefined;
    },
    load(id) {
      if (id.startsWith(`\0${ONE_FLOW_PREFIX}`)) {
        const file = path.join(flowsDir, `${id.slice(ONE_FLOW_PREFIX.length + 1)}.json`);
        this.addWatchFile(file);
        return `export default ${readFileSync(file, 'utf8')};\n`;
      }
      if (id !== RESOLVED_FLOWS_ID) return undefined;
      const files = readdirSync(flowsDir)
        .filter((file) => file.endsWith('.json'))
        .sort();
      const entries = files.map((file) => {
        const full = path.join(flowsDir, file);
        this.addWatchFile(full);
        const flow = JSON.parse(readFileSync(full, 'utf8')) as { id: string; routes: string[] };
        const head = `id: ${JSON.stringify(flow.id)}, routes: ${JSON.stringify(flow.routes)}`;
        if (flow.routes.includes(LOGIN_PATH)) return `{ ${head}, flow: ${JSON.stringify(flow)} }`;
        const module = JSON.stringify(`${ONE_FLOW_PREFIX}${file.slice(0, -'.json'.length)}`);
        return `{ ${head}, load: () => import(${module}).then((loaded) => loaded.default) }`;
      });
      return `export default [\n${entries.join(',\n')}\n];\n`;
    },
  };
}
