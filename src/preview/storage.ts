// The preview's auth client keeps everything in memory: the configurator frames the runtime on the
// same origin, and the preview must neither read nor clear the NB_ session of the runtime's own tabs.
import { browserRuntime, type BrowserRuntime } from '../auth/runtime.ts';

export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

/** The browser runtime with storages of its own; no other tab's changes reach it. */
export function previewBrowserRuntime(): BrowserRuntime {
  const runtime = browserRuntime();
  const localStorage = memoryStorage();
  const sessionStorage = memoryStorage();
  return {
    ...runtime,
    localStorage,
    sessionStorage,
    onStorageChange: () => () => undefined,
  };
}
