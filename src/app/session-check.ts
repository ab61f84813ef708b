// A signed-in session is checked with the server when the runtime loads and whenever its window regains
// focus: tokens verify offline, so a member disabled or removed since would otherwise stay "signed in"
// until the next refresh. The API client then clears the session with the reason, the sign-in guard
// (src/app/sign-in-guard.ts) shows it on the login, and the auth service forgets the identity so the
// picker does not offer an empty list. The generated GraphQL documents load with the first check, not
// with the page: a signed-out visitor's first screen sends none.
import { useEffect } from 'react';
import { ApiError } from '../http/errors.ts';
import { useAuthChanges, useRuntime } from '../runtime/context.tsx';

export function useSessionCheck(): void {
  const { api } = useRuntime();
  const auth = useAuthChanges();
  const authenticated = auth.isAuthenticated();

  useEffect(() => {
    if (!authenticated) return;
    let running = false;
    const check = () => {
      if (running) return;
      running = true;
      import('../gql/graphql.ts')
        .then(({ GetMeDocument }) => api.request(GetMeDocument))
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'MEMBERSHIP_ENDED') return auth.signIn.restart();
        })
        .catch(() => undefined)
        .finally(() => {
          running = false;
        });
    };
    check();
    window.addEventListener('focus', check);
    return () => window.removeEventListener('focus', check);
  }, [api, auth, authenticated]);
}
