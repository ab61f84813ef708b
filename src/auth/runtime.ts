// The browser globals the auth client touches, behind one seam so unit tests can drive it with fake
// timers, a local key server and recorded navigations. Defaults resolve the globals at call time
// (not at import), so test doubles installed later (e.g. vi.useFakeTimers) still apply.

import type { FetchFn } from '../http/transport.ts';

export type TimerHandle = ReturnType<typeof setTimeout>;

export interface BrowserRuntime {
  localStorage: Storage;
  sessionStorage: Storage;
  fetch: FetchFn;
  /** Full-page move that replaces the current history entry (auth redirects must not trap "back"). */
  redirect(url: string): void;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  now(): number;
  randomBytes(length: number): Uint8Array;
  sha256(data: Uint8Array): Promise<Uint8Array>;
  /** Changes another tab made to localStorage (key null: cleared); answers an unsubscribe function. */
  onStorageChange(listener: (key: string | null) => void): () => void;
  /** Runs `work` holding the lock `name` that every tab of this origin shares (Web Locks); at once where there are none. */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** `redirect`: how full-page moves happen (the runtime passes its redirect helper, src/runtime/redirect.ts). */
export function browserRuntime(redirect: (url: string) => void = (url) => globalThis.location.replace(url)): BrowserRuntime {
  return {
    get localStorage() {
      return globalThis.localStorage;
    },
    get sessionStorage() {
      return globalThis.sessionStorage;
    },
    fetch: (input, init) => globalThis.fetch(input, init),
    redirect,
    setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, delayMs),
    clearTimeout: (handle) => globalThis.clearTimeout(handle),
    now: () => Date.now(),
    randomBytes: (length) => globalThis.crypto.getRandomValues(new Uint8Array(length)),
    sha256: async (data) => new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>)),
    onStorageChange: (listener) => {
      const handler = (event: StorageEvent) => {
        if (event.storageArea === null || event.storageArea === globalThis.localStorage) listener(event.key);
      };
      globalThis.addEventListener('storage', handler);
      return () => globalThis.removeEventListener('storage', handler);
    },
    exclusive: <T>(name: string, work: () => Promise<T>): Promise<T> =>
      globalThis.navigator?.locks ? (globalThis.navigator.locks.request(name, work) as Promise<T>) : work(),
  };
}
