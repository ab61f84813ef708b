// Values a flow collected, checked field by field with the field's own form schema, and sorted into
// where the flow stores them. Problems go under the field's name, so the form shows each at its input.
import { ajvIssue, plainIssue, totalLengthIssue, type FieldIssue } from '../../http/field-issues.ts';
import type { InputProblems } from '../input.ts';
import type { AttributeCatalog, AttributeTarget, CollectedField } from './catalog.ts';

export type SortedAttributes = Record<AttributeTarget, Record<string, unknown>>;

/** Stored attributes of one signup, serialized, at most this long: no request fills a row with megabytes. */
export const MAX_ATTRIBUTES_LENGTH = 16 * 1024;

const emptyAttributes = (): SortedAttributes => ({ user: {}, membership: {}, tenant: {} });

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
    problems.add('attributes', plainIssue('uncollectedField'));
  }
  for (const [name, field] of fields) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    if (isBlank(value)) {
      if (field.required) problems.add(name, plainIssue('required'));
      continue;
    }
    const issues = problemsOf(field, value);
    if (issues) {
      problems.add(name, issues);
      continue;
    }
    sorted[field.target][name] = value;
  }
  if (JSON.stringify(sorted).length > MAX_ATTRIBUTES_LENGTH) {
    problems.add('attributes', totalLengthIssue(MAX_ATTRIBUTES_LENGTH));
  }
  return sorted;
}

/** What the field's form finds wrong with `value`, if anything; anyOf branches repeat a problem, so one issue per text. */
function problemsOf(field: CollectedField, value: unknown): FieldIssue[] | undefined {
  if (field.validate(value)) return undefined;
  const issues = (field.validate.errors ?? []).map(ajvIssue);
  return issues.filter((issue, index) => issues.findIndex((other) => other.message === issue.message) === index);
}

/** What an edit changes in one place's stored values: the values to set, and the names to remove. */
export interface AttributeChanges {
  set: Record<string, unknown>;
  remove: string[];
}

/**
 * An edit of collected values where a settings flow (`flowId`: profile, workspace) shows them: each
 * given value is checked with its field's form as at collection; a blank one removes the stored value
 * (unless its form requires one); a name the flow does not collect into one of `targets` is refused.
 * Values not given keep what is stored. Answers the changes by target.
 */
export function checkAttributeEdit(
  catalog: AttributeCatalog,
  flowId: string,
  submitted: Record<string, unknown>,
  targets: readonly AttributeTarget[],
  problems: InputProblems,
): Partial<Record<AttributeTarget, AttributeChanges>> {
  const fields: ReadonlyMap<string, CollectedField> = catalog.get(flowId) ?? new Map();
  const changes: Partial<Record<AttributeTarget, AttributeChanges>> = {};
  const editable = (name: string) => {
    const field = fields.get(name);
    return field && targets.includes(field.target) ? field : undefined;
  };
  if (Object.keys(submitted).some((name) => !editable(name))) problems.add('attributes', plainIssue('uncollectedField'));
  for (const [name, value] of Object.entries(submitted)) {
    const field = editable(name);
    if (!field) continue;
    const place = (changes[field.target] ??= { set: {}, remove: [] });
    if (isBlank(value)) {
      if (field.required) problems.add(name, plainIssue('required'));
      else place.remove.push(name);
      continue;
    }
    const issues = problemsOf(field, value);
    if (issues) {
      problems.add(name, issues);
      continue;
    }
    place.set[name] = value;
  }
  return changes;
}

/** `stored` with `changes` applied. */
export function applyAttributeChanges(stored: Record<string, unknown>, changes: AttributeChanges): Record<string, unknown> {
  const next: Record<string, unknown> = { ...stored, ...changes.set };
  for (const name of changes.remove) delete next[name];
  return next;
}
