// The caps on owners' patterns (common/owner-pattern.ts), checked by what they refuse and accept
// rather than by timing: a match costs at most the program's size times the input's length, so the
// bound holds when both are capped. The time itself is bench/owner-patterns.bench.ts's figure.
import { describe, expect, it } from 'vitest';
import {
  isOwnerPattern,
  matchesOwnerPattern,
  MAX_OWNER_PATTERN_PROGRAM_SIZE,
  MAX_OWNER_PATTERN_REPEAT,
  MAX_PATTERN_INPUT_LENGTH,
  ownerPatternProblem,
} from '../../../common/owner-pattern.ts';
import { COSTLIEST_ALLOWED_PATTERNS, INPUTS } from '../../../bench/owner-patterns.bench.ts';
import { RE2JS } from 're2js';
import appConfigSchema from '../../../schema/app-config.schema.json' with { type: 'json' };

const programSize = (pattern: string) => RE2JS.compile(pattern).programSize();
const { maxLength } = appConfigSchema.properties.customSignupFields.items.properties.regex;

describe('owner patterns', () => {
  it("refuses the finding's pattern (forty \\w{0,1000}: 80,000 instructions) and any count above the cap", () => {
    expect(ownerPatternProblem('\\w{0,1000}'.repeat(40))).toBe('repeat');
    expect(ownerPatternProblem(`a{${MAX_OWNER_PATTERN_REPEAT + 1}}`)).toBe('repeat');
    expect(ownerPatternProblem(`a{2,${MAX_OWNER_PATTERN_REPEAT + 1}}`)).toBe('repeat');
    expect(ownerPatternProblem(`a{${MAX_OWNER_PATTERN_REPEAT + 1},}`)).toBe('repeat');
    expect(ownerPatternProblem(`a{${MAX_OWNER_PATTERN_REPEAT}}`)).toBeNull();
  });

  it('refuses a program above the cap however small its counts: many small runs, nested counts', () => {
    for (const pattern of ['[ab]*a[ab]{20}'.repeat(6), '(?:(?:[ab]{0,20}){0,20})', '.{0,64}.{0,64}', '(?:.*a)'.repeat(43)]) {
      expect(programSize(pattern), pattern).toBeGreaterThan(MAX_OWNER_PATTERN_PROGRAM_SIZE);
      expect(ownerPatternProblem(pattern), pattern).toBe('programSize');
    }
  });

  it('still refuses what RE2 cannot run, and accepts the usual patterns', () => {
    expect(ownerPatternProblem('(a+)\\1b')).toBe('syntax');
    expect(ownerPatternProblem('(?=.*[A-Z]).{10,}')).toBe('syntax');
    for (const pattern of ['\\d{6}-\\d{4}', '^SE[0-9]{12}$', '[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}', '.{12,64}', '.{12,}', '(a+)+b']) {
      expect(isOwnerPattern(pattern), pattern).toBe(true);
    }
  });

  it('the costliest patterns the bench times are ones the save check accepts, at or near the program cap', () => {
    for (const pattern of COSTLIEST_ALLOWED_PATTERNS) {
      expect(isOwnerPattern(pattern), pattern).toBe(true);
      expect(pattern.length, pattern).toBeLessThanOrEqual(maxLength);
      expect(programSize(pattern), pattern).toBeGreaterThan(MAX_OWNER_PATTERN_PROGRAM_SIZE * 0.9);
    }
    expect(INPUTS.every((input) => input.length === 1000)).toBe(true);
  });

  it(`reads at most ${MAX_PATTERN_INPUT_LENGTH} characters: a longer value never matches, even .*`, () => {
    expect(matchesOwnerPattern('.*', 'x'.repeat(MAX_PATTERN_INPUT_LENGTH))).toBe(true);
    expect(matchesOwnerPattern('.*', 'x'.repeat(MAX_PATTERN_INPUT_LENGTH + 1))).toBe(false);
  });

  it('matches the whole value, and a refused pattern saved before the checks matches everything without running', () => {
    expect(matchesOwnerPattern('\\d{6}-\\d{4}', '556677-8899')).toBe(true);
    expect(matchesOwnerPattern('\\d{6}-\\d{4}', 'x556677-8899')).toBe(false);
    expect(matchesOwnerPattern('\\w{0,1000}'.repeat(40), '!')).toBe(true);
  });
});
