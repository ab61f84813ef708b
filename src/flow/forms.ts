// Loads a form of schema/forms/ with its build-time compiled validator (see build/formsPlugin.ts).
import type { RJSFSchema, RJSFValidationError, UiSchema, ValidatorType } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { formLoaders } from 'virtual:foyer-forms';

export interface LoadedForm {
  name: string;
  schema: RJSFSchema;
  uiSchema: UiSchema;
  validator: ValidatorType;
}

const cache = new Map<string, Promise<LoadedForm>>();

/** One promise per form, so React's use() can suspend on it. */
export function loadForm(name: string): Promise<LoadedForm> {
  let pending = cache.get(name);
  if (!pending) {
    const loader = formLoaders[name];
    if (!loader) return Promise.reject(new Error(`Unknown form ${name}`));
    pending = loader().then(({ default: form }) => {
      const schema = form.schema as RJSFSchema;
      return {
        name,
        schema,
        uiSchema: form.uiSchema as UiSchema,
        validator: createPrecompiledValidator(form.validateFns, schema),
      };
    });
    // React's use() reads a settled promise synchronously when it carries status/value; marking it
    // avoids a fallback flash for forms loaded before they render.
    const tracked = pending as Promise<LoadedForm> & { status?: string; value?: LoadedForm };
    pending.then(
      (form) => {
        tracked.status = 'fulfilled';
        tracked.value = form;
      },
      () => undefined,
    );
    cache.set(name, pending);
  }
  return pending;
}

/** Validation messages are translation keys by ajv keyword (form.errors.<keyword>). */
export function validationMessageKey(error: RJSFValidationError): string {
  const known = ['required', 'minLength', 'maxLength', 'format', 'pattern', 'const'];
  return `form.errors.${known.includes(error.name ?? '') ? error.name : 'invalid'}`;
}
