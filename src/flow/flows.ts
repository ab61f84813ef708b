// Every flow of the flows folder (flows/, or FOYER_FLOWS_DIR at build time; build/flowsPlugin.ts),
// bundled as data. Their routes become router entries.
import bundled from 'virtual:foyer-flows';
import type { Flow } from './types.ts';

export const flows: Flow[] = [...bundled].sort((a, b) => a.id.localeCompare(b.id));
