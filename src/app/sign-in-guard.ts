// The one sign-in guard of the signed-in screens (the home page, the management layout): a signed-out
// visitor is sent to sign in, coming back to the same address afterwards; one whose session the server
// ended for a reason is shown that reason on the login screen instead.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAuthChanges } from '../runtime/context.tsx';

/** Answers whether the visitor is signed in; when not, the browser is already on its way. */
export function useSignInGuard(): boolean {
  const auth = useAuthChanges();
  const location = useLocation();
  const navigate = useNavigate();
  const authenticated = auth.isAuthenticated();

  useEffect(() => {
    if (authenticated) return;
    const reason = auth.signedOutReason();
    if (reason) void navigate(`/auth/login?${new URLSearchParams({ error: 'true', errorDetails: reason }).toString()}`, { replace: true });
    else void auth.login(`${location.pathname}${location.search}`);
  }, [auth, authenticated, location.pathname, location.search, navigate]);

  return authenticated;
}
