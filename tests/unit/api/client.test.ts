// @vitest-environment jsdom
// The API client with the real OAuth auth client (signed in against the in-process auth service):
// request shape, headers, and docs/SPEC.md section 8's status handling for GraphQL and REST.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiClient } from '../../../src/api/client.ts';
import { ApiError, ForbiddenError, UnauthenticatedError } from '../../../src/http/errors.ts';
import { StorageKeys } from '../../../src/auth/storage-keys.ts';
import { GetAppAnonymousDocument, ListUsersDocument, UpdateTenantDocument } from '../../../src/gql/graphql.ts';
import { createHarness, type Harness } from '../auth/support/harness.ts';
import { TestAuthService } from '../auth/support/test-auth-service.ts';

const apiUrl = 'http://api.foyer.test';

interface SeenRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  init: RequestInit;
}

let service: TestAuthService;
let harness: Harness;
let api: ApiClient;
let seen: SeenRequest[];
let answer: (request: SeenRequest) => Response | Promise<Response>;
let logged: unknown[][];
let forbidden: ForbiddenError[];

const graphQLAnswer = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  service = await TestAuthService.start();
  harness = createHarness(service, { apiUrl: `${apiUrl}/` });
  seen = [];
  logged = [];
  forbidden = [];
  answer = () => graphQLAnswer({ data: {} });
  api = createApiClient(harness.config, harness.client, {
    fetch: async (input, init = {}) => {
      const request = {
        url: String(input),
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        body: String(init.body ?? ''),
        init,
      };
      seen.push(request);
      return answer(request);
    },
    logger: { error: (...details: unknown[]) => logged.push(details) },
    onForbidden: (error) => forbidden.push(error),
  });
});

afterEach(() => {
  harness.client.clear();
  vi.useRealTimers();
});

describe('GraphQL requests', () => {
  it('posts an anonymous operation with its name, query and variables and x-app-id only', async () => {
    answer = () => graphQLAnswer({ data: { getAppAnonymous: { name: 'Demo app', tenantSelfSignup: true } } });
    const data = await api.request(GetAppAnonymousDocument);
    expect(data.getAppAnonymous.name).toBe('Demo app');

    const [request] = seen;
    expect(request!.url).toBe(`${apiUrl}/graphql`);
    expect(request!.init.method).toBe('POST');
    expect(request!.headers).toEqual({
      'x-app-id': 'demo-app',
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    });
    const body = JSON.parse(request!.body) as { operationName: string; query: string; variables: unknown };
    expect(body.operationName).toBe('GetAppAnonymous');
    expect(body.query).toBe(GetAppAnonymousDocument.toString());
    expect(body.variables).toEqual({});
  });

  it('sends the bearer token (and the app id) when signed in, with the variables', async () => {
    await harness.signIn();
    answer = () =>
      graphQLAnswer({
        data: {
          usersPage: { users: [], startCursor: null, endCursor: null, hasPreviousPage: false, hasNextPage: false },
          countUsers: 0,
          getTenant: { mfa: false },
        },
      });
    await api.request(ListUsersDocument, { search: 'ada', limit: 5, offset: 0 });

    const [request] = seen;
    expect(request!.headers.authorization).toBe(`Bearer ${localStorage.getItem(StorageKeys.oauthAccessToken)}`);
    expect(request!.headers['x-app-id']).toBe('demo-app');
    const body = JSON.parse(request!.body) as { operationName: string; variables: unknown };
    expect(body.operationName).toBe('ListUsers');
    expect(body.variables).toEqual({ search: 'ada', limit: 5, offset: 0 });
  });

  it('renews an access token that expired before sending it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await harness.signIn();
    const expired = harness.client.accessToken();
    vi.setSystemTime(Date.now() + service.accessTokenLifetimeSeconds * 1000 + 1);
    await api.request(GetAppAnonymousDocument);
    expect(seen[0]!.headers.authorization).not.toBe(`Bearer ${expired}`);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${harness.client.accessToken()}`);
  });
});

describe('GraphQL errors', () => {
  it('MEMBERSHIP_ENDED clears the session and keeps the reason for the screens until the next sign-in', async () => {
    await harness.signIn();
    answer = () =>
      graphQLAnswer({
        data: null,
        errors: [
          {
            message: 'Your membership of this workspace has ended',
            extensions: { code: 'MEMBERSHIP_ENDED', response: { statusCode: 401 } },
          },
        ],
      });
    const error = await api.request(GetAppAnonymousDocument).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ statusCode: 401, code: 'MEMBERSHIP_ENDED' });
    expect(harness.client.isAuthenticated()).toBe(false);
    expect(harness.client.signedOutReason()).toBe('membershipEnded');
    await harness.signIn();
    expect(harness.client.signedOutReason()).toBeUndefined();
  });

  it('401 in extensions.response.statusCode → UnauthenticatedError and the session is cleared', async () => {
    await harness.signIn();
    const notified = vi.fn();
    harness.client.subscribe(notified);
    answer = () =>
      graphQLAnswer({
        data: null,
        errors: [{ message: 'Unauthenticated', extensions: { code: 'UNAUTHENTICATED', response: { statusCode: 401 } } }],
      });

    const error = await api.request(GetAppAnonymousDocument).catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(error).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'Unauthenticated' });
    expect(harness.client.isAuthenticated()).toBe(false);
    expect(localStorage.getItem(StorageKeys.oauthRefreshToken)).toBeNull();
    expect(notified).toHaveBeenCalled();
    expect(forbidden).toEqual([]);
  });

  it('reads the status from extensions.exception.httpStatus too', async () => {
    answer = () => graphQLAnswer({ errors: [{ message: 'Unauthorized', extensions: { exception: { httpStatus: 401 } } }] });
    await expect(api.request(GetAppAnonymousDocument)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('403 → ForbiddenError to every forbidden handler, the session kept', async () => {
    await harness.signIn();
    const added: ForbiddenError[] = [];
    const remove = api.onForbidden((error) => added.push(error));
    answer = () =>
      graphQLAnswer({
        errors: [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN', response: { statusCode: 403 } } }],
      });

    const error = await api.request(UpdateTenantDocument, { tenant: { mfa: true } }).catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(ForbiddenError);
    expect(forbidden).toEqual([error]);
    expect(added).toEqual([error]);
    expect(harness.client.isAuthenticated()).toBe(true);

    remove();
    await api.request(UpdateTenantDocument, { tenant: { mfa: true } }).catch(() => undefined);
    expect(forbidden).toHaveLength(2);
    expect(added).toHaveLength(1);
  });

  it('other statuses → ApiError with message, code, status and details, and the errors are logged', async () => {
    const errors = [{ message: 'Unknown app', extensions: { code: 'UNKNOWN_APP', response: { statusCode: 404 } } }];
    answer = () => graphQLAnswer({ data: null, errors });

    const error = await api.request(GetAppAnonymousDocument).catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(UnauthenticatedError);
    expect(error).toMatchObject({ message: 'Unknown app', code: 'UNKNOWN_APP', statusCode: 404, details: errors });
    expect(logged).toHaveLength(1);
    expect(String(logged[0]![0])).toContain('GetAppAnonymous');
  });

  it('takes the HTTP status when the error names none', async () => {
    answer = () => graphQLAnswer({ errors: [{ message: 'Bad input', extensions: { code: 'BAD_USER_INPUT' } }] }, 400);
    await expect(api.request(GetAppAnonymousDocument)).rejects.toMatchObject({ statusCode: 400, code: 'BAD_USER_INPUT' });
  });

  it('rethrows a failure without a response unchanged, and logs it', async () => {
    const offline = new TypeError('Failed to fetch');
    answer = () => {
      throw offline;
    };
    await expect(api.request(GetAppAnonymousDocument)).rejects.toBe(offline);
    expect(logged).toHaveLength(1);
  });

  it('maps a non-JSON error answer by its HTTP status', async () => {
    answer = () => new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' });
    await expect(api.request(GetAppAnonymousDocument)).rejects.toMatchObject({ statusCode: 502, message: 'Bad Gateway' });
  });
});

describe('REST calls', () => {
  it('sends the same headers and JSON to the API host', async () => {
    await harness.signIn();
    answer = () => new Response(null, { status: 204 });
    await api.rest('/security/setCookie', { method: 'POST', credentials: 'include', body: {} });
    const [request] = seen;
    expect(request!.url).toBe(`${apiUrl}/security/setCookie`);
    expect(request!.init.credentials).toBe('include');
    expect(request!.headers.authorization).toMatch(/^Bearer ey/);
    expect(request!.headers['x-app-id']).toBe('demo-app');
  });

  it('sends an upload as the raw file under its own type, with the same headers', async () => {
    await harness.signIn();
    answer = () => graphQLAnswer({ logo: 'http://api.foyer.test/demo-app/assets/1' }, 201);
    const file = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    await expect(api.rest('/workspace/logo', { method: 'POST', file })).resolves.toEqual({
      logo: 'http://api.foyer.test/demo-app/assets/1',
    });
    const [request] = seen;
    expect(request!.init.body).toBe(file);
    expect(request!.headers['content-type']).toBe('image/png');
    expect(request!.headers.authorization).toMatch(/^Bearer ey/);
  });

  it('turns an error body into ApiError {message, code, statusCode, details}', async () => {
    const body = { statusCode: 409, message: 'Already exists', error: 'CONFLICT' };
    answer = () => graphQLAnswer(body, 409);
    const error = await api.rest('/anything').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Already exists', code: 'CONFLICT', statusCode: 409, details: body });
  });

  it('clears the session on a 401', async () => {
    await harness.signIn();
    answer = () => graphQLAnswer({ statusCode: 401, message: 'Unauthorized', error: 'UNAUTHENTICATED' }, 401);
    await expect(api.rest('/anything')).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(harness.client.isAuthenticated()).toBe(false);
  });

  it('calls the forbidden handler on a 403', async () => {
    answer = () => graphQLAnswer({ statusCode: 403, message: 'Forbidden', error: 'FORBIDDEN' }, 403);
    await expect(api.rest('/anything')).rejects.toBeInstanceOf(ForbiddenError);
    expect(forbidden).toHaveLength(1);
  });
});
