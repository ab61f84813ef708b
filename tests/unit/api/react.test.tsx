// @vitest-environment jsdom
// TanStack Query helpers: useGraphQL and useGraphQLMutation through the provider, query keys by
// operation name, and the data cache emptied when the session ends.

import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../src/api/client.ts';
import { ApiClientProvider, createQueryClient, graphQLQueryKey, useGraphQL, useGraphQLMutation } from '../../../src/api/react.tsx';
import { GetAppAnonymousDocument, ListUsersDocument, SendPasswordResetLinkDocument } from '../../../src/gql/graphql.ts';
import { createHarness, type Harness } from '../auth/support/harness.ts';
import { TestAuthService } from '../auth/support/test-auth-service.ts';

let harness: Harness;
let api: ApiClient;
let operations: { operationName: string; variables: unknown }[];

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  harness = createHarness(await TestAuthService.start());
  operations = [];
  api = createApiClient(harness.config, harness.client, {
    fetch: async (_input, init) => {
      const body = JSON.parse(String(init?.body)) as { operationName: string; variables: unknown };
      operations.push(body);
      const data = body.operationName === 'GetAppAnonymous' ? { getAppAnonymous: { name: 'Demo app' } } : { sendPasswordResetLink: true };
      return new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } });
    },
  });
});

afterEach(() => {
  cleanup();
  harness.client.clear();
});

function AppName() {
  const app = useGraphQL(GetAppAnonymousDocument);
  return <p>{app.data ? app.data.getAppAnonymous.name : 'loading'}</p>;
}

function ResetButton() {
  const reset = useGraphQLMutation(SendPasswordResetLinkDocument);
  return (
    <button type="button" onClick={() => reset.mutate({ userId: 'tu-7' })}>
      {reset.data?.sendPasswordResetLink ? 'sent' : 'send'}
    </button>
  );
}

describe('useGraphQL', () => {
  it('runs the typed operation through the API client', async () => {
    const queryClient = createQueryClient(harness.client);
    render(
      <QueryClientProvider client={queryClient}>
        <ApiClientProvider client={api}>
          <AppName />
        </ApiClientProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Demo app')).toBeTruthy();
    expect(operations).toEqual([{ operationName: 'GetAppAnonymous', query: expect.any(String), variables: {} }]);
  });

  it('needs the provider', () => {
    const queryClient = createQueryClient();
    expect(() =>
      render(
        <QueryClientProvider client={queryClient}>
          <AppName />
        </QueryClientProvider>,
      ),
    ).toThrow(/ApiClientProvider/);
  });
});

describe('useGraphQLMutation', () => {
  it('sends the variables given to mutate', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ApiClientProvider client={api}>
          <ResetButton />
        </ApiClientProvider>
      </QueryClientProvider>,
    );
    act(() => screen.getByRole('button').click());
    expect(await screen.findByText('sent')).toBeTruthy();
    expect(operations).toEqual([{ operationName: 'SendPasswordResetLink', query: expect.any(String), variables: { userId: 'tu-7' } }]);
  });
});

describe('query keys', () => {
  it('start with the operation name, then the variables', () => {
    expect(graphQLQueryKey(ListUsersDocument, { limit: 5 })).toEqual(['ListUsers', { limit: 5 }]);
    expect(graphQLQueryKey(GetAppAnonymousDocument)).toEqual(['GetAppAnonymous', {}]);
  });
});

describe('createQueryClient', () => {
  it('empties the data cache when the session ends, not before', async () => {
    await harness.signIn();
    const queryClient = createQueryClient(harness.client);
    queryClient.setQueryData(['GetTenant', {}], { getTenant: { name: 'Globex' } });
    await harness.signIn();
    expect(queryClient.getQueryData(['GetTenant', {}])).toBeDefined();
    harness.client.clear();
    expect(queryClient.getQueryData(['GetTenant', {}])).toBeUndefined();
  });
});
