// Patterns an app owner chooses (passwordPolicy.complexityRegex, customSignupFields[].regex) run on
// every sign-up and password change of the app, on the server's one event loop. They run on RE2
// (re2js), whose time grows linearly with the input: a backtracking RegExp lets a pattern such as
// (a+)+b take exponential time. RE2 has no backreferences or lookaround, so such patterns are
// refused when saved (server/admin/validation.ts). Linear is not cheap: a match costs up to the
// compiled program's size times the input's length, and counted repetitions grow the program (a
// pattern of forty \w{0,1000} compiles to 80,000 instructions and took 0.25-0.65 s a match). So a
// pattern is also refused when it names a large count or compiles to a large program, and runs on
// at most MAX_PATTERN_INPUT_LENGTH characters: at most 128 × 1,024 steps a match. The server's save
// check, its matching and the runtime's all read these rules from here.
import { RE2JS } from 're2js';

/** Longer inputs never match: passwords and custom values are shorter (MAX_PASSWORD_LENGTH, MAX_CUSTOM_VALUE_LENGTH). */
export const MAX_PATTERN_INPUT_LENGTH = 1024;

/** The largest count a repetition may name: {n}, {n,} and {n,m} with n and m at most this. */
export const MAX_OWNER_PATTERN_REPEAT = 64;

/** The most instructions a pattern may compile to (RE2's program size; \d{6}-\d{4} is 13). */
export const MAX_OWNER_PATTERN_PROGRAM_SIZE = 128;

/** Why a pattern cannot be an owner's: RE2 cannot run it, a count above the maximum, a program above the maximum. */
export type OwnerPatternProblem = 'syntax' | 'repeat' | 'programSize';

/** What the save check answers for each problem (the configurator shows it at the field). */
export const ownerPatternProblemTexts: Record<OwnerPatternProblem, string> = {
  syntax: 'is not a pattern RE2 runs (no backreferences or lookaround)',
  repeat: `names a count above ${MAX_OWNER_PATTERN_REPEAT} in braces; use + or * for longer runs`,
  programSize: `is too complex: at most ${MAX_OWNER_PATTERN_PROGRAM_SIZE} steps once compiled (each counted repetition adds one per count)`,
};

// A count in braces, as RE2 reads one. Braces RE2 reads as plain text ("\{2000}", "[{2000}]") count
// too: refusing such a pattern costs nothing, and the scan stays one linear expression.
const COUNTED_REPETITION = /\{(\d+)(?:,(\d*))?\}/g;

function namesLargeCount(pattern: string): boolean {
  for (const [, least, most] of pattern.matchAll(COUNTED_REPETITION)) {
    if (Number(least) > MAX_OWNER_PATTERN_REPEAT || (most && Number(most) > MAX_OWNER_PATTERN_REPEAT)) return true;
  }
  return false;
}

type Compiled = { regex: RE2JS; problem: null } | { regex: null; problem: OwnerPatternProblem };

const compiled = new Map<string, Compiled>();

/** The pattern compiled by RE2, or why it is not an owner's. Counts are checked first: they are what makes compiling costly. */
function compile(pattern: string): Compiled {
  let found = compiled.get(pattern);
  if (found === undefined) {
    found = { regex: null, problem: 'repeat' };
    if (!namesLargeCount(pattern)) {
      try {
        const regex = RE2JS.compile(pattern);
        found = regex.programSize() > MAX_OWNER_PATTERN_PROGRAM_SIZE ? { regex: null, problem: 'programSize' } : { regex, problem: null };
      } catch {
        found = { regex: null, problem: 'syntax' };
      }
    }
    // Few patterns per app, but owners can save many versions: keep the cache bounded.
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(pattern, found);
  }
  return found;
}

/** Why `pattern` cannot be saved as an owner's pattern, or null when it can. */
export function ownerPatternProblem(pattern: string): OwnerPatternProblem | null {
  return compile(pattern).problem;
}

/** Whether RE2 runs `pattern` within the caps: what the save check accepts. */
export function isOwnerPattern(pattern: string): boolean {
  return compile(pattern).problem === null;
}

/**
 * Whether `value` matches `pattern` as a whole. A pattern the save check refuses (saved before these
 * checks) matches everything, so it cannot lock everyone out, and never runs.
 */
export function matchesOwnerPattern(pattern: string, value: string): boolean {
  const { regex } = compile(pattern);
  if (regex === null) return true;
  if (value.length > MAX_PATTERN_INPUT_LENGTH) return false;
  // A Matcher runs the backtracker with its visited bitmap (programs up to 256 instructions on 1,024
  // characters) or the NFA: each at most program size × input length steps. RE2JS.matches uses the
  // lazy DFA instead, whose every new state costs the program plus one slot per character class (\pL
  // alone has hundreds) and which holds up to 8 MB per pattern: 14-17 ms for a 94-instruction pattern
  // on 1,000 characters, against 2 ms here (bench/owner-patterns.bench.ts measures the slowest).
  return regex.matcher(value).matches();
}
