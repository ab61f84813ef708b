// The forms Foyer draws without RJSF (src/theme/PlainForm.tsx): a flat object of text fields, which is
// what every sign-in step asks for. RJSF's renderer and its helpers are a third of the login page's
// JavaScript, so it loads only for forms that need more (custom fields, choices, checkboxes); a form
// file stays a JSON Schema form either way, validated by the same build-time compiled ajv functions.

/** One text field of a plain form, as the theme draws it. */
export interface PlainField {
  name: string;
  /** A translation key (the schema's title). */
  title: string;
  /** The input's type: ui:inputType, else ui:widget (email, password), else text. */
  inputType: string;
  autoComplete?: string;
  /** Translation keys. */
  placeholder?: string;
  help?: string;
  readOnly: boolean;
  required: boolean;
}

/** What ajv reports per failed check (the fields a plain form reads). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const FIELD_KEYWORDS = new Set(['type', 'title', 'minLength', 'maxLength', 'format', 'pattern', 'readOnly']);
const FIELD_UI_KEYWORDS = new Set(['ui:widget', 'ui:inputType', 'ui:autocomplete', 'ui:placeholder', 'ui:help']);
const TEXT_WIDGETS: Record<string, string> = { text: 'text', email: 'email', password: 'password' };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalText = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/**
 * The fields of `schema` in their order when it is a plain form, or undefined when RJSF must draw it
 * (any keyword, type, widget or ui option the plain renderer does not know).
 */
export function plainFieldsOf(schema: unknown, uiSchema: unknown): PlainField[] | undefined {
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties)) return undefined;
  if (Object.keys(schema).some((key) => !['type', 'required', 'properties'].includes(key))) return undefined;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const ui = isRecord(uiSchema) ? uiSchema : {};
  const names = Object.keys(schema.properties);
  const order = ui['ui:order'] ?? names;
  if (!Array.isArray(order) || order.length !== names.length || names.some((name) => !order.includes(name))) return undefined;
  if (Object.keys(ui).some((key) => key !== 'ui:order' && !names.includes(key))) return undefined;
  const fields: PlainField[] = [];
  for (const name of order as string[]) {
    const property = schema.properties[name];
    const fieldUi = ui[name] ?? {};
    if (!isRecord(property) || property.type !== 'string' || typeof property.title !== 'string') return undefined;
    if (Object.keys(property).some((key) => !FIELD_KEYWORDS.has(key))) return undefined;
    if (!isRecord(fieldUi) || Object.keys(fieldUi).some((key) => !FIELD_UI_KEYWORDS.has(key))) return undefined;
    const widget = fieldUi['ui:widget'] ?? 'text';
    if (typeof widget !== 'string' || !TEXT_WIDGETS[widget]) return undefined;
    fields.push({
      name,
      title: property.title,
      inputType: optionalText(fieldUi['ui:inputType']) ?? TEXT_WIDGETS[widget],
      autoComplete: optionalText(fieldUi['ui:autocomplete']),
      placeholder: optionalText(fieldUi['ui:placeholder']),
      help: optionalText(fieldUi['ui:help']),
      readOnly: property.readOnly === true,
      required: required.includes(name),
    });
  }
  return fields;
}

/** The failed checks of each field ("email" → ["required"]), in ajv's order, each keyword once. */
export function failedChecksByField(errors: readonly SchemaError[]): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  for (const error of errors) {
    const missing = error.keyword === 'required' ? error.params.missingProperty : undefined;
    const field = typeof missing === 'string' ? missing : error.instancePath.split('/')[1];
    if (!field) continue;
    const checks = (byField[field] ??= []);
    if (!checks.includes(error.keyword)) checks.push(error.keyword);
  }
  return byField;
}
