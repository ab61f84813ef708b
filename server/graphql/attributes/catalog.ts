// What the deployment's flows collect: every step with `collect` ({"companySize": "tenant"}) names
// fields of its form and where their values belong. Read from the same flows and schema/forms files
// the hosted UI was built from (config.flowsDir, config.formsDir), so the server checks a value with
// exactly the schema the form validated it with.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export const ATTRIBUTE_TARGETS = ['user', 'membership', 'tenant'] as const;
export type AttributeTarget = (typeof ATTRIBUTE_TARGETS)[number];

export interface CollectedField {
  target: AttributeTarget;
  /** The form field's own JSON Schema (its property in the form's schema). */
  schema: Record<string, unknown>;
  required: boolean;
  /** Checks one value with `schema`. */
  validate: ValidateFunction;
}

/** Per flow id, the fields its steps collect. */
export type AttributeCatalog = ReadonlyMap<string, ReadonlyMap<string, CollectedField>>;

interface FlowFile {
  id?: unknown;
  steps?: Record<string, { form?: unknown; collect?: unknown }>;
}

interface FormFile {
  schema?: { properties?: Record<string, Record<string, unknown>>; required?: unknown };
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => path.join(dir, name));
}

function isTarget(value: unknown): value is AttributeTarget {
  return typeof value === 'string' && (ATTRIBUTE_TARGETS as readonly string[]).includes(value);
}

/**
 * Reads every flow and the forms its collecting steps show. A step that collects a field its form
 * does not define, or names an unknown target, is a broken deployment: refused at start (server/graphql/plugin.ts), like
 * `npm run flows:check` refuses it.
 */
export function loadAttributeCatalog(flowsDir: string, formsDir: string): AttributeCatalog {
  // allErrors: every problem of a value at once, as the form shows them.
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const catalog = new Map<string, Map<string, CollectedField>>();
  for (const file of jsonFiles(flowsDir)) {
    const flow = readJson<FlowFile>(file);
    if (typeof flow.id !== 'string') continue;
    const fields = new Map<string, CollectedField>();
    for (const [stepName, step] of Object.entries(flow.steps ?? {})) {
      if (step.collect === undefined) continue;
      const where = `${path.basename(file)} step ${stepName}`;
      if (typeof step.form !== 'string') throw new Error(`${where} collects values but shows no form`);
      const form = readJson<FormFile>(path.join(formsDir, `${step.form}.json`));
      const required = Array.isArray(form.schema?.required) ? (form.schema.required as unknown[]) : [];
      for (const [name, target] of Object.entries(step.collect as Record<string, unknown>)) {
        const schema = form.schema?.properties?.[name];
        if (!schema) throw new Error(`${where} collects ${name}, which its form ${step.form} does not define`);
        if (!isTarget(target)) throw new Error(`${where} stores ${name} in ${String(target)}: use user, membership or tenant`);
        if (fields.has(name)) throw new Error(`${where} collects ${name} a second time`);
        fields.set(name, { target, schema, required: required.includes(name), validate: ajv.compile(schema) });
      }
    }
    catalog.set(flow.id, fields);
  }
  return catalog;
}

const catalogs = new Map<string, AttributeCatalog>();

/** The catalog of a flows and forms folder, read once per process. */
export function attributeCatalog(config: { flowsDir: string; formsDir: string }): AttributeCatalog {
  const key = `${config.flowsDir}\0${config.formsDir}`;
  let catalog = catalogs.get(key);
  if (!catalog) {
    catalog = loadAttributeCatalog(config.flowsDir, config.formsDir);
    catalogs.set(key, catalog);
  }
  return catalog;
}
