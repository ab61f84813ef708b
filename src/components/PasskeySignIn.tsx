// The login's passkey sign-in: a 'Sign in with Passkeys' button, and a conditional (autofill)
// request started on load when the browser supports it. A successful sign-in puts the answer in the
// form as `passkey` and takes the move the flow names in props.then (which routes it like a password
// login). A failure the person can act on is shown. The configurator's preview runs no ceremony.
// The WebAuthn library loads after the screen is drawn (on mount), not with it: a server-drawn login
// page loads this component before it hydrates (src/start.tsx), and the ceremony waits anyway.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { useRuntime } from '../runtime/context.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import type { Target } from '../flow/types.ts';
import { Alert } from '../theme/Alert.tsx';
import { Button } from '../theme/Button.tsx';
import { required } from '../auth/capabilities.ts';

type Ceremonies = typeof import('../passkeys/ceremonies.ts');

let ceremoniesLoaded: Ceremonies | undefined;
const loadCeremonies = async (): Promise<Ceremonies> => (ceremoniesLoaded ??= await import('../passkeys/ceremonies.ts'));

/** Resolves once the page has an input whose autocomplete ends in webauthn (the form renders beside this). */
function webauthnInput(signal: AbortSignal): Promise<void> {
  const present = () => document.querySelector("input[autocomplete$='webauthn']") !== null;
  if (present()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!present()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    signal.addEventListener('abort', () => observer.disconnect());
  });
}

export default function PasskeySignIn({ props, status, setForm, follow }: FlowComponentProps) {
  const { t } = useTexts();
  const { auth, config } = useRuntime();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const preview = config.preview;
  const mounted = useRef(true);
  const then = props.then as Target | undefined;

  const signIn = useCallback(
    async (autofill: boolean, signal?: AbortSignal): Promise<boolean> => {
      const { signInWithPasskey } = await loadCeremonies();
      const outcome = await signInWithPasskey(required(auth.passkeys, 'passkeys'), {
        autofill,
        signal,
        notCompleted: t('passkeys.authenticationNotCompleted'),
      });
      if (!mounted.current) return false;
      if (outcome.ok) {
        setForm({ passkey: outcome.value });
        if (then !== undefined) follow?.(then);
        return true;
      }
      if (!outcome.aborted) setProblem(outcome.problem);
      return false;
    },
    [auth, follow, setForm, t, then],
  );

  const startAutofill = useCallback(
    async (signal: AbortSignal) => {
      const [{ autofillAvailable }] = await Promise.all([loadCeremonies(), webauthnInput(signal)]);
      if (signal.aborted || !(await autofillAvailable()) || signal.aborted) return;
      await signIn(true, signal);
    },
    [signIn],
  );

  const autofillRun = useRef<AbortController | null>(null);
  const restartAutofill = useCallback(() => {
    autofillRun.current?.abort();
    const run = new AbortController();
    autofillRun.current = run;
    void startAutofill(run.signal);
  }, [startAutofill]);

  useEffect(() => {
    mounted.current = true;
    if (!preview) restartAutofill();
    return () => {
      mounted.current = false;
      autofillRun.current?.abort();
      // Nothing to cancel while the library has not loaded: no ceremony started.
      ceremoniesLoaded?.cancelCeremony();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- started once per mount: a conditional request waits as long as the login screen shows
  }, []);

  const onClick = async () => {
    if (preview) {
      setProblem('passkeys.problems.preview');
      return;
    }
    if (!(await loadCeremonies()).passkeysSupported()) {
      setProblem('passkeys.unsupported');
      return;
    }
    setBusy(true);
    setProblem(null);
    // Starting this ceremony aborts the waiting autofill request (or keeps a pending one from starting).
    autofillRun.current?.abort();
    const signedIn = await signIn(false);
    if (!mounted.current || signedIn) return;
    setBusy(false);
    restartAutofill();
  };

  return (
    <div className="foyer-stack">
      <Button
        variant="secondary"
        size="lg"
        loading={busy}
        disabled={status === 'submitting' || status === 'leaving'}
        onClick={() => void onClick()}
      >
        {t('passkeys.signIn')}
      </Button>
      {problem && <Alert variant="warning">{t(problem)}</Alert>}
    </div>
  );
}
