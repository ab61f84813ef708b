// One benchmark entry per file (bench/*.bench.ts, default export): it measures its figures and,
// in the same run, the floor each is compared to (what the work could not be faster than).

export interface Figure {
  /** What was measured, e.g. "listUsers: search + sort + page (GraphQL)". */
  name: string;
  value: number;
  unit: 'ms' | 'KiB';
  /** The floor measured beside it, e.g. the same query as bare SQL. */
  floor: { name: string; value: number };
}

export interface BenchEntry {
  title: string;
  run(): Promise<Figure[]>;
}
