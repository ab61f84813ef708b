// /handover/*: an app hands a user over to the hosted runtime (docs/SPEC.md section 2). The app id switch
// (a different ?appId is stored) happens at page load for every address (src/app/launch.ts); here
// the flow and its args decide (src/app/handover.ts): sign out first, or exchange the handover code
// for a session, then go to the flow's screen. A failed exchange shows its error, never a blank page.
// The code and its verifier were taken out of the address at load (src/app/handover-address.ts).
import { useEffect, useRef, useState } from 'react';
import { useTexts } from '../../i18n/texts.ts';
import { useLocation, useNavigate } from 'react-router';
import { AuthError } from '../../auth/index.ts';
import { Alert } from '../../theme/Alert.tsx';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { useRuntime } from '../../runtime/context.tsx';
import { usePageTitle } from '../page-title.ts';
import { parseHandoverArgs, planHandover } from '../handover.ts';
import { handoverSecrets } from '../handover-address.ts';

export default function Handover() {
  const { t } = useTexts();
  usePageTitle(t('handover.redirecting'));
  const { auth } = useRuntime();
  const location = useLocation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // A handover code is single-use: act once even if the effect runs twice.
    if (started.current) return;
    started.current = true;
    const query = new URLSearchParams(location.search);
    const { args, codeVerifier } = handoverSecrets();
    const plan = planHandover(query.get('flow'), parseHandoverArgs(args), window.location.origin);
    const run = async () => {
      if (plan.signOut) auth.clear();
      if (plan.exchangeCode !== undefined) await auth.exchangeHandoverCode(plan.exchangeCode, codeVerifier);
      await navigate(plan.target, { replace: true });
    };
    run().catch((error: unknown) => setFailure(error instanceof AuthError ? error.key : 'login.errors.generic'));
  }, [auth, location.search, navigate]);

  return (
    <AuthLayout heading={t('handover.redirecting')}>
      {failure ? (
        <Alert variant="danger" title={t('errors.title')}>
          {t(failure)}
        </Alert>
      ) : (
        <p role="status" className="foyer-center">
          {t('handover.redirecting')}
        </p>
      )}
    </AuthLayout>
  );
}
