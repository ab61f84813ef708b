// Edits of the custom signup fields list.
import { describe, expect, it } from 'vitest';
import type { CustomSignupField } from '../../../common/app-config.ts';
import { moveField, newOption, newSignupField, updateField } from '../../../configurator/editor/sections/signup-fields.ts';

const fields: CustomSignupField[] = [
  { label: 'company', type: 'text', userLabel: 'Company' },
  { label: 'size', type: 'integer', userLabel: 'Company size', required: true },
  { label: 'vat', type: 'regex', userLabel: 'VAT number', regex: '^[A-Z]{2}[0-9]+$' },
];

describe('signup field edits', () => {
  it('moves a field up and down, and leaves the list as it is past either end', () => {
    expect(moveField(fields, 2, 1).map((field) => field.label)).toEqual(['company', 'vat', 'size']);
    expect(moveField(fields, 0, 1).map((field) => field.label)).toEqual(['size', 'company', 'vat']);
    expect(moveField(fields, 0, -1)).toBe(fields);
    expect(moveField(fields, 2, 3)).toBe(fields);
  });

  it('drops the pattern when the type is no longer regex, and an unticked "required"', () => {
    expect(updateField(fields, 2, { type: 'text' })[2]).toEqual({ label: 'vat', type: 'text', userLabel: 'VAT number' });
    expect(updateField(fields, 1, { required: false })[1]).toEqual({ label: 'size', type: 'integer', userLabel: 'Company size' });
    expect(fields[2]!.regex).toBe('^[A-Z]{2}[0-9]+$');
  });

  it('gives a field turned into a select a first choice, drops the choices when it stops being one, and leaves the default target unsaid', () => {
    const select = updateField(fields, 0, { type: 'select' })[0]!;
    expect(select).toEqual({ label: 'company', type: 'select', userLabel: 'Company', options: [{ value: 'option1', label: 'option1' }] });
    const withChoices = updateField([select], 0, {
      options: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
      ],
      target: 'tenant',
    })[0]!;
    expect(withChoices.options).toHaveLength(2);
    expect(withChoices.target).toBe('tenant');
    expect(updateField([withChoices], 0, { type: 'text', target: 'membership' })[0]).toEqual({
      label: 'company',
      type: 'text',
      userLabel: 'Company',
    });
    expect(newOption([{ value: 'option2', label: 'x' }])).toEqual({ value: 'option3', label: 'option3' });
  });

  it('names a new field with a machine name not yet taken', () => {
    expect(newSignupField([], 'New field')).toEqual({ label: 'field1', type: 'text', userLabel: 'New field' });
    const taken: CustomSignupField[] = [{ label: 'field2', type: 'text', userLabel: 'x' }];
    expect(newSignupField(taken, 'New field').label).toBe('field3');
  });
});
