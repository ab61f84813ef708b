// Every flow in flows/, bundled as data. Their routes become router entries.
import type { Flow } from './types.ts';

const modules = import.meta.glob<Flow>('/flows/*.json', { eager: true, import: 'default' });

export const flows: Flow[] = Object.values(modules).sort((a, b) => a.id.localeCompare(b.id));
