// Checks on what callers type, shared by the mutations. Each check records its message under the
// field's name and answers the cleaned value; a mutation throws all collected messages at once, so a
// form can show every problem at its input (errors.ts fieldErrors).
import { isSupportedLocale, SUPPORTED_LOCALES } from '../../common/locales.ts';
import { fieldErrors, type FieldErrors } from './errors.ts';
import { allowedValuesIssue, maxLengthIssue, plainIssue, type FieldIssue } from '../http/field-issues.ts';

export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 320;
export const MAX_URL_LENGTH = 2048;

// Deliberately loose (the mailed link is the real proof of an address), but one plain address: no
// list separators, display names or quoting, which the mail module refuses as well.
const EMAIL = /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\.]+(\.[^\s@,;<>"()[\]\\.]+)+$/;

export function isEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value);
}

/** The messages of one mutation's input, by field name. */
export class InputProblems {
  // Field names include app-configured labels: no prototype, so no label can reach one.
  readonly fields: FieldErrors = Object.create(null) as FieldErrors;

  add(field: string, issue: FieldIssue | FieldIssue[]): void {
    this.fields[field] ??= issue;
  }

  /** Throws BAD_USER_INPUT (400) with every recorded message, if any. */
  throwIfAny(): void {
    if (Object.keys(this.fields).length > 0) throw fieldErrors(this.fields);
  }
}

/** A name trimmed of surrounding space, at most MAX_NAME_LENGTH characters; at least one when `required`. */
export function checkName(problems: InputProblems, field: string, value: string, required = false): string {
  const trimmed = value.trim();
  if (required && trimmed === '') problems.add(field, plainIssue('enterName'));
  else if ([...trimmed].length > MAX_NAME_LENGTH) problems.add(field, maxLengthIssue(MAX_NAME_LENGTH));
  return trimmed;
}

/** An http(s) address, or null for none (empty counts as none). */
export function checkLogo(problems: InputProblems, field: string, value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return null;
  let url: URL | undefined;
  try {
    url = new URL(trimmed);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || trimmed.length > MAX_URL_LENGTH) {
    problems.add(field, plainIssue('enterWebAddress'));
  }
  return trimmed;
}

/**
 * A logo a member sets: none, or one of the app's uploads (`ownAssets`, server/admin/logo.ts), as an
 * app's own logo. Any other address would reach every token's tenant_logo (a tracking pixel).
 */
export function checkUploadedLogo(problems: InputProblems, field: string, value: string | null, ownAssets: string): string | null {
  const logo = checkLogo(problems, field, value);
  if (logo !== null && !logo.startsWith(ownAssets)) problems.add(field, plainIssue('uploadLogo'));
  return logo;
}

export function checkLocale(problems: InputProblems, field: string, value: string): string {
  const trimmed = value.trim();
  if (!isSupportedLocale(trimmed)) problems.add(field, allowedValuesIssue(SUPPORTED_LOCALES));
  return trimmed;
}
