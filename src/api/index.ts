// The API client's public face (src/api): GraphQL and REST calls to the API host and the TanStack
// Query helpers. The transport, its errors and the header rules are src/http's.

export { createApiClient, operationNameOf, graphQLErrorStatus } from './client.ts';
export type { ApiClient, ApiClientOptions, ApiLogger, ForbiddenHandler } from './client.ts';
export {
  ApiClientProvider,
  createQueryClient,
  graphQLQueryKey,
  useApiClient,
  useGraphQL,
  useGraphQLMutation,
  type GraphQLMutationOptions,
  type GraphQLQueryOptions,
} from './react.tsx';
