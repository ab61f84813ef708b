// Token refresh on the embedded database (bench/token-refresh.ts).
import { tokenRefreshFigures } from './token-refresh.ts';
import type { BenchEntry } from './types.ts';

const entry: BenchEntry = { title: 'token refresh', run: () => tokenRefreshFigures('embedded database') };

export default entry;
