// The OAuth tokens in localStorage under docs/SPEC.md's NB_ keys. localStorage is what the spec requires
// (a reload keeps the session, tabs share it); the exposure to script injection is limited by the
// short access-token lifetime, refresh-token rotation (a stolen refresh token dies at the next
// rotation) and revocation at logout.

import { StorageKeys, sessionKeys } from '../storage-keys.ts';
import type { TokenSet } from './token-endpoint.ts';

export function readStoredTokens(storage: Storage): TokenSet {
  return {
    accessToken: storage.getItem(StorageKeys.oauthAccessToken) ?? undefined,
    refreshToken: storage.getItem(StorageKeys.oauthRefreshToken) ?? undefined,
    idToken: storage.getItem(StorageKeys.idToken) ?? undefined,
  };
}

/** The refresh token goes last: other tabs act on its change, by then the whole set is written. */
export function writeStoredTokens(storage: Storage, tokens: Required<TokenSet>): void {
  storage.setItem(StorageKeys.oauthAccessToken, tokens.accessToken);
  storage.setItem(StorageKeys.idToken, tokens.idToken);
  storage.setItem(StorageKeys.oauthRefreshToken, tokens.refreshToken);
}

/** Removes every NB_ key of a signed-in session; answers whether anything was there. */
export function clearSessionKeys(storage: Storage): boolean {
  let removed = false;
  for (const key of sessionKeys) {
    if (storage.getItem(key) !== null) removed = true;
    storage.removeItem(key);
  }
  return removed;
}

/** One login started in this tab: what the callback needs, stored under its state value. */
export interface PendingAuthorization {
  codeVerifier: string;
  returnPath?: string;
}

export function storePendingAuthorization(storage: Storage, state: string, pending: PendingAuthorization): void {
  storage.setItem(`${StorageKeys.oauthPendingPrefix}${state}`, JSON.stringify(pending));
}

/** Reads and forgets the pending authorization of `state` (a state value is good for one callback). */
export function takePendingAuthorization(storage: Storage, state: string): PendingAuthorization | undefined {
  const key = `${StorageKeys.oauthPendingPrefix}${state}`;
  const text = storage.getItem(key);
  storage.removeItem(key);
  if (text === null) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<PendingAuthorization>;
    if (typeof parsed.codeVerifier !== 'string') return undefined;
    return {
      codeVerifier: parsed.codeVerifier,
      returnPath: typeof parsed.returnPath === 'string' ? parsed.returnPath : undefined,
    };
  } catch {
    return undefined;
  }
}

/** Drops the pending authorizations of abandoned logins once one has completed. */
export function clearPendingAuthorizations(storage: Storage): void {
  const stale: string[] = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (key?.startsWith(StorageKeys.oauthPendingPrefix)) stale.push(key);
  }
  for (const key of stale) storage.removeItem(key);
}
