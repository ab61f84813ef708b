// One benchmark entry per file (bench/*.bench.ts, default export): it measures its figures and,
// in the same run, the floor each is compared to (what the work could not be faster than).

export interface Figure {
  /** What was measured, e.g. "listUsers: search + sort + page (GraphQL)". */
  name: string;
  /** The median of the timed runs. */
  value: number;
  /** The 95th percentile of the timed runs, where the entry takes enough of them for one to mean something. */
  p95?: number;
  /** A rate (`/s`) is better higher: its ratio to the floor is a share of the floor's rate. */
  unit: 'ms' | 'KiB' | 'MiB' | '/s';
  /** The floor measured beside it, e.g. the same query on an ideal index. */
  floor: { name: string; value: number; p95?: number };
  /** How much the timed runs of the figure vary: their interquartile range over their median (0.1 = 10 %). */
  spread?: number;
}

export interface BenchEntry {
  title: string;
  run(): Promise<Figure[]>;
}
