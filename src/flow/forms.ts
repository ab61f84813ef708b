// Loads a form of schema/forms/ with its build-time compiled validator (see build/formsPlugin.ts).
// Plain forms (./plain-form.ts) are validated here; the others by RJSF, which loads with them
// (src/app/screens/flow-screen/RjsfStepForm.tsx).
import { markedForUse } from './settled-promise.ts';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { formLoaders, type PrecompiledForm } from 'virtual:foyer-forms';
import { failedChecksByField, plainFieldsOf, type PlainField } from './plain-form.ts';

export interface LoadedForm {
  name: string;
  schema: RJSFSchema;
  uiSchema: UiSchema;
  validateFns: PrecompiledForm['validateFns'];
  /** The key of the whole form's function in validateFns. */
  rootValidatorKey: string;
  /** Set when the form is plain: its fields, in order. */
  plainFields?: PlainField[];
}

const cache = new Map<string, Promise<LoadedForm>>();

/** One promise per form, so React's use() can suspend on it. */
export function loadForm(name: string): Promise<LoadedForm> {
  let pending = cache.get(name);
  if (!pending) {
    const loader = formLoaders[name];
    if (!loader) return Promise.reject(new Error(`Unknown form ${name}`));
    pending = loader().then(({ default: form }) => ({
      name,
      schema: form.schema as RJSFSchema,
      uiSchema: form.uiSchema as UiSchema,
      validateFns: form.validateFns,
      rootValidatorKey: form.rootValidatorKey,
      plainFields: plainFieldsOf(form.schema, form.uiSchema),
    }));
    cache.set(name, markedForUse(pending));
  }
  return pending;
}

/** Validation messages are translation keys by ajv keyword (form.errors.<keyword>). */
export function validationMessageKey(error: { name?: string }): string {
  const known = ['required', 'minLength', 'maxLength', 'format', 'pattern', 'const'];
  return `form.errors.${known.includes(error.name ?? '') ? error.name : 'invalid'}`;
}

/** A plain form's values checked by its compiled validator: the message keys of each failing field. */
export function plainFormIssues(form: LoadedForm, values: Record<string, unknown>): Record<string, string[]> {
  const validate = form.validateFns[form.rootValidatorKey];
  if (!validate) throw new Error(`Form ${form.name} has no compiled validator for the whole form`);
  if (validate(values)) return {};
  const byField = failedChecksByField(validate.errors ?? []);
  return Object.fromEntries(
    Object.entries(byField).map(([field, checks]) => [field, checks.map((name) => validationMessageKey({ name }))]),
  );
}
