// Edits of the custom signup fields list: add, move, remove, change one field.
import type { CustomSignupField, CustomSignupFieldTarget, CustomSignupFieldType, CustomSignupOption } from '../../../common/app-config.ts';

export const SIGNUP_FIELD_TYPES: CustomSignupFieldType[] = ['text', 'email', 'phone', 'number', 'integer', 'boolean', 'regex', 'select'];

export const SIGNUP_FIELD_TARGETS: CustomSignupFieldTarget[] = ['membership', 'user', 'tenant'];

/** A new choice of a select field with a value not yet taken (option1, option2, ...). */
export function newOption(options: readonly CustomSignupOption[]): CustomSignupOption {
  const taken = new Set(options.map((option) => option.value));
  let number = options.length + 1;
  while (taken.has(`option${number}`)) number++;
  return { value: `option${number}`, label: `option${number}` };
}

/** A new field with a machine name not yet taken (field1, field2, ...). */
export function newSignupField(fields: CustomSignupField[], userLabel: string): CustomSignupField {
  const taken = new Set(fields.map((field) => field.label));
  let number = fields.length + 1;
  while (taken.has(`field${number}`)) number++;
  return { label: `field${number}`, type: 'text', userLabel };
}

export function moveField<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return list;
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item!);
  return copy;
}

/**
 * Changes one field; a type other than regex drops the regex, a type other than select its choices
 * (a select gets a first one), and the default target (the membership) is left unsaid.
 */
export function updateField(list: CustomSignupField[], index: number, change: Partial<CustomSignupField>): CustomSignupField[] {
  return list.map((field, at) => {
    if (at !== index) return field;
    const next: CustomSignupField = { ...field, ...change };
    if (next.type !== 'regex') delete next.regex;
    if (next.regex === '') delete next.regex;
    if (!next.required) delete next.required;
    if (next.type !== 'select') delete next.options;
    else if (!next.options?.length) next.options = [newOption([])];
    if (next.target === 'membership') delete next.target;
    return next;
  });
}
