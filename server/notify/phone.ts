// Phone numbers as people type them, read with libphonenumber-js: in international format (a plus and
// the country code; spaces, dots, dashes and brackets between digit groups are fine) and valid for
// that country's numbering plan, answered in E.164, the form SMS gateways take.
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** The E.164 form of a typed number, or undefined when it is not a valid international number. */
export function toE164(input: string): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), { extract: false });
  return parsed?.isValid() ? parsed.number : undefined;
}
