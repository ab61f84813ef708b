// The password policy of docs/SPEC.md section 5, in one place: the runtime shows its answers as a
// warning list while the user types, and the server refuses any password it does not accept.

export interface PasswordPolicy {
  /** On by default; an app may switch the checks off. */
  enabled: boolean;
  /** When set, replaces the five checks: the password must match it. */
  complexityRegex?: string | null;
}

export const MIN_PASSWORD_LENGTH = 10;

export const defaultPasswordPolicy: PasswordPolicy = { enabled: true };

/** Translation keys, in the order the warning list shows them. */
export type PasswordProblem =
  | 'password.policy.empty'
  | 'password.policy.minLength'
  | 'password.policy.uppercase'
  | 'password.policy.lowercase'
  | 'password.policy.digit'
  | 'password.policy.special'
  | 'password.policy.complexity';

const checks: [PasswordProblem, (password: string) => boolean][] = [
  ['password.policy.minLength', (p) => [...p].length >= MIN_PASSWORD_LENGTH],
  ['password.policy.uppercase', (p) => /\p{Lu}/u.test(p)],
  ['password.policy.lowercase', (p) => /\p{Ll}/u.test(p)],
  ['password.policy.digit', (p) => /\p{Nd}/u.test(p)],
  ['password.policy.special', (p) => /[\p{P}\p{S}]/u.test(p)],
];

/** How a complexity pattern is matched: common/owner-pattern.ts's matchesOwnerPattern (RE2). */
export type PatternMatcher = (pattern: string, value: string) => boolean;

/**
 * What is wrong with `password`; an empty list means the policy accepts it. The matcher is passed in
 * because RE2 is a large download the runtime fetches only for apps with a pattern (src/flow/logic.ts).
 */
export function passwordProblems(password: string, policy: PasswordPolicy, matchesPattern: PatternMatcher): PasswordProblem[] {
  if (!policy.enabled) return [];
  if (password.length === 0) return ['password.policy.empty'];
  if (policy.complexityRegex) return matchesPattern(policy.complexityRegex, password) ? [] : ['password.policy.complexity'];
  return checks.filter(([, passes]) => !passes(password)).map(([problem]) => problem);
}

/** docs/SPEC.md's exact English texts, for answers the server writes (the runtime translates the keys). */
export const passwordProblemTexts: Record<PasswordProblem, string> = {
  'password.policy.empty': 'Password field can not be empty.',
  'password.policy.minLength': 'Minimal length: 10 characters',
  'password.policy.uppercase': 'Should contain uppercase letter',
  'password.policy.lowercase': 'Should contain lowercase letter',
  'password.policy.digit': 'Should contain digit',
  'password.policy.special': 'Should contain special character',
  'password.policy.complexity': 'The password must be hard to guess!',
};
