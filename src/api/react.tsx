// TanStack Query on top of the API client: a QueryClient factory and typed hooks for the documents
// codegen writes to src/gql. Query keys start with the operation name, so invalidating
// ['ListUsers'] refetches every page of the users table.

import { QueryClient, useMutation, useQuery, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query';
import type { AuthClient } from '../auth/types.ts';
import type { TypedDocumentString } from '../gql/graphql.ts';
import { operationNameOf } from './client.ts';
import { ApiError } from '../http/errors.ts';
import { useApiClient } from './context.tsx';

/** Network failures are retried; answers from the server (any ApiError) are not. */
const MAX_NETWORK_RETRIES = 2;

const isApiAnswer = (error: unknown) => error instanceof ApiError;

/**
 * The data cache of one app (the runtime, the configurator). With an auth client, signing out
 * (logout, a 401, a failed refresh) empties it, so no workspace data outlives the session (docs/SPEC.md
 * section 4). `isServerAnswer` tells the errors not worth retrying from network failures.
 */
export function createQueryClient(auth?: AuthClient, isServerAnswer: (error: unknown) => boolean = isApiAnswer): QueryClient {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => !isServerAnswer(error) && failureCount < MAX_NETWORK_RETRIES,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
  if (auth) {
    let wasAuthenticated = auth.isAuthenticated();
    auth.subscribe(() => {
      const authenticated = auth.isAuthenticated();
      if (wasAuthenticated && !authenticated) queryClient.clear();
      wasAuthenticated = authenticated;
    });
  }
  return queryClient;
}

export { ApiClientProvider, useApiClient } from './context.tsx';

export function graphQLQueryKey<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables?: TVariables,
): readonly unknown[] {
  return [operationNameOf(document.toString()) ?? document.toString(), variables ?? {}];
}

export type GraphQLQueryOptions<TResult> = Omit<UseQueryOptions<TResult, Error, TResult>, 'queryKey' | 'queryFn'>;

export function useGraphQL<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables?: TVariables,
  options?: GraphQLQueryOptions<TResult>,
) {
  const api = useApiClient();
  return useQuery<TResult, Error, TResult>({
    queryKey: graphQLQueryKey(document, variables),
    queryFn: () => api.request(document, variables),
    ...options,
  });
}

export type GraphQLMutationOptions<TResult, TVariables> = Omit<UseMutationOptions<TResult, Error, TVariables>, 'mutationFn'>;

export function useGraphQLMutation<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  options?: GraphQLMutationOptions<TResult, TVariables>,
) {
  const api = useApiClient();
  return useMutation<TResult, Error, TVariables>({
    mutationFn: (variables) => api.request(document, variables),
    ...options,
  });
}
