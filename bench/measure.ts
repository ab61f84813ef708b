// Timing helpers: a few untimed warm-up runs, then the median of N timed runs (the median ignores
// the odd garbage collection or scheduler hiccup that a mean would absorb) and their 95th percentile
// (what the slowest one in twenty waits: a goal stated as p95 needs enough runs to mean something). A figure and its floor
// are timed in alternation, so a busy machine slows both alike and the ratio stays meaningful.
import { readdir, readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

export interface TimingOptions {
  runs?: number;
  warmup?: number;
}

/** The q-quantile (0..1) of `samples`, interpolated between the two nearest. */
export function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = sorted[Math.floor(at)]!;
  return below + (sorted[Math.ceil(at)]! - below) * (at - Math.floor(at));
}

export const median = (samples: readonly number[]) => quantile(samples, 0.5);

/** Interquartile range over the median: how much the runs of one figure disagree. */
export const spreadOf = (samples: readonly number[]) => (quantile(samples, 0.75) - quantile(samples, 0.25)) / median(samples);

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export const p95Of = (samples: readonly number[]) => quantile(samples, 0.95);

/**
 * Untimed calls before a server's request figure: a running server has answered many requests before,
 * and the first few hundred also pay V8 compiling and optimising the code they run, on helper threads
 * that the process's CPU time counts (at 30 calls, 2 ms of a password sign-in's 7; bench/password-login.bench.ts).
 */
export const SERVER_WARM_UP = 300;

type Comparison = { value: number; floor: number; spread: number; p95: number; floorP95: number };

type Side = 'work' | 'floor';

/** Warm-up runs, then `runs` samples of `work` and of `floor` taken in turns by `sample`: their medians and 95th percentiles, and `work`'s spread. */
async function compareSamples(
  work: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  sample: (call: () => Promise<unknown>, side: Side) => Promise<number>,
  { runs, warmup }: Required<TimingOptions>,
): Promise<Comparison> {
  for (let i = 0; i < warmup; i += 1) {
    await work();
    await floor();
  }
  const workSamples: number[] = [];
  const floorSamples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    workSamples.push(await sample(work, 'work'));
    floorSamples.push(await sample(floor, 'floor'));
  }
  return {
    value: median(workSamples),
    floor: median(floorSamples),
    spread: spreadOf(workSamples),
    p95: p95Of(workSamples),
    floorP95: p95Of(floorSamples),
  };
}

/** Median (and 95th percentile) milliseconds of `work` and of `floor`, run one at a time, taking turns, and the spread of `work`'s runs. */
export function compareMs(
  work: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  { runs = 30, warmup = 5 }: TimingOptions = {},
): Promise<Comparison> {
  return compareSamples(work, floor, timed, { runs, warmup });
}

/** CPU milliseconds (user + system, every thread of this process) that `work` takes, over `batch` calls in a row. */
async function cpuMs(work: () => Promise<unknown>, batch: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < batch; i += 1) await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / batch;
}

/**
 * Like compareMs, but CPU time per call instead of elapsed time: what the work costs the machine,
 * which other processes on a busy machine change far less than they change elapsed time. Each
 * sample is a batch of calls, since one call takes about a millisecond.
 */
export function compareCpuMs(
  work: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  { runs = 15, warmup = 3, batch = 5 }: TimingOptions & { batch?: number } = {},
): Promise<Comparison> {
  return compareSamples(work, floor, (call) => cpuMs(call, batch), { runs, warmup });
}

/** CPU milliseconds that process `pid` has used so far, every thread (Linux: each thread's schedstat, in nanoseconds). */
export async function processCpuMs(pid: number): Promise<number> {
  const threads = await readdir(`/proc/${pid}/task`);
  // A thread that ended since the listing has no file left to read.
  const nanoseconds = await Promise.all(
    threads.map(async (thread) => Number((await readFile(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').catch(() => '0')).split(' ')[0])),
  );
  return nanoseconds.reduce((sum, value) => sum + value, 0) / 1e6;
}

/** A call answered by another process, whose CPU time it costs. */
export interface ProcessCall {
  pid: number;
  call: () => Promise<unknown>;
}

/**
 * Like compareCpuMs for work that other processes do (servers of their own, bench/processes.ts): the
 * CPU time per call of the process that answers it, over batches of `batch` calls.
 */
export function compareProcessCpuMs(
  work: ProcessCall,
  floor: ProcessCall,
  { runs = 9, warmup = SERVER_WARM_UP, batch = 500 }: TimingOptions & { batch?: number } = {},
): Promise<Comparison> {
  const pids = { work: work.pid, floor: floor.pid };
  return compareSamples(
    work.call,
    floor.call,
    async (call, side) => {
      const before = await processCpuMs(pids[side]);
      for (let i = 0; i < batch; i += 1) await call();
      return ((await processCpuMs(pids[side])) - before) / batch;
    },
    { runs, warmup },
  );
}

/**
 * Calls per second of `work` and of `floor` with `inFlight` calls running at once, `total` calls
 * each, `rounds` times taking turns; the medians, and the spread of `work`'s rates. Each call is
 * told its slot (0 to inFlight - 1), so that concurrent calls can act for different people.
 */
export async function compareRate(
  work: (slot: number) => Promise<unknown>,
  floor: (slot: number) => Promise<unknown>,
  { inFlight, total, rounds = 3 }: { inFlight: number; total: number; rounds?: number },
): Promise<{ value: number; floor: number; spread: number }> {
  const rate = async (call: (slot: number) => Promise<unknown>) => {
    let started = 0;
    const worker = async (slot: number) => {
      while (started < total) {
        started += 1;
        await call(slot);
      }
    };
    const elapsed = await timed(() => Promise.all(Array.from({ length: inFlight }, (_, slot) => worker(slot))));
    return total / (elapsed / 1000);
  };
  const workRates: number[] = [];
  const floorRates: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    workRates.push(await rate(work));
    floorRates.push(await rate(floor));
  }
  return { value: median(workRates), floor: median(floorRates), spread: spreadOf(workRates) };
}
