// The console signs in on the hosted UI origin, where the runtime keeps its own session under NB_ keys.
// The auth client only knows NB_ keys, so the console hands it storages that file every key under
// FOYER_CONSOLE_ instead: the two sessions never see, clobber or clear each other's tokens.
import { STORAGE_PREFIX } from '../src/config.ts';
import { browserRuntime, type BrowserRuntime } from '../src/auth/index.ts';

export const CONSOLE_STORAGE_PREFIX = 'FOYER_CONSOLE_';

/** The key the console stores for the auth client's key (NB_X → FOYER_CONSOLE_X). */
export function consoleKey(key: string): string {
  const bare = key.startsWith(STORAGE_PREFIX) ? key.slice(STORAGE_PREFIX.length) : key;
  return `${CONSOLE_STORAGE_PREFIX}${bare}`;
}

/** The auth client's key for a stored console key; undefined for keys that are not the console's. */
export function clientKey(storedKey: string): string | undefined {
  if (!storedKey.startsWith(CONSOLE_STORAGE_PREFIX)) return undefined;
  return `${STORAGE_PREFIX}${storedKey.slice(CONSOLE_STORAGE_PREFIX.length)}`;
}

/** A Storage showing only the console's keys of `inner`, under the names the auth client uses. */
export function prefixedStorage(inner: () => Storage): Storage {
  const ownKeys = (): string[] => {
    const storage = inner();
    const keys: string[] = [];
    for (let index = 0; index < storage.length; index++) {
      const key = storage.key(index);
      const mapped = key === null ? undefined : clientKey(key);
      if (mapped !== undefined) keys.push(mapped);
    }
    return keys;
  };
  return {
    get length() {
      return ownKeys().length;
    },
    key: (index) => ownKeys()[index] ?? null,
    getItem: (key) => inner().getItem(consoleKey(key)),
    setItem: (key, value) => inner().setItem(consoleKey(key), value),
    removeItem: (key) => inner().removeItem(consoleKey(key)),
    clear: () => {
      for (const key of ownKeys()) inner().removeItem(consoleKey(key));
    },
  };
}

/** The browser runtime with console-prefixed storages; storage events of other keys are not the console's. */
export function consoleRuntime(base: BrowserRuntime = browserRuntime()): BrowserRuntime {
  return {
    localStorage: prefixedStorage(() => base.localStorage),
    sessionStorage: prefixedStorage(() => base.sessionStorage),
    fetch: base.fetch,
    redirect: base.redirect,
    setTimeout: base.setTimeout,
    clearTimeout: base.clearTimeout,
    now: base.now,
    randomBytes: base.randomBytes,
    sha256: base.sha256,
    exclusive: base.exclusive,
    onStorageChange: (listener) =>
      base.onStorageChange((key) => {
        if (key === null) {
          listener(null);
          return;
        }
        const mapped = clientKey(key);
        if (mapped !== undefined) listener(mapped);
      }),
  };
}
