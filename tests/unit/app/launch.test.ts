// The app id from the address: stored as NB_APP_ID, the previous app's session dropped when it changes,
// and nothing stored in preview mode.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addressWithoutAppId, adoptAppId, launchConfig, launchParameters } from '../../../src/app/launch.ts';
import { StorageKeys, sessionKeys } from '../../../src/auth/storage-keys.ts';
import { APP_ID_STORAGE_KEY } from '../../../src/config.ts';

function signedInTo(appId: string) {
  localStorage.setItem(APP_ID_STORAGE_KEY, appId);
  for (const key of sessionKeys) localStorage.setItem(key, `${key}-value`);
  localStorage.setItem('NB_TABLE_users', '{"page":2}');
}

const sessionLeft = () => sessionKeys.filter((key) => localStorage.getItem(key) !== null);

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('launchParameters', () => {
  it('reads appId and preview=1 from the query', () => {
    expect(launchParameters('?appId=3f1c2d4e-aaaa-4bbb-8ccc-123456789abc&preview=1')).toEqual({
      appId: '3f1c2d4e-aaaa-4bbb-8ccc-123456789abc',
      preview: true,
    });
    expect(launchParameters('?appId=foyer-console')).toEqual({ appId: 'foyer-console', preview: false });
    expect(launchParameters('')).toEqual({ appId: undefined, preview: false });
    expect(launchParameters('?preview=true')).toEqual({ appId: undefined, preview: false });
  });

  it('ignores an app id that is no id', () => {
    expect(launchParameters('?appId=').appId).toBeUndefined();
    expect(launchParameters('?appId=a%20b').appId).toBeUndefined();
    expect(launchParameters(`?appId=${'a'.repeat(101)}`).appId).toBeUndefined();
    expect(launchParameters('?appId=%3Cscript%3E').appId).toBeUndefined();
  });
});

describe('adoptAppId', () => {
  it("drops the previous app's session keys when the app changes, and keeps other keys", () => {
    signedInTo('app-a');
    adoptAppId(localStorage, 'app-b', 'app-a');
    expect(localStorage.getItem(APP_ID_STORAGE_KEY)).toBe('app-b');
    expect(sessionLeft()).toEqual([]);
    // The previous app's workspace user goes with its tokens; preferences such as a table's page stay.
    expect(localStorage.getItem(StorageKeys.tenantUserId)).toBeNull();
    expect(localStorage.getItem('NB_TABLE_users')).toBe('{"page":2}');
  });

  it('keeps the session of the same app', () => {
    signedInTo('app-a');
    adoptAppId(localStorage, 'app-a', 'app-a');
    expect(sessionLeft()).toEqual([...sessionKeys]);
  });
});

describe('launchConfig', () => {
  it('serves the app the query names from now on, dropping the session of the app before', () => {
    signedInTo('app-a');
    expect(launchConfig('?appId=app-b').appId).toBe('app-b');
    expect(localStorage.getItem(APP_ID_STORAGE_KEY)).toBe('app-b');
    expect(sessionLeft()).toEqual([]);
    // A later load without the query stays with it.
    expect(launchConfig('').appId).toBe('app-b');
  });

  it('in preview mode uses the app id for this page only and touches no stored key', () => {
    signedInTo('app-a');
    const config = launchConfig('?appId=app-b&preview=1');
    expect(config).toMatchObject({ appId: 'app-b', preview: true });
    expect(localStorage.getItem(APP_ID_STORAGE_KEY)).toBe('app-a');
    expect(sessionLeft()).toEqual([...sessionKeys]);
    expect(launchConfig('').appId).toBe('app-a');
  });
});

describe('addressWithoutAppId', () => {
  it('drops the adopted app id and keeps the rest of the address', () => {
    expect(addressWithoutAppId({ pathname: '/auth/login', search: '?appId=demo&error=true', hash: '#x' })).toBe('/auth/login?error=true#x');
    expect(addressWithoutAppId({ pathname: '/', search: '?appId=demo', hash: '' })).toBe('/');
  });

  it('leaves addresses without an app id, and previews, alone', () => {
    expect(addressWithoutAppId({ pathname: '/auth/login', search: '?error=true', hash: '' })).toBeUndefined();
    expect(addressWithoutAppId({ pathname: '/auth/login', search: '?appId=demo&preview=1', hash: '' })).toBeUndefined();
  });
});
