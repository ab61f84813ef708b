// TanStack Query for the components that use it, all lazy chunks (src/components/registry.ts), so the
// screens that use none (the login's first step among them) never load it. Every such component of
// one runtime shares one QueryClient, made for its auth client on first use, so a mutation in one
// (an invitation) refreshes what another shows (the users table), as one provider at the root did.
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { AuthClient } from '../auth/types.ts';
import { useRuntime } from './context.tsx';
import { createQueryClient } from '../api/react.tsx';

const clients = new WeakMap<AuthClient, QueryClient>();

function queryClientOf(auth: AuthClient): QueryClient {
  let client = clients.get(auth);
  if (!client) {
    client = createQueryClient(auth);
    clients.set(auth, client);
  }
  return client;
}

/** `Component` inside the runtime's QueryClient. */
export function withQueries<Props extends object>(Component: ComponentType<Props>): ComponentType<Props> {
  return function WithQueries(props: Props) {
    const { auth } = useRuntime();
    return (
      <QueryClientProvider client={queryClientOf(auth)}>
        <Component {...props} />
      </QueryClientProvider>
    );
  };
}
