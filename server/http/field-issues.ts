// What is wrong with one input field, as a stable code with the values its text names, beside the
// English text: the runtime translates code and values (src/i18n/field-issues.ts) into the user's
// language, numbers and lists included; other clients read the English. Codes the form schemas
// check are ajv's own keywords with ajv's params.
import type { ErrorObject } from 'ajv';

export type FieldIssueParams = Record<string, string | number | boolean | readonly (string | number)[]>;

export interface FieldIssue {
  code: string;
  params: FieldIssueParams;
  message: string;
}

/** Issues whose text names no value, by code: the runtime's serverMessages.* keys have the same names. */
const plainTexts = {
  priceOfferNeedsPlan: 'A price offer needs a plan',
  unknownSignupField: 'A value names a field the signup form does not have',
  uncollectedField: 'A value names a field this flow does not collect',
  answerTrueOrFalse: 'Answer true or false',
  chooseOption: 'Choose one of the options',
  customValuesFixed: 'Custom values cannot be changed here',
  enterName: 'Enter a name',
  enterNumber: 'Enter a number',
  enterEmail: 'Enter a valid e-mail address',
  enterEmails: 'Enter at least one e-mail address',
  enterWholeNumber: 'Enter a whole number',
  enterWebAddress: 'Enter an address starting with https:// or http://',
  uploadLogo: 'Upload the logo: only an uploaded image can be the logo',
  enterPhone: 'Enter the phone number in international format, starting with + and the country code',
  givenTwice: 'Given more than once',
  noSuchPrice: 'The plan has no such price',
  wrongFormat: 'The value does not have the expected format',
  wrongType: 'The value has the wrong type',
  invalidValue: 'The value is not valid',
  noFederationConnections: 'This app has no federation connections',
  noSuchPlan: 'This app has no such plan',
  required: 'This field is required',
  twoFactorUnavailable: 'Two-factor authentication is not available for this app',
} as const;

export type PlainIssueCode = keyof typeof plainTexts;

export const plainIssue = (code: PlainIssueCode): FieldIssue => ({ code, params: {}, message: plainTexts[code] });

/** An issue whose code is a translation key the runtime has (the password policy's), with SPEC.md's English. */
export const keyedIssue = (code: string, message: string): FieldIssue => ({ code, params: {}, message });

export const maxLengthIssue = (limit: number): FieldIssue => ({
  code: 'maxLength',
  params: { limit },
  message: `At most ${limit} characters`,
});

export const minLengthIssue = (limit: number): FieldIssue => ({
  code: 'minLength',
  params: { limit },
  message: `At least ${limit} characters`,
});

export const minimumIssue = (limit: number): FieldIssue => ({ code: 'minimum', params: { limit }, message: `At least ${limit}` });

export const maximumIssue = (limit: number): FieldIssue => ({ code: 'maximum', params: { limit }, message: `At most ${limit}` });

export const rangeIssue = (min: number, max: number): FieldIssue => ({
  code: 'range',
  params: { min, max },
  message: `From ${min} to ${max}`,
});

/** One of a list of machine values (locales, roles), which the text names. */
export const allowedValuesIssue = (allowedValues: readonly string[]): FieldIssue => ({
  code: 'allowedValues',
  params: { allowedValues },
  message: `Choose one of: ${allowedValues.join(', ')}`,
});

export const maxAddressesIssue = (limit: number): FieldIssue => ({
  code: 'maxAddresses',
  params: { limit },
  message: `At most ${limit} addresses at a time`,
});

export const totalLengthIssue = (limit: number): FieldIssue => ({
  code: 'totalLength',
  params: { limit },
  message: `The collected values are longer than ${limit} characters together`,
});

/** Only plain values travel: ajv's params are such, but nothing of the schema beyond them should. */
function paramsOf(error: ErrorObject): FieldIssueParams {
  const params: FieldIssueParams = {};
  for (const [name, value] of Object.entries(error.params as Record<string, unknown>)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params[name] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) params[name] = value;
  }
  return params;
}

/** ajv's problem with a value as an issue: ajv's keyword and params, and the text the form's own validation would show. */
export function ajvIssue(error: ErrorObject): FieldIssue {
  const params = paramsOf(error);
  const limit = Number(params.limit);
  const message = (() => {
    switch (error.keyword) {
      case 'enum':
      case 'const':
      case 'oneOf':
      case 'anyOf':
        return plainTexts.chooseOption;
      case 'type':
        return plainTexts.wrongType;
      case 'maxLength':
        return maxLengthIssue(limit).message;
      case 'minLength':
        return minLengthIssue(limit).message;
      case 'minimum':
        return minimumIssue(limit).message;
      case 'maximum':
        return maximumIssue(limit).message;
      case 'pattern':
      case 'format':
        return plainTexts.wrongFormat;
      default:
        return plainTexts.invalidValue;
    }
  })();
  return { code: error.keyword, params, message };
}
