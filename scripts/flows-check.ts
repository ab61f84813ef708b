// `npm run flows:check [flowsDir] [--forms dir] [--translations file]`
// Validates every flow and form against schema/flow.schema.json, then cross-checks what the schema
// cannot: steps named by transitions, form files, registered actions and components, and translation
// keys in en.json. Prints `file#/json/pointer: sentence` per problem and exits 1 when there is any.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import {
  Kind,
  buildSchema,
  getNamedType,
  isInputObjectType,
  isInputType,
  parse,
  typeFromAST,
  type GraphQLInputField,
  type GraphQLInputFieldMap,
  type GraphQLInputType,
  type GraphQLNamedInputType,
  type GraphQLSchema,
} from 'graphql';
import {
  ACTION_INPUTS,
  ACTION_NAMES,
  COMPONENT_NAMES,
  FORM_FIELD_NAMES,
  FORM_WIDGET_NAMES,
  GQL_ACTION_PREFIX,
  REDIRECT_ACTIONS,
  isActionName,
  isComponentName,
} from '../src/flow/registry-names.ts';
import { RJSF_WIDGETS } from './flow-schema.ts';
import { isSupportedLocale, LOCALES } from '../common/locales.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface CheckOptions {
  flowsDir?: string;
  formsDir?: string;
  translationsFile?: string;
  graphqlDir?: string;
}

export interface Problem {
  file: string;
  pointer: string;
  message: string;
}

export function formatProblem(problem: Problem): string {
  return `${problem.file}#${problem.pointer}: ${problem.message}`;
}

function pointerOf(segments: (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => path.join(dir, file));
}

function display(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') ? file : relative;
}

function readJson(file: string, problems: Problem[]): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    problems.push({ file: display(file), pointer: '', message: sentence(`not valid JSON: ${(error as Error).message}`) });
    return undefined;
  }
}

/** Schema errors, without the "must match exactly one schema" summaries that more precise errors explain. */
function schemaProblems(file: string, errors: ErrorObject[]): Problem[] {
  const specific = errors.filter((error) => error.keyword !== 'oneOf' && error.keyword !== 'if');
  const chosen = specific.length ? specific : errors;
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of chosen) {
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties') message = `has unknown property "${String(error.params.additionalProperty)}"`;
    if (error.keyword === 'enum')
      message = `must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    const problem = { file: display(file), pointer: error.instancePath, message: sentence(`value ${message}`) };
    const key = formatProblem(problem);
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

/** Edit distance between two names (Levenshtein), for "did you mean" hints. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_value, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** ` Did you mean "x"?` for the closest candidate within a quarter of the name's length, or nothing. */
export function suggestion(name: string, candidates: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 4)) + 1;
  for (const candidate of candidates) {
    const found = distance(name.toLowerCase(), candidate.toLowerCase());
    if (found < bestDistance) {
      best = candidate;
      bestDistance = found;
    }
  }
  return best === undefined ? '' : ` Did you mean "${best}"?`;
}

/** A suggestion for a dotted key: the closest last part among the keys beside it. */
function keySuggestion(key: string, keys: readonly string[]): string {
  const cut = key.lastIndexOf('.');
  const parent = key.slice(0, cut + 1);
  const siblings = keys.filter((candidate) => candidate.startsWith(parent) && !candidate.slice(parent.length).includes('.'));
  const hint = suggestion(
    key.slice(cut + 1),
    siblings.map((candidate) => candidate.slice(parent.length)),
  );
  return hint.replace(/"([^"]*)"/, (_match, last: string) => `"${parent}${last}"`);
}

/** Every dotted key of a translation file. */
function textKeys(resources: unknown, prefix = ''): string[] {
  if (typeof resources !== 'object' || resources === null) return [];
  return Object.entries(resources).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [path] : textKeys(value, path);
  });
}

/** The roots of the data JSON Logic sees (FlowContext in src/flow/types.ts). */
const CONTEXT_ROOTS = [
  'app',
  'config',
  'query',
  'form',
  'collected',
  'result',
  'results',
  'user',
  'tenant',
  'params',
  'state',
  'path',
  'step',
  'error',
];

/** JSON Logic operations whose arguments after the first read each item of a list, not the context. */
const ITEM_SCOPED = new Set(['map', 'filter', 'reduce', 'all', 'none', 'some']);

/** Every `{"var": ...}` of a JSON Logic value that reads the context, with where it is. */
function varReferences(value: Json, segments: (string | number)[], found: { path: string; segments: (string | number)[] }[] = []) {
  if (Array.isArray(value)) value.forEach((item, index) => varReferences(item, [...segments, index], found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'var') {
        const path = Array.isArray(child) ? child[0] : child;
        if (typeof path === 'string' && path !== '') found.push({ path, segments: [...segments, 'var'] });
      } else if (ITEM_SCOPED.has(key) && Array.isArray(child)) {
        // Only the list is read from the context; the rest runs on each item.
        varReferences(child[0], [...segments, key, 0], found);
      } else {
        varReferences(child, [...segments, key], found);
      }
    }
  }
  return found;
}

function lookupText(resources: unknown, key: string): boolean {
  let node: unknown = resources;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}

/** The operations of the runtime's documents, by name, with their variables' types in the API schema. */
function graphqlOperations(dir: string, schema: GraphQLSchema): Map<string, Map<string, GraphQLInputType>> {
  const operations = new Map<string, Map<string, GraphQLInputType>>();
  if (!existsSync(dir)) return operations;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.graphql'))) {
    const document = parse(readFileSync(path.join(dir, file), 'utf8'));
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION || !definition.name) continue;
      const variables = new Map<string, GraphQLInputType>();
      for (const variable of definition.variableDefinitions ?? []) {
        const type = typeFromAST(schema, variable.type);
        if (type && isInputType(type)) variables.set(variable.variable.name.value, type);
      }
      operations.set(definition.name.value, variables);
    }
  }
  return operations;
}

/**
 * Why an action input name (dots build nested objects, src/flow/logic.ts) does not fit the
 * operation's variables, or null: the first part must be a variable, each further part a field of
 * the input object before it.
 */
function inputProblem(name: string, variables: Map<string, GraphQLInputType>): string | null {
  const [first, ...rest] = name.split('.');
  let type: GraphQLInputType | undefined = variables.get(first!);
  if (!type) {
    const known = [...variables.keys()];
    return `the operation has no variable "${first}" (it has ${known.length ? known.map((known) => `$${known}`).join(', ') : 'none'}).${suggestion(first!, known)}`;
  }
  for (const part of rest) {
    const named: GraphQLNamedInputType = getNamedType(type);
    if (!isInputObjectType(named)) return `${named.name} has no fields, so "${part}" cannot be set.`;
    const fields: GraphQLInputFieldMap = named.getFields();
    const field: GraphQLInputField | undefined = fields[part];
    if (!field) return `${named.name} has no field "${part}".${suggestion(part, Object.keys(fields))}`;
    type = field.type;
  }
  return null;
}

/** The top-level field names of a form file (none when it cannot be read; its own check reports that). */
function formFields(file: string): Set<string> {
  try {
    const form = JSON.parse(readFileSync(file, 'utf8')) as { schema?: { properties?: Record<string, unknown> } };
    return new Set(Object.keys(form.schema?.properties ?? {}));
  } catch {
    return new Set();
  }
}

type Json = unknown;
type Visit = (value: Json, segments: (string | number)[]) => void;

/** Keys whose values are JSON Logic or free data: never walked for flow references. */
const DATA_KEYS = new Set([
  'collect',
  'if',
  'disabledIf',
  'href',
  'input',
  'props',
  'values',
  'query',
  'state',
  'defaults',
  'path',
  'fields',
]);

function walk(value: Json, segments: (string | number)[], visit: Visit): void {
  visit(value, segments);
  if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...segments, index], visit));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (!DATA_KEYS.has(key)) walk(child, [...segments, key], visit);
    }
  }
}

/** Properties whose value is a text: a translation key, or {key, values}. */
const TEXT_KEYS = new Set(['title', 'heading', 'subheading', 'label', 'prefix', 'message', 'default']);

export function checkFlows(options: CheckOptions = {}): { problems: Problem[]; flowCount: number; formCount: number } {
  const flowsDir = path.resolve(options.flowsDir ?? path.join(root, 'flows'));
  const formsDir = path.resolve(options.formsDir ?? path.join(root, 'schema/forms'));
  const translationsFile = path.resolve(options.translationsFile ?? path.join(root, 'src/i18n/locales/en.json'));
  const graphqlDir = path.resolve(options.graphqlDir ?? path.join(root, 'src/graphql'));
  const problems: Problem[] = [];

  const metaSchema = JSON.parse(readFileSync(path.join(root, 'schema/flow.schema.json'), 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema(metaSchema);
  const validateFlow = ajv.getSchema(metaSchema.$id as string) as ValidateFunction;
  const validateForm = ajv.getSchema(`${metaSchema.$id as string}#/definitions/formFile`) as ValidateFunction;
  const translations = readJson(translationsFile, problems);
  const apiSchema = buildSchema(readFileSync(path.join(root, 'schema/api.graphql'), 'utf8'));
  const operations = graphqlOperations(graphqlDir, apiSchema);
  const formNames = new Set(jsonFiles(formsDir).map((file) => path.basename(file, '.json')));
  const allTextKeys = textKeys(translations);
  const translationsName = display(translationsFile);

  const checkText = (file: string, segments: (string | number)[], value: unknown) => {
    const key = typeof value === 'string' ? value : (value as { key?: unknown } | null)?.key;
    if (typeof key === 'string' && !lookupText(translations, key)) {
      const at = typeof value === 'string' ? segments : [...segments, 'key'];
      problems.push({
        file: display(file),
        pointer: pointerOf(at),
        message: `Translation key "${key}" is missing from ${translationsName}.${keySuggestion(key, allTextKeys)}`,
      });
    }
  };

  const checkAction = (file: string, segments: (string | number)[], name: unknown) => {
    if (typeof name !== 'string' || isActionName(name)) return;
    if (name.startsWith(GQL_ACTION_PREFIX)) {
      const operation = name.slice(GQL_ACTION_PREFIX.length);
      if (!operations.has(operation)) {
        problems.push({
          file: display(file),
          pointer: pointerOf(segments),
          message: `Action "${name}" names no GraphQL operation in src/graphql.${suggestion(operation, operations.keys())}`,
        });
      }
      return;
    }
    problems.push({
      file: display(file),
      pointer: pointerOf(segments),
      message: `Action "${name}" is not registered.${suggestion(name, ACTION_NAMES)}`,
    });
  };

  const routes = new Map<string, string>();
  const flowFiles = jsonFiles(flowsDir);
  for (const file of flowFiles) {
    const flow = readJson(file, problems) as Record<string, unknown> | undefined;
    if (flow === undefined) continue;
    // Schema problems are reported with every other problem of the file, not instead of them.
    if (!validateFlow(flow)) problems.push(...schemaProblems(file, validateFlow.errors ?? []));
    if (typeof flow !== 'object' || flow === null || typeof flow.steps !== 'object' || flow.steps === null) continue;
    const steps = flow.steps as Record<string, Record<string, unknown>>;
    if (flow.id !== path.basename(file, '.json')) {
      problems.push({ file: display(file), pointer: '/id', message: `Flow id "${String(flow.id)}" differs from the file name.` });
    }
    if (!(String(flow.initial) in steps)) {
      problems.push({ file: display(file), pointer: '/initial', message: `Step "${String(flow.initial)}" does not exist in this flow.` });
    }
    (Array.isArray(flow.routes) ? (flow.routes as unknown[]) : []).forEach((route, index) => {
      if (typeof route !== 'string') return;
      const owner = routes.get(route);
      if (owner)
        problems.push({
          file: display(file),
          pointer: pointerOf(['routes', index]),
          message: `Route "${route}" is also claimed by ${owner}.`,
        });
      else routes.set(route, display(file));
    });
    walk(flow, [], (value, segments) => {
      const key = segments[segments.length - 1];
      const parentKey = segments[segments.length - 2];
      const isErrorGoto = parentKey === 'goto' && segments[segments.length - 3] === 'onError';
      if ((key === 'goto' || isErrorGoto) && typeof value === 'string' && !(value in steps)) {
        problems.push({
          file: display(file),
          pointer: pointerOf(segments),
          message: `Step "${value}" does not exist in this flow.${suggestion(value, Object.keys(steps))}`,
        });
      }
      if (key === 'redirect' && typeof value === 'string')
        checkAction(file, segments, REDIRECT_ACTIONS[value as keyof typeof REDIRECT_ACTIONS]);
      if (key === 'action') checkAction(file, segments, value);
      if (key === 'component' && typeof value === 'string' && !isComponentName(value)) {
        problems.push({
          file: display(file),
          pointer: pointerOf(segments),
          message: `Component "${value}" is not registered (known: ${COMPONENT_NAMES.join(', ')}).${suggestion(value, COMPONENT_NAMES)}`,
        });
      }
      if (key === 'form' && typeof value === 'string' && !formNames.has(value)) {
        problems.push({
          file: display(file),
          pointer: pointerOf(segments),
          message: `Form "${value}" has no file schema/forms/${value}.json.${suggestion(value, formNames)}`,
        });
      }
      if (typeof key === 'string' && TEXT_KEYS.has(key)) checkText(file, segments, value);
      if (parentKey === 'codes' && typeof value === 'string') checkText(file, segments, value);
    });
    // A GraphQL action's input names must fit its operation's variables.
    const checkInputs = (value: Json, segments: (string | number)[]) => {
      if (Array.isArray(value)) value.forEach((item, index) => checkInputs(item, [...segments, index]));
      else if (typeof value === 'object' && value !== null) {
        const entry = value as Record<string, unknown>;
        const action = entry.action;
        const variables =
          typeof action === 'string' && action.startsWith(GQL_ACTION_PREFIX)
            ? operations.get(action.slice(GQL_ACTION_PREFIX.length))
            : undefined;
        if (variables && typeof entry.input === 'object' && entry.input !== null) {
          for (const name of Object.keys(entry.input)) {
            const problem = inputProblem(name, variables);
            if (problem) {
              problems.push({
                file: display(file),
                pointer: pointerOf([...segments, 'input', name]),
                message: `Input "${name}" does not fit ${String(action)}: ${problem}`,
              });
            }
          }
        }
        // A registered action's input (an action step, or a redirect's action) must name what it declares.
        const registered =
          typeof action === 'string' && isActionName(action)
            ? action
            : typeof entry.redirect === 'string' && Object.hasOwn(REDIRECT_ACTIONS, entry.redirect)
              ? REDIRECT_ACTIONS[entry.redirect as keyof typeof REDIRECT_ACTIONS]
              : undefined;
        if (registered) {
          const declared = ACTION_INPUTS[registered];
          const takes = [...declared.required, ...declared.optional];
          const given =
            typeof entry.input === 'object' && entry.input !== null && !Array.isArray(entry.input) ? Object.keys(entry.input) : [];
          for (const name of given.filter((name) => !takes.includes(name))) {
            problems.push({
              file: display(file),
              pointer: pointerOf([...segments, 'input', name]),
              message: `Input "${name}" is not an input of ${registered} (it takes ${takes.length ? takes.join(', ') : 'none'}).${suggestion(name, takes)}`,
            });
          }
          const missing = declared.required.filter((name) => !given.includes(name));
          if (missing.length > 0) {
            problems.push({
              file: display(file),
              pointer: pointerOf(segments),
              message: `${registered} needs the input ${missing.map((name) => `"${name}"`).join(', ')}.`,
            });
          }
        }
        for (const [key, child] of Object.entries(entry)) if (key !== 'input') checkInputs(child, [...segments, key]);
      }
    };
    checkInputs(flow, []);
    // JSON Logic reads: a known context root; a form field some form of this flow (or a step's
    // defaults) defines, where no registered component may write form values of its own; a step's
    // answer by a step of this flow.
    const flowFields = new Set<string>();
    const componentsWrite = Object.values(steps).some(
      (step) => typeof step === 'object' && step !== null && typeof step.component === 'string',
    );
    for (const step of Object.values(steps)) {
      if (typeof step !== 'object' || step === null) continue;
      if (typeof step.form === 'string' && formNames.has(step.form))
        for (const field of formFields(path.join(formsDir, `${step.form}.json`))) flowFields.add(field);
      for (const field of Object.keys((step.defaults ?? {}) as Record<string, unknown>)) flowFields.add(field);
    }
    for (const { path: read, segments } of varReferences(flow, [])) {
      const [root, second] = read.split('.');
      const problem = (message: string) => problems.push({ file: display(file), pointer: pointerOf(segments), message });
      if (!CONTEXT_ROOTS.includes(root!)) {
        problem(
          `"${read}" reads "${root}", which flows do not have (known: ${CONTEXT_ROOTS.join(', ')}).${suggestion(root!, CONTEXT_ROOTS)}`,
        );
      } else if (root === 'form' && second !== undefined && !componentsWrite && !flowFields.has(second)) {
        problem(`"${read}" reads the form field "${second}", which no form of this flow defines.${suggestion(second, flowFields)}`);
      } else if (root === 'results' && second !== undefined && !(second in steps)) {
        problem(
          `"${read}" reads the answer of step "${second}", which does not exist in this flow.${suggestion(second, Object.keys(steps))}`,
        );
      }
    }
    for (const [stepName, step] of Object.entries(steps)) {
      if (typeof step !== 'object' || step === null || step.collect === undefined) continue;
      const at = ['steps', stepName, 'collect'];
      if (typeof step.form !== 'string') {
        problems.push({ file: display(file), pointer: pointerOf(at), message: `Step "${stepName}" collects values but shows no form.` });
        continue;
      }
      if (!formNames.has(step.form)) continue;
      const fields = formFields(path.join(formsDir, `${step.form}.json`));
      for (const field of Object.keys(step.collect as Record<string, unknown>)) {
        if (!fields.has(field)) {
          problems.push({
            file: display(file),
            pointer: pointerOf([...at, field]),
            message: `Field "${field}" is not a field of form schema/forms/${step.form}.json, so the server could not check it.`,
          });
        }
      }
    }
  }

  const formFiles = jsonFiles(formsDir);
  for (const file of formFiles) {
    const form = readJson(file, problems) as Record<string, unknown> | undefined;
    if (form === undefined) continue;
    if (!validateForm(form)) {
      problems.push(...schemaProblems(file, validateForm.errors ?? []));
      continue;
    }
    try {
      new Ajv({ strict: false }).compile(form.schema as object);
    } catch (error) {
      problems.push({ file: display(file), pointer: '/schema', message: sentence(`not a valid JSON Schema: ${(error as Error).message}`) });
    }
    const properties = (form.schema as { properties: Record<string, Record<string, unknown>> }).properties;
    for (const [name, property] of Object.entries(properties)) {
      for (const textKey of ['title', 'description']) {
        if (property[textKey] !== undefined) checkText(file, ['schema', 'properties', name, textKey], property[textKey]);
      }
      // The titles of a choice's options are shown texts too.
      for (const list of ['oneOf', 'anyOf'] as const) {
        const options = property[list];
        if (!Array.isArray(options)) continue;
        options.forEach((option: unknown, index) => {
          const { title, const: value } = (option ?? {}) as { title?: unknown; const?: unknown };
          // A language is named in itself, the same in every language (common/locales.ts), not by a key.
          const ownName = typeof value === 'string' && isSupportedLocale(value) && LOCALES[value].endonym === title;
          if (title !== undefined && !ownName) checkText(file, ['schema', 'properties', name, list, index, 'title'], title);
        });
      }
    }
    for (const [name, options] of Object.entries((form.uiSchema ?? {}) as Record<string, unknown>)) {
      if (name.startsWith('ui:') || typeof options !== 'object' || options === null) continue;
      for (const textKey of ['ui:placeholder', 'ui:help', 'ui:title', 'ui:description']) {
        const value = (options as Record<string, unknown>)[textKey];
        if (value !== undefined) checkText(file, ['uiSchema', name, textKey], value);
      }
      const widget = (options as Record<string, unknown>)['ui:widget'];
      const widgets = [...FORM_WIDGET_NAMES, ...RJSF_WIDGETS];
      if (widget !== undefined && !(widgets as unknown[]).includes(widget)) {
        problems.push({
          file: display(file),
          pointer: pointerOf(['uiSchema', name, 'ui:widget']),
          message: `Widget "${String(widget)}" is not registered (known: ${widgets.join(', ')}).${suggestion(String(widget), widgets)}`,
        });
      }
      const customField = (options as Record<string, unknown>)['ui:field'];
      if (customField !== undefined && !(FORM_FIELD_NAMES as readonly unknown[]).includes(customField)) {
        problems.push({
          file: display(file),
          pointer: pointerOf(['uiSchema', name, 'ui:field']),
          message: `Form field "${String(customField)}" is not registered (known: ${FORM_FIELD_NAMES.join(', ')}).${suggestion(String(customField), FORM_FIELD_NAMES)}`,
        });
      }
    }
  }

  return { problems, flowCount: flowFiles.length, formCount: formFiles.length };
}

function parseArguments(argv: string[]): CheckOptions {
  const options: CheckOptions = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--forms') options.formsDir = argv[++index];
    else if (argument === '--translations') options.translationsFile = argv[++index];
    else options.flowsDir = argument;
  }
  return options;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { problems, flowCount, formCount } = checkFlows(parseArguments(process.argv.slice(2)));
  for (const problem of problems) console.error(formatProblem(problem));
  if (problems.length) {
    console.error(`flows:check: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
    process.exit(1);
  }
  console.log(`flows:check: ${flowCount} flows and ${formCount} forms, no problems`);
}
