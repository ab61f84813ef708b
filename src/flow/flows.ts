// Every flow of the flows folder (flows/, or FOYER_FLOWS_DIR at build time; build/flowsPlugin.ts),
// bundled as data. Their routes become router entries; only the login route's flows come with the
// page, every other flow is fetched when one of its routes is entered.
import { markedForUse } from './settled-promise.ts';
import bundled from 'virtual:foyer-flows';
import type { Flow } from './types.ts';

export type BundledFlow = Pick<Flow, 'id' | 'routes'> & ({ flow: Flow } | { load(): Promise<Flow> });

export const flows: BundledFlow[] = [...bundled].sort((a, b) => a.id.localeCompare(b.id));

/**
 * The forms of the first steps of the flows the page brings for `path`, so they can start loading with
 * the page rather than after the app config is read (src/start.tsx).
 */
export function openingForms(path: string): string[] {
  return flows.flatMap((entry) => {
    if (!('flow' in entry) || !entry.routes.includes(path)) return [];
    const form = entry.flow.steps[entry.flow.initial]?.form;
    return form ? [form] : [];
  });
}

const loading = new Map<string, Promise<Flow>>();

/**
 * A flow fetched once, as a promise React's use() reads at once when settled (status and value set),
 * so a screen whose flow is in draws without suspending (a server-drawn page hydrates it as drawn).
 */
export function loadFlow(entry: BundledFlow): Promise<Flow> {
  if ('flow' in entry) return Promise.resolve(entry.flow);
  let pending = loading.get(entry.id);
  if (!pending) {
    pending = markedForUse(entry.load());
    loading.set(entry.id, pending);
  }
  return pending;
}

/** The flow `path` is a route of, fetched when it is not in the page. */
export async function flowAt(path: string): Promise<Flow | undefined> {
  const entry = flows.find((candidate) => candidate.routes.includes(path));
  return entry && loadFlow(entry);
}
