// Edits of the custom signup fields list: add, move, remove, change one field.
import type { CustomSignupField, CustomSignupFieldType } from '../../../common/app-config.ts';

export const SIGNUP_FIELD_TYPES: CustomSignupFieldType[] = ['text', 'email', 'phone', 'number', 'integer', 'boolean', 'regex'];

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

/** Changes one field; a type other than regex drops the regex. */
export function updateField(list: CustomSignupField[], index: number, change: Partial<CustomSignupField>): CustomSignupField[] {
  return list.map((field, at) => {
    if (at !== index) return field;
    const next: CustomSignupField = { ...field, ...change };
    if (next.type !== 'regex') delete next.regex;
    if (next.regex === '') delete next.regex;
    if (!next.required) delete next.required;
    return next;
  });
}
