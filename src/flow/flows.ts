// Every flow of the flows folder (flows/, or FOYER_FLOWS_DIR at build time; build/flowsPlugin.ts),
// bundled as data. Their routes become router entries; only the login route's flows come with the
// page, every other flow is fetched when one of its routes is entered.
import bundled from 'virtual:foyer-flows';
import type { Flow } from './types.ts';

export type BundledFlow = Pick<Flow, 'id' | 'routes'> & ({ flow: Flow } | { load(): Promise<Flow> });

export const flows: BundledFlow[] = [...bundled].sort((a, b) => a.id.localeCompare(b.id));
