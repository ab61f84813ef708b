// Vite plugin that bundles the flows of one folder as data, and the English texts of one locales
// folder, so a deployment (or a test) builds the runtime from flows other than the repository's
// (FOYER_FLOWS_DIR, FOYER_LOCALES_DIR; README "Configuration") without editing any TypeScript.
//   virtual:foyer-flows  → default export: every <flowsDir>/*.json, sorted by file name
//   src/i18n/locales/en.json, wherever imported → <localesDir>/en.json
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const FLOWS_ID = 'virtual:foyer-flows';
const RESOLVED_FLOWS_ID = `\0${FLOWS_ID}`;
const SHIPPED_EN = path.resolve('src/i18n/locales/en.json');

export function foyerFlows(options: { flowsDir: string; localesDir: string }): Plugin {
  const flowsDir = path.resolve(options.flowsDir);
  const en = path.join(path.resolve(options.localesDir), 'en.json');
  return {
    name: 'foyer-flows',
    enforce: 'pre',
    async resolveId(id, importer, resolveOptions) {
      if (id === FLOWS_ID) return RESOLVED_FLOWS_ID;
      if (en === SHIPPED_EN || !id.endsWith('en.json')) return undefined;
      const resolved = await this.resolve(id, importer, { ...resolveOptions, skipSelf: true });
      return resolved && resolved.id.split('?')[0] === SHIPPED_EN ? en : undefined;
    },
    load(id) {
      if (id !== RESOLVED_FLOWS_ID) return undefined;
      const files = readdirSync(flowsDir)
        .filter((file) => file.endsWith('.json'))
        .sort()
        .map((file) => path.join(flowsDir, file));
      for (const file of files) this.addWatchFile(file);
      const flows = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown);
      return `export default ${JSON.stringify(flows)};\n`;
    },
  };
}
