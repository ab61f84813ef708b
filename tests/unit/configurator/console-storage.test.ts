// The console's session lives beside the runtime's on the same origin, under its own keys.
import { beforeEach, describe, expect, it } from 'vitest';
import { StorageKeys } from '../../../src/auth/storage-keys.ts';
import { clearSessionKeys, readStoredTokens, writeStoredTokens } from '../../../src/auth/oauth/token-store.ts';
import { browserRuntime } from '../../../src/auth/runtime.ts';
import { consoleRuntime, prefixedStorage } from '../../../configurator/console-storage.ts';

describe('console storage', () => {
  beforeEach(() => localStorage.clear());

  it('files the auth client NB_ keys under FOYER_CONSOLE_ and leaves the runtime session alone', () => {
    localStorage.setItem(StorageKeys.oauthAccessToken, 'runtime-access');
    localStorage.setItem(StorageKeys.oauthRefreshToken, 'runtime-refresh');
    const storage = prefixedStorage(() => localStorage);

    writeStoredTokens(storage, { accessToken: 'console-access', refreshToken: 'console-refresh', idToken: 'console-id' });
    expect(localStorage.getItem('FOYER_CONSOLE_OAUTH_ACCESS_TOKEN')).toBe('console-access');
    expect(readStoredTokens(storage)).toEqual({ accessToken: 'console-access', refreshToken: 'console-refresh', idToken: 'console-id' });

    expect(clearSessionKeys(storage)).toBe(true);
    expect(readStoredTokens(storage)).toEqual({ accessToken: undefined, refreshToken: undefined, idToken: undefined });
    expect(localStorage.getItem(StorageKeys.oauthAccessToken)).toBe('runtime-access');
    expect(localStorage.getItem(StorageKeys.oauthRefreshToken)).toBe('runtime-refresh');
  });

  it('lists and clears only its own keys, under the names the auth client uses', () => {
    localStorage.setItem('NB_APP_ID', 'runtime-app');
    const storage = prefixedStorage(() => localStorage);
    storage.setItem('NB_OAUTH_PENDING_abc', '{}');
    storage.setItem('NB_OAUTH_PENDING_def', '{}');
    expect(storage.length).toBe(2);
    expect([storage.key(0), storage.key(1)].sort()).toEqual(['NB_OAUTH_PENDING_abc', 'NB_OAUTH_PENDING_def']);
    expect(storage.key(2)).toBeNull();
    storage.clear();
    expect(storage.length).toBe(0);
    expect(localStorage.getItem('NB_APP_ID')).toBe('runtime-app');
  });

  it('reports storage events of its own keys only, by the auth client names', () => {
    const seen: (string | null)[] = [];
    const runtime = consoleRuntime(browserRuntime());
    const stop = runtime.onStorageChange((key) => seen.push(key));
    for (const key of ['NB_OAUTH_REFRESH_TOKEN', 'FOYER_CONSOLE_OAUTH_REFRESH_TOKEN']) {
      window.dispatchEvent(new StorageEvent('storage', { key, storageArea: localStorage }));
    }
    window.dispatchEvent(new StorageEvent('storage', { key: null, storageArea: localStorage }));
    stop();
    expect(seen).toEqual([StorageKeys.oauthRefreshToken, null]);
  });
});
