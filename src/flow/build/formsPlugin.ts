// Vite plugin that precompiles every schema/forms/*.json validator at build time (also in Vitest), so
// the runtime validates forms without ajv's runtime compiler: no eval / new Function under a strict CSP.
//   virtual:foyer-forms         → { formLoaders: { <name>: () => import('virtual:foyer-forms/<name>') } }
//   virtual:foyer-forms/<name>  → default export { schema, uiSchema, validateFns, rootValidatorKey }
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hashForSchema, ID_KEY, schemaParser, type RJSFSchema } from '@rjsf/utils';
import createAjvInstance from '@rjsf/validator-ajv8/lib/createAjvInstance.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import type { Plugin } from 'vite';

const INDEX_ID = 'virtual:foyer-forms';
const RESOLVED_PREFIX = '\0';

function formNames(formsDir: string): string[] {
  return readdirSync(formsDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

interface FormFile {
  schema: RJSFSchema;
  uiSchema?: Record<string, unknown>;
}

function readForm(formsDir: string, name: string): FormFile {
  return JSON.parse(readFileSync(path.join(formsDir, `${name}.json`), 'utf8')) as FormFile;
}

/**
 * ESM source of the validators of one form schema, keyed the way createPrecompiledValidator looks them up,
 * and the ajv runtime helpers it imports.
 */
function validatorModule(schema: RJSFSchema): { code: string; runtimeImports: string[] } {
  const schemaMap = schemaParser(schema);
  const ajv = createAjvInstance(undefined, undefined, {
    code: { source: true, esm: true, lines: false },
    schemas: Object.values(schemaMap),
  });
  const exportNames = Object.fromEntries(Object.keys(schemaMap).map((id) => [`v_${id.replace(/\W/g, '_')}`, id]));
  // ajv's standalone output still calls require() for its runtime helpers even in ESM mode; turn those calls
  // into static imports. A CommonJS helper arrives either as its exports object (bundler) or wrapped in
  // `default` (Node), hence the unwrap.
  const requires: string[] = [];
  const body = standaloneCode(ajv, exportNames).replace(/\brequire\("([^"]+)"\)/g, (_match, specifier: string) => {
    if (!requires.includes(specifier)) requires.push(specifier);
    return `__foyerRequire(${JSON.stringify(specifier)})`;
  });
  const imports = requires.map((specifier, index) => `import * as __dep${index} from ${JSON.stringify(specifier)};`);
  const table = requires.map((specifier, index) => `${JSON.stringify(specifier)}: __dep${index}`).join(', ');
  const functions = Object.entries(exportNames)
    .map(([exportName, id]) => `${JSON.stringify(id)}: ${exportName}`)
    .join(', ');
  const code = [
    ...imports,
    `const __deps = { ${table} };`,
    'function __foyerRequire(specifier) { const ns = __deps[specifier]; return ns.default && ns.default.__esModule ? ns.default : ns; }',
    body.replace(/^"use strict";/, ''),
    `export const validateFns = { ${functions} };`,
  ].join('\n');
  return { code, runtimeImports: requires };
}

export function foyerForms(options: { formsDir: string }): Plugin {
  const formsDir = path.resolve(options.formsDir);
  return {
    name: 'foyer-forms',
    // Vite's dev server pre-bundles what its scan of the pages finds, and the scan does not load these
    // virtual modules: the helpers they import would be found at the first form and bundled again,
    // reloading the page (two copies of React meanwhile).
    config(_config, env) {
      if (env.command !== 'serve') return undefined;
      const include = new Set(formNames(formsDir).flatMap((name) => validatorModule(readForm(formsDir, name).schema).runtimeImports));
      return { optimizeDeps: { include: [...include] } };
    },
    resolveId(id) {
      if (id === INDEX_ID || id.startsWith(`${INDEX_ID}/`)) return RESOLVED_PREFIX + id;
      return undefined;
    },
    load(id) {
      if (!id.startsWith(RESOLVED_PREFIX + INDEX_ID)) return undefined;
      const name = id.slice(RESOLVED_PREFIX.length + INDEX_ID.length + 1);
      if (!name) {
        const loaders = formNames(formsDir)
          .map((form) => `  ${JSON.stringify(form)}: () => import(${JSON.stringify(`${INDEX_ID}/${form}`)}),`)
          .join('\n');
        return `export const formLoaders = {\n${loaders}\n};\n`;
      }
      this.addWatchFile(path.join(formsDir, `${name}.json`));
      const form = readForm(formsDir, name);
      return [
        validatorModule(form.schema).code,
        // The key RJSF's precompiled validator looks the whole form's function up by (its getValidator).
        `const rootValidatorKey = ${JSON.stringify(typeof form.schema[ID_KEY] === 'string' ? form.schema[ID_KEY] : hashForSchema(form.schema))};`,
        `export default { schema: ${JSON.stringify(form.schema)}, uiSchema: ${JSON.stringify(form.uiSchema ?? {})}, validateFns, rootValidatorKey };`,
      ].join('\n');
    },
  };
}
