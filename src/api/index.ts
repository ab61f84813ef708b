// The API client's public face (src/api): GraphQL and REST calls to the API host, errors, header
// rules and the TanStack Query helpers.

export { createApiClient, operationNameOf, graphQLErrorStatus } from './client.ts';
export type { ApiClient, ApiClientOptions, ApiLogger, ForbiddenHandler } from './client.ts';
export { ApiError, ForbiddenError, UnauthenticatedError, errorForStatus, type ApiErrorInit } from './errors.ts';
export { apiHeaderRules, type HeaderCredentials } from './headers.ts';
export { requestJson, type FetchFn, type JsonRequest } from './http.ts';
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
