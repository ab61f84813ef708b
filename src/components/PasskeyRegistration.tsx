// 'Create Passkeys' on the set-password screen: registers a passkey for the user of the mailed link
// (props.token authorises it). Success is confirmed; failures are only logged, except a browser
// without WebAuthn.
import { useEffect, useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { useRuntime } from '../runtime/context.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { cancelCeremony, registerPasskey } from '../passkeys/ceremonies.ts';
import { Alert } from '../theme/Alert.tsx';
import { Button } from '../theme/Button.tsx';
import { required } from '../auth/capabilities.ts';

export default function PasskeyRegistration({ props, status }: FlowComponentProps) {
  const { t } = useTexts();
  const { auth } = useRuntime();
  const [state, setState] = useState<'idle' | 'busy' | 'created'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const token = typeof props.token === 'string' ? props.token : '';

  useEffect(() => cancelCeremony, []);

  const create = async () => {
    setState('busy');
    setProblem(null);
    const outcome = await registerPasskey(
      required(auth.passkeys, 'passkeys'),
      { forgotPasswordToken: token },
      { notCompleted: t('passkeys.registrationNotCompleted') },
    );
    setState(outcome.ok ? 'created' : 'idle');
    if (!outcome.ok && !outcome.aborted) setProblem(outcome.problem);
  };

  return (
    <div className="foyer-stack">
      <Button
        variant="secondary"
        size="lg"
        loading={state === 'busy'}
        disabled={token === '' || status === 'submitting' || status === 'leaving'}
        onClick={() => void create()}
      >
        {t('passkeys.create')}
      </Button>
      {state === 'created' && (
        <Alert variant="success" polite>
          {t('passkeys.created')}
        </Alert>
      )}
      {problem && <Alert variant="warning">{t(problem)}</Alert>}
    </div>
  );
}
