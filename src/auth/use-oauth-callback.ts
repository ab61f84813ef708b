// The OAuth callback screens' one job, shared by the hosted runtime and the configurator: exchange the
// code in the address once and hand the return path on, or say which translation key describes the
// failure (never a stuck spinner).
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { AuthError } from './errors.ts';
import type { AuthClient } from './types.ts';

/** Answers the failure's translation key (`fallbackKey` for anything but an AuthError), null while it goes well. */
export function useOAuthCallback(auth: AuthClient, onSignedIn: (returnPath: string) => void, fallbackKey: string): string | null {
  const location = useLocation();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;

  useEffect(() => {
    // The code is single-use: exchange it once even if the effect runs twice.
    if (started.current) return;
    started.current = true;
    auth
      .handleCallback(new URLSearchParams(location.search))
      .then((path) => signedIn.current(path))
      .catch((error: unknown) => setFailure(error instanceof AuthError ? error.key : fallbackKey));
  }, [auth, location.search, fallbackKey]);

  return failure;
}
