// @vitest-environment jsdom
// What a server-drawn RJSF form held before React took it over (src/app/screens/flow-screen/RjsfStepForm.tsx
// typedBefore), read from the markup Foyer's RJSF theme draws: typed text, a ticked box and a schema
// enum's select, whose options carry indexes into the enum.
import { cleanup, render } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { afterEach, describe, expect, it } from 'vitest';
import { typedBefore } from '../../../src/app/screens/flow-screen/RjsfStepForm.tsx';
import { createI18n } from '../../../src/i18n/i18next.ts';
import { i18nextTexts } from '../../../src/i18n/i18next-texts.ts';
import { TextsProvider } from '../../../src/i18n/texts.ts';
import en from '../../../src/i18n/locales/en.json';
import { FoyerForm } from '../../../src/theme/rjsf/index.ts';

afterEach(cleanup);

const SCHEMA: RJSFSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    companySize: { type: 'string', title: 'Company size', enum: ['1-10', '11-50', '51-200'] },
    team: { type: 'string', title: 'Team', enum: ['sales', 'engineering'] },
    consent: { type: 'boolean', title: 'Consent' },
  },
};

/** The form as the theme draws it from `values`, and its element. */
function drawn(values: Record<string, unknown>): HTMLFormElement {
  const { container } = render(
    <TextsProvider store={i18nextTexts(createI18n('en', { en }))}>
      <FoyerForm schema={SCHEMA} validator={validator} formData={values} />
    </TextsProvider>,
  );
  return container.querySelector('form')!;
}

function control<T extends Element>(form: HTMLFormElement, id: string): T {
  return form.querySelector<T>(`#${id}`)!;
}

describe('typedBefore', () => {
  it('reads typed text, a ticked box and a chosen enum option as the values they stand for', () => {
    const form = drawn({});
    control<HTMLInputElement>(form, 'root_name').value = 'Ada';
    control<HTMLSelectElement>(form, 'root_companySize').value = '1';
    control<HTMLInputElement>(form, 'root_consent').checked = true;
    expect(typedBefore(form, SCHEMA, {}, {})).toEqual({ name: 'Ada', companySize: '11-50', consent: true });
  });

  it('reads nothing from controls that show what the values say', () => {
    const values = { name: 'Ada', companySize: '51-200', team: 'sales' };
    expect(typedBefore(drawn(values), SCHEMA, {}, values)).toBeUndefined();
  });

  it('reads an emptied select and an emptied field as no value', () => {
    const values = { name: 'Ada', companySize: '51-200' };
    const form = drawn(values);
    control<HTMLInputElement>(form, 'root_name').value = '';
    control<HTMLSelectElement>(form, 'root_companySize').value = '';
    expect(typedBefore(form, SCHEMA, {}, values)).toEqual({ name: undefined, companySize: undefined });
  });
});
