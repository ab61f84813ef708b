// The users table at 100,000 members (bench/users-table.ts).
import { usersTableFigures } from './users-table.ts';
import type { BenchEntry } from './types.ts';

const entry: BenchEntry = { title: 'users table, 100,000 members', run: () => usersTableFigures(100_000) };

export default entry;
