// @vitest-environment jsdom
// The auth origin's session calls through the OAuth client: credentials included, wrong
// credentials as `session: false`, other failures as ApiError.

import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, UnauthenticatedError } from '../../../src/http/errors.ts';
import { OAuthClient } from '../../../src/auth/oauth/oauth-client.ts';
import { browserRuntime } from '../../../src/auth/runtime.ts';
import { StorageKeys } from '../../../src/auth/storage-keys.ts';
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
let client: OAuthClient;

beforeEach(() => {
  localStorage.clear();
  seen = [];
  redirects = [];
  answer = () => json(200, {});
  client = new OAuthClient(
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
    await expect(client.signIn.credentialsConfig('owner@demo.foyer.test')).resolves.toEqual({
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
    await expect(client.signIn.authenticate('a@b.test', 'pw')).resolves.toEqual({
      session: true,
      mfaState: 'DISABLED',
      tenantUserId: 'tu-1',
    });
    expect(seen[0]!.init.credentials).toBe('include');
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ username: 'a@b.test', password: 'pw' });
  });

  it('answers session false on a 401', async () => {
    answer = () => json(401, { statusCode: 401, message: 'Wrong credentials', error: 'WRONG_CREDENTIALS' });
    await expect(client.signIn.authenticate('a@b.test', 'nope')).resolves.toEqual({ session: false, mfaState: 'DISABLED' });
  });

  it('answers session false when the server opened no session', async () => {
    answer = () => json(200, { session: false, mfaState: 'DISABLED' });
    await expect(client.signIn.authenticate('a@b.test', 'nope')).resolves.toMatchObject({ session: false });
  });

  it('throws an ApiError with the server message, code, status and details on other failures', async () => {
    const body = { statusCode: 429, message: 'Too many attempts', error: 'RATE_LIMITED' };
    answer = () => json(429, body);
    const error = await client.signIn.authenticate('a@b.test', 'pw').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Too many attempts', code: 'RATE_LIMITED', statusCode: 429, details: body });
  });

  it('rethrows a failure without a response unchanged', async () => {
    const offline = new TypeError('Failed to fetch');
    answer = () => {
      throw offline;
    };
    await expect(client.signIn.authenticate('a@b.test', 'pw')).rejects.toBe(offline);
  });
});

describe('tenantUsers', () => {
  it('lists the workspaces of the login session', async () => {
    const workspaces = [
      {
        id: 'tu-1',
        role: 'OWNER',
        email: 'o@x.test',
        username: 'o@x.test',
        onboarded: true,
        tenant: { id: 't1', name: 'Acme', locale: 'en' },
      },
    ];
    answer = () => json(200, workspaces);
    await expect(client.signIn.tenantUsers()).resolves.toEqual(workspaces);
    expect(seen[0]!.url).toBe(`${authUrl}/auth/tenantUsers`);
    expect(seen[0]!.init.credentials).toBe('include');
  });

  it('throws an UnauthenticatedError without a login session', async () => {
    answer = () => json(401, { statusCode: 401, message: 'Unauthorized', error: 'UNAUTHENTICATED' });
    await expect(client.signIn.tenantUsers()).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});

describe('switchWorkspace', () => {
  it('remembers the workspace user and hands over to the auth service', async () => {
    await client.signIn.switchWorkspace('tu/42');
    expect(localStorage.getItem(StorageKeys.tenantUserId)).toBe('tu/42');
    expect(redirects).toEqual([`${authUrl}/auth/chooseTenantUser/tu%2F42`]);
  });
});

describe('continueSignIn and restartSignIn', () => {
  it('continues through the auth service, naming the app', () => {
    client.signIn.continue();
    expect(redirects).toEqual([`${authUrl}/auth/continue?appId=demo-app`]);
  });

  it('restarts the sign-in with the login session cookie', async () => {
    answer = () => new Response(null, { status: 204 });
    await expect(client.signIn.restart()).resolves.toBeUndefined();
    expect(seen[0]!.url).toBe(`${authUrl}/auth/restart`);
    expect(seen[0]!.init.method).toBe('POST');
    expect(seen[0]!.init.credentials).toBe('include');
  });
});

describe('sendResetLink', () => {
  it('posts the username with credentials and the app id', async () => {
    await expect(client.password.sendResetLink('owner@demo.foyer.test')).resolves.toBeUndefined();
    expect(seen[0]!.url).toBe(`${authUrl}/auth/password`);
    expect(seen[0]!.init.method).toBe('POST');
    expect(seen[0]!.init.credentials).toBe('include');
    expect(new Headers(seen[0]!.init.headers).get('x-app-id')).toBe('demo-app');
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ username: 'owner@demo.foyer.test' });
  });

  it('throws the rate limit as an ApiError with its code', async () => {
    answer = () => json(429, { statusCode: 429, message: 'Too many requests', error: 'TOO_MANY_REQUESTS' });
    await expect(client.password.sendResetLink('a@b.test')).rejects.toMatchObject({ statusCode: 429, code: 'TOO_MANY_REQUESTS' });
  });
});

describe('passwordToken', () => {
  it('reads what a link stands for, with the token escaped into the path', async () => {
    answer = () => json(200, { email: 'new@b.test', purpose: 'signup', passwordChosen: true });
    await expect(client.password.token('a/b c')).resolves.toEqual({ email: 'new@b.test', purpose: 'signup', passwordChosen: true });
    expect(seen[0]!.url).toBe(`${authUrl}/auth/password/a%2Fb%20c`);
    expect(seen[0]!.init.method).toBe('GET');
    expect(seen[0]!.init.credentials).toBe('include');
  });

  it('fails with LINK_EXPIRED for a dead link', async () => {
    answer = () => json(400, { statusCode: 400, message: 'The link has expired', error: 'LINK_EXPIRED' });
    await expect(client.password.token('old')).rejects.toMatchObject({ code: 'LINK_EXPIRED', statusCode: 400 });
  });
});

describe('setPassword', () => {
  it('puts the token and password and answers the signed-in session', async () => {
    answer = () => json(200, { session: true, expiresIn: 600, mfaState: 'DISABLED', tenantUserId: 'tu-9' });
    await expect(client.password.set('tok', 'Secret-pass-1')).resolves.toEqual({
      session: true,
      mfaState: 'DISABLED',
      tenantUserId: 'tu-9',
    });
    expect(seen[0]!.url).toBe(`${authUrl}/auth/password`);
    expect(seen[0]!.init.method).toBe('PUT');
    expect(seen[0]!.init.credentials).toBe('include');
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ token: 'tok', password: 'Secret-pass-1' });
  });

  it('sends only the token when the link confirms a password chosen before', async () => {
    answer = () => json(200, { session: true, expiresIn: 600, mfaState: 'SETUP' });
    await expect(client.password.set('tok')).resolves.toEqual({ session: true, mfaState: 'SETUP' });
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ token: 'tok' });
  });

  it('carries the policy problems of a refused password in the error details', async () => {
    const body = {
      statusCode: 400,
      error: 'PASSWORD_POLICY',
      message: 'Minimal length: 10 characters',
      details: { field: 'password', problems: ['password.policy.minLength'] },
    };
    answer = () => json(400, body);
    await expect(client.password.set('tok', 'short')).rejects.toMatchObject({ code: 'PASSWORD_POLICY', details: body });
  });
});

describe('sendMagicLink', () => {
  it('posts the username with credentials and answers the link lifetime', async () => {
    answer = () => json(200, { expiresIn: 900 });
    await expect(client.magicLink.send('owner@demo.foyer.test')).resolves.toEqual({ expiresIn: 900 });
    expect(seen[0]!.url).toBe(`${authUrl}/auth/magic-link`);
    expect(seen[0]!.init.method).toBe('POST');
    expect(seen[0]!.init.credentials).toBe('include');
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ username: 'owner@demo.foyer.test' });
  });

  it('throws MAGIC_LINK_DISABLED as a forbidden error', async () => {
    answer = () => json(403, { statusCode: 403, message: 'Magic links are off', error: 'MAGIC_LINK_DISABLED' });
    await expect(client.magicLink.send('a@b.test')).rejects.toMatchObject({ statusCode: 403, code: 'MAGIC_LINK_DISABLED' });
  });
});

describe('two-factor calls', () => {
  it('post their one field with credentials to the auth service', async () => {
    answer = () => new Response(null, { status: 204 });
    await expect(client.mfa.startUserSetup('+46701234567')).resolves.toBeUndefined();
    await expect(client.mfa.commitCode('123456')).resolves.toBeUndefined();
    await expect(client.mfa.resetUserSetup('ABCD-EFGH-JKMN-PQRS')).resolves.toBeUndefined();
    await expect(client.mfa.resendCode()).resolves.toBeUndefined();
    answer = () => json(200, { backupCode: 'ABCD-EFGH-JKMN-PQRS' });
    await expect(client.mfa.finishUserSetup('654321')).resolves.toEqual({ backupCode: 'ABCD-EFGH-JKMN-PQRS' });
    expect(seen.map((call) => [call.url, call.init.method, call.init.credentials, JSON.parse(String(call.init.body))])).toEqual([
      [`${authUrl}/auth/startMfaUserSetup`, 'POST', 'include', { phoneNumber: '+46701234567' }],
      [`${authUrl}/auth/commitMfaCode`, 'POST', 'include', { mfaCode: '123456' }],
      [`${authUrl}/auth/resetUserMfaSetup`, 'POST', 'include', { backupCode: 'ABCD-EFGH-JKMN-PQRS' }],
      [`${authUrl}/auth/resendMfaCode`, 'POST', 'include', {}],
      [`${authUrl}/auth/finishMfaUserSetup`, 'POST', 'include', { mfaCode: '654321' }],
    ]);
  });

  it('name the method and reach the authenticator-app calls', async () => {
    answer = () => new Response(null, { status: 204 });
    await expect(client.mfa.commitCode('123456', 'totp')).resolves.toBeUndefined();
    const totpSetup = {
      secret: 'JBSWY3DPEHPK3PXP',
      otpauthUrl: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP',
      qrCodeDataUrl: 'data:image/png;base64,AA',
    };
    answer = () => json(200, totpSetup);
    await expect(client.mfa.startTotpSetup()).resolves.toEqual(totpSetup);
    answer = () => json(200, { backupCode: 'ABCD-EFGH-JKMN-PQRS' });
    await expect(client.mfa.finishTotpSetup('654321')).resolves.toEqual({ backupCode: 'ABCD-EFGH-JKMN-PQRS' });
    answer = () => json(200, { methods: ['totp', 'sms'] });
    await expect(client.mfa.methods()).resolves.toEqual({ methods: ['totp', 'sms'] });
    expect(
      seen.map((call) => [
        call.url,
        call.init.method ?? 'GET',
        call.init.credentials,
        call.init.body && JSON.parse(String(call.init.body)),
      ]),
    ).toEqual([
      [`${authUrl}/auth/commitMfaCode`, 'POST', 'include', { mfaCode: '123456', method: 'totp' }],
      [`${authUrl}/auth/startTotpSetup`, 'POST', 'include', {}],
      [`${authUrl}/auth/finishTotpSetup`, 'POST', 'include', { mfaCode: '654321' }],
      [`${authUrl}/auth/mfaMethods`, 'GET', 'include', undefined],
    ]);
  });

  it('throw the server codes: a wrong code as unauthenticated, a bad number as a general error', async () => {
    answer = () => json(401, { statusCode: 401, message: 'Wrong security code', error: 'WRONG_MFA_CODE' });
    const wrong = client.mfa.commitCode('000000');
    await expect(wrong).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(wrong).rejects.toMatchObject({ code: 'WRONG_MFA_CODE' });
    answer = () => json(400, { statusCode: 400, message: 'E.164', error: 'INVALID_PHONE_NUMBER' });
    await expect(client.mfa.startUserSetup('0701')).rejects.toMatchObject({ statusCode: 400, code: 'INVALID_PHONE_NUMBER' });
  });
});
