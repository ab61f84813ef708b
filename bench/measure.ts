// Timing helpers: a few untimed warm-up runs, then the median of N timed runs (the median ignores
// the odd garbage collection or scheduler hiccup that a mean would absorb). A figure and its floor
// are timed in alternation, so a busy machine slows both alike and the ratio stays meaningful.
import { performance } from 'node:perf_hooks';

export interface TimingOptions {
  runs?: number;
  warmup?: number;
}

export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Median milliseconds of `work` and of `floor`, run one at a time, taking turns. */
export async function compareMs(
  work: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  { runs = 30, warmup = 5 }: TimingOptions = {},
): Promise<{ value: number; floor: number }> {
  for (let i = 0; i < warmup; i += 1) {
    await work();
    await floor();
  }
  const workSamples: number[] = [];
  const floorSamples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    workSamples.push(await timed(work));
    floorSamples.push(await timed(floor));
  }
  return { value: median(workSamples), floor: median(floorSamples) };
}
