// An app's custom signup fields (app settings customSignupFields): the form's configuration, the
// check of submitted values by type and regex, and the stored values as a user's custom params.
import type { CustomSignupField, CustomSignupFieldTarget } from '../../../common/app-config.ts';
import type { AppSettings } from '../../db/app-settings.ts';
import type { CustomParam, CustomParamInput, CustomParamsConfigGraphql } from '../generated/resolvers.ts';
import { isEmail, type InputProblems } from '../input.ts';
import { matchesOwnerPattern } from '../../../common/owner-pattern.ts';
import { toE164 } from '../../notify/phone.ts';
import { maxLengthIssue, plainIssue, type FieldIssue } from '../../http/field-issues.ts';

export const MAX_CUSTOM_VALUE_LENGTH = 1000;

const fieldsOf = (settings: AppSettings): CustomSignupField[] => settings.customSignupFields ?? [];

export function customParamsConfig(settings: AppSettings): CustomParamsConfigGraphql {
  return {
    params: fieldsOf(settings).map((field) => ({
      label: field.label,
      type: field.type,
      userLabel: field.userLabel,
      regex: field.regex ?? '',
      required: field.required ?? false,
      options: field.options ?? [],
    })),
  };
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER = /^[-+]?\d+$/;

/** The problem with `value` for `field`, or null; `value` is trimmed and not empty. */
function problemOf(field: CustomSignupField, value: string): FieldIssue | null {
  if ([...value].length > MAX_CUSTOM_VALUE_LENGTH) return maxLengthIssue(MAX_CUSTOM_VALUE_LENGTH);
  switch (field.type) {
    case 'email':
      if (!isEmail(value)) return plainIssue('enterEmail');
      break;
    case 'phone':
      if (toE164(value) === undefined) {
        return plainIssue('enterPhone');
      }
      break;
    case 'number':
      if (!NUMBER.test(value)) return plainIssue('enterNumber');
      break;
    case 'integer':
      if (!INTEGER.test(value)) return plainIssue('enterWholeNumber');
      break;
    case 'boolean':
      if (value !== 'true' && value !== 'false') return plainIssue('answerTrueOrFalse');
      break;
    case 'select':
      if (!(field.options ?? []).some((option) => option.value === value)) return plainIssue('chooseOption');
      break;
    case 'text':
    case 'regex':
      break;
  }
  if (field.regex && !matchesOwnerPattern(field.regex, value)) return plainIssue('wrongFormat');
  return null;
}

/** Checked values by where they are stored (a field's `target`, the membership by default), by label. */
export type CustomValues = Record<CustomSignupFieldTarget, Record<string, string>>;

/**
 * Checks submitted values against the app's fields and answers the values to store, by target and
 * label. Problems go under the field's label; values for fields the form does not have are refused.
 */
export function checkCustomParams(settings: AppSettings, submitted: readonly CustomParamInput[], problems: InputProblems): CustomValues {
  const fields = new Map(fieldsOf(settings).map((field) => [field.label, field]));
  const given = new Map<string, string>();
  for (const { label, value } of submitted) {
    if (!fields.has(label)) {
      // The label is not echoed: it is whatever the caller sent.
      problems.add('customParams', plainIssue('unknownSignupField'));
    } else if (given.has(label)) {
      problems.add(label, plainIssue('givenTwice'));
    } else {
      given.set(label, value.trim());
    }
  }
  const values: CustomValues = { membership: {}, user: {}, tenant: {} };
  for (const field of fields.values()) {
    const value = given.get(field.label) ?? '';
    // A required checkbox must be ticked; any other required field must have a value.
    const missing = value === '' || (field.type === 'boolean' && value !== 'true');
    if (field.required && missing) {
      problems.add(field.label, plainIssue('required'));
      continue;
    }
    if (value === '') continue;
    const problem = problemOf(field, value);
    if (problem) problems.add(field.label, problem);
    else values[field.target ?? 'membership'][field.label] = value;
  }
  return values;
}

/** A membership's stored values with their field's configuration; values of fields since removed are left out. */
export function customParamsOf(settings: AppSettings, stored: Record<string, string>): CustomParam[] {
  return fieldsOf(settings)
    .filter((field) => (field.target ?? 'membership') === 'membership' && Object.hasOwn(stored, field.label))
    .map((field) => ({
      label: field.label,
      type: field.type,
      userLabel: field.userLabel,
      regex: field.regex ?? '',
      value: stored[field.label]!,
    }));
}
