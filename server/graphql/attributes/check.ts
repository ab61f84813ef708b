// Values a flow collected, checked field by field with the field's own form schema, and sorted into
// where the flow stores them. Problems go under the field's name, so the form shows each at its input.
import type { ErrorObject } from 'ajv';
import type { InputProblems } from '../input.ts';
import type { AttributeCatalog, AttributeTarget, CollectedField } from './catalog.ts';

export type SortedAttributes = Record<AttributeTarget, Record<string, unknown>>;

/** Stored attributes of one signup, serialized, at most this long: no request fills a row with megabytes. */
export const MAX_ATTRIBUTES_LENGTH = 16 * 1024;

const emptyAttributes = (): SortedAttributes => ({ user: {}, membership: {}, tenant: {} });

/** The message of one schema problem, as the form's own validation would put it. */
function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'enum':
    case 'const':
    case 'oneOf':
    case 'anyOf':
      return 'Choose one of the options';
    case 'type':
      return 'The value has the wrong type';
    case 'maxLength':
      return `At most ${String(error.params.limit)} characters`;
    case 'minLength':
      return `At least ${String(error.params.limit)} characters`;
    case 'minimum':
      return `At least ${String(error.params.limit)}`;
    case 'maximum':
      return `At most ${String(error.params.limit)}`;
    case 'pattern':
    case 'format':
      return 'The value does not have the expected format';
    default:
      return 'The value is not valid';
  }
}

/** A value nobody entered: the form leaves it out, and so does the check. */
const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/**
 * Checks `submitted` against what `flowId` collects: a name the flow does not collect is refused (and
 * not echoed: it is whatever the caller sent), a value must pass its field's schema, and a field its
 * form requires must have one. Answers the values by target.
 */
export function checkAttributes(
  catalog: AttributeCatalog,
  flowId: string,
  submitted: Record<string, unknown> | null | undefined,
  problems: InputProblems,
): SortedAttributes {
  const fields: ReadonlyMap<string, CollectedField> = catalog.get(flowId) ?? new Map();
  const sorted = emptyAttributes();
  const given = submitted ?? {};
  if (Object.keys(given).some((name) => !fields.has(name))) {
    problems.add('attributes', 'A value names a field this flow does not collect');
  }
  for (const [name, field] of fields) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    if (isBlank(value)) {
      if (field.required) problems.add(name, 'This field is required');
      continue;
    }
    if (!field.validate(value)) {
      problems.add(name, [...new Set((field.validate.errors ?? []).map(messageOf))]);
      continue;
    }
    sorted[field.target][name] = value;
  }
  if (JSON.stringify(sorted).length > MAX_ATTRIBUTES_LENGTH) {
    problems.add('attributes', `The collected values are longer than ${MAX_ATTRIBUTES_LENGTH} characters together`);
  }
  return sorted;
}
