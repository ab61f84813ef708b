// Owner patterns (common/owner-pattern.ts): the slowest match of the costliest patterns the save
// check lets through, on 1,000 characters, against a plain pattern on the same input. The goal is
// under 20 ms a match (issue 40, finding 4); tests/unit/common/owner-pattern.test.ts checks that each
// pattern here is one the save check accepts, near its program-size cap.
import { performance } from 'node:perf_hooks';
import { matchesOwnerPattern } from '../common/owner-pattern.ts';
import { compareMs } from './measure.ts';
import type { BenchEntry } from './types.ts';

/** Shapes that keep many matching threads alive or make many DFA states, each grown to the caps. */
export const COSTLIEST_ALLOWED_PATTERNS: readonly string[] = [
  '\\w{0,63}',
  '.{0,63}',
  '[ab]*a[ab]{20}'.repeat(5),
  '\\pL*a\\pL{20}'.repeat(5),
  '(?:.*a)'.repeat(42),
  '(?:\\pL*a)'.repeat(42),
  '(?i)' + '[a-zé]*a'.repeat(42),
  '(?:' + Array.from({ length: 46 }, (_, index) => 'a'.repeat((index % 7) + 1)).join('|') + ')*',
  '(?:(?:[ab]{0,8}){0,7})',
];

/** Deterministic mixes of letters, so every run reads the same inputs. */
function mixOf(letters: string, length: number): string {
  let state = 7;
  return Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return [...letters][state % [...letters].length]!;
  }).join('');
}

export const INPUTS: readonly string[] = [
  'a'.repeat(1000),
  'a'.repeat(999) + '!',
  mixOf('ab', 1000),
  mixOf('ab', 999) + '!',
  mixOf('abcdefghijklmnopqrstuvwxyz0123456789', 1000),
  mixOf('aé中Ωb', 1000),
];

const PLAIN_PATTERN = '\\d{6}-\\d{4}';

const entry: BenchEntry = {
  title: 'owner patterns',
  async run() {
    // The slowest pattern and input, found in a first pass; then timed against the plain pattern.
    let slowest = { pattern: COSTLIEST_ALLOWED_PATTERNS[0]!, input: INPUTS[0]!, ms: 0 };
    for (const pattern of COSTLIEST_ALLOWED_PATTERNS) {
      for (const input of INPUTS) {
        matchesOwnerPattern(pattern, input);
        const started = performance.now();
        for (let run = 0; run < 5; run += 1) matchesOwnerPattern(pattern, input);
        const ms = (performance.now() - started) / 5;
        if (ms > slowest.ms) slowest = { pattern, input, ms };
      }
    }
    const { value, p95, spread, floor, floorP95 } = await compareMs(
      async () => matchesOwnerPattern(slowest.pattern, slowest.input),
      async () => matchesOwnerPattern(PLAIN_PATTERN, slowest.input),
      { runs: 50, warmup: 10 },
    );
    return [
      {
        name: `slowest allowed pattern on 1,000 characters (${slowest.pattern.slice(0, 24)}…)`,
        value,
        p95,
        spread,
        unit: 'ms',
        floor: { name: PLAIN_PATTERN, value: floor, p95: floorP95 },
      },
    ];
  },
};

export default entry;
