// @vitest-environment jsdom
// The auth origin's session calls through the OAuth client: credentials included, wrong
// credentials as `session: false`, other failures as ApiError.

import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, UnauthenticatedError } from '../../../src/api/errors.ts';
import { createAuthClient } from '../../../src/auth/index.ts';
import { browserRuntime } from '../../../src/auth/runtime.ts';
import { StorageKeys } from '../../../src/auth/storage-keys.ts';
import type { AuthClient } from '../../../src/auth/types.ts';
import { defaultConfig } from '../../../src/config.ts';

const authUrl = 'http://auth.foyer.test';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Seen {
  url: string;
  init: RequestInit;
}

let seen: Seen[];
let answer: () => Response;
let redirects: string[];
let client: AuthClient;

beforeEach(() => {
  localStorage.clear();
  seen = [];
  redirects = [];
  answer = () => json(200, {});
  client = createAuthClient(
    { ...defaultConfig, appId: 'demo-app', authUrl: `${authUrl}/` },
    {
      ...browserRuntime(),
      localStorage,
      sessionStorage,
      fetch: async (input, init = {}) => {
        seen.push({ url: String(input), init });
        return answer();
      },
      redirect: (url) => redirects.push(url),
    },
  );
});

describe('credentialsConfig', () => {
  it('posts the username with credentials and answers the configuration', async () => {
    answer = () => json(200, { hasPassword: true, hasPasskeys: false, federationConnections: [] });
    await expect(client.credentialsConfig('owner@demo.foyer.test')).resolves.toEqual({
      hasPassword: true,
      hasPasskeys: false,
      federationConnections: [],
    });
    expect(seen[0]!.url).toBe(`${authUrl}/auth/credentialsConfig`);
    expect(seen[0]!.init.method).toBe('POST');
    expect(seen[0]!.init.credentials).toBe('include');
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ username: 'owner@demo.foyer.test' });
  });
});

describe('authenticate', () => {
  it('answers the session, MFA state and single workspace', async () => {
    answer = () => json(200, { session: true, expiresIn: 600, mfaState: 'DISABLED', tenantUserId: 'tu-1' });
    await expect(client.authenticate('a@b.test', 'pw')).resolves.toEqual({
      session: true,
      mfaState: 'DISABLED',
      tenantUserId: 'tu-1',
    });
    expect(seen[0]!.init.credentials).toBe('include');
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ username: 'a@b.test', password: 'pw' });
  });

  it('answers session false on a 401', async () => {
    answer = () => json(401, { statusCode: 401, message: 'Wrong credentials', error: 'WRONG_CREDENTIALS' });
    await expect(client.authenticate('a@b.test', 'nope')).resolves.toEqual({ session: false, mfaState: 'DISABLED' });
  });

  it('answers session false when the server opened no session', async () => {
    answer = () => json(200, { session: false, mfaState: 'DISABLED' });
    await expect(client.authenticate('a@b.test', 'nope')).resolves.toMatchObject({ session: false });
  });

  it('throws an ApiError with the server message, code, status and details on other failures', async () => {
    const body = { statusCode: 429, message: 'Too many attempts', error: 'RATE_LIMITED' };
    answer = () => json(429, body);
    const error = await client.authenticate('a@b.test', 'pw').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Too many attempts', code: 'RATE_LIMITED', statusCode: 429, details: body });
  });

  it('rethrows a failure without a response unchanged', async () => {
    const offline = new TypeError('Failed to fetch');
    answer = () => {
      throw offline;
    };
    await expect(client.authenticate('a@b.test', 'pw')).rejects.toBe(offline);
  });
});

describe('tenantUsers', () => {
  it('lists the workspaces of the login session', async () => {
    const workspaces = [
      { id: 'tu-1', role: 'OWNER', email: 'o@x.test', username: 'o@x.test', onboarded: true, tenant: { id: 't1', name: 'Acme', locale: 'en' } },
    ];
    answer = () => json(200, workspaces);
    await expect(client.tenantUsers()).resolves.toEqual(workspaces);
    expect(seen[0]!.url).toBe(`${authUrl}/auth/tenantUsers`);
    expect(seen[0]!.init.credentials).toBe('include');
  });

  it('throws an UnauthenticatedError without a login session', async () => {
    answer = () => json(401, { statusCode: 401, message: 'Unauthorized', error: 'UNAUTHENTICATED' });
    await expect(client.tenantUsers()).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});

describe('switchUser', () => {
  it('remembers the workspace user and hands over to the auth service', () => {
    client.switchUser('tu/42');
    expect(localStorage.getItem(StorageKeys.tenantUserId)).toBe('tu/42');
    expect(redirects).toEqual([`${authUrl}/auth/chooseTenantUser/tu%2F42`]);
  });
});
