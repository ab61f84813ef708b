// Patterns an app owner chooses (passwordPolicy.complexityRegex, customSignupFields[].regex) run on
// every sign-up and password change of the app, on the server's one event loop. They run on RE2
// (re2js), whose time grows linearly with the input: a backtracking RegExp lets a pattern such as
// (a+)+b take exponential time. RE2 has no backreferences or lookaround, so such patterns are
// refused when saved (server/admin/validation.ts).
import { RE2JS } from 're2js';

/** Longer inputs never match: passwords and custom values are shorter (MAX_PASSWORD_LENGTH, MAX_CUSTOM_VALUE_LENGTH). */
export const MAX_PATTERN_INPUT_LENGTH = 1024;

const compiled = new Map<string, RE2JS | null>();

/** The pattern compiled by RE2, or null when RE2 cannot run it. */
function compile(pattern: string): RE2JS | null {
  let found = compiled.get(pattern);
  if (found === undefined) {
    try {
      found = RE2JS.compile(pattern);
    } catch {
      found = null;
    }
    // Few patterns per app, but owners can save many versions: keep the cache bounded.
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(pattern, found);
  }
  return found;
}

/** Whether RE2 runs `pattern`: what the app settings schema's "regex" format accepts. */
export function isOwnerPattern(pattern: string): boolean {
  return compile(pattern) !== null;
}

/**
 * Whether `value` matches `pattern` as a whole. A pattern RE2 cannot run (saved before patterns
 * were checked this way) matches everything, so it cannot lock everyone out.
 */
export function matchesOwnerPattern(pattern: string, value: string): boolean {
  const regex = compile(pattern);
  if (regex === null) return true;
  if (value.length > MAX_PATTERN_INPUT_LENGTH) return false;
  return regex.matches(value);
}
