// Posts GraphQL operations to a running API host the way the runtime does.

export interface GraphQLAnswer<Data = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: {
    data?: Data | null;
    errors?: { message: string; path?: string[]; extensions?: { code?: string; response?: { statusCode?: number } } }[];
    statusCode?: number;
    error?: string;
    message?: string;
  };
}

export async function postGraphQL<Data = Record<string, unknown>>(
  apiUrl: string,
  operation: { query: string; variables?: Record<string, unknown>; operationName?: string },
  headers: Record<string, string> = {},
): Promise<GraphQLAnswer<Data>> {
  const response = await fetch(`${apiUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(operation),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLAnswer<Data>['body'] };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The machine codes of an answer's errors. */
export const errorCodes = (answer: GraphQLAnswer) => (answer.body.errors ?? []).map((error) => error.extensions?.code);
