// The step's main button: its label, busy while the flow works, disabled while the step says so.
import { submitDisabled } from '../../../flow/engine.ts';
import { Button } from '../../../theme/Button.tsx';
import type { StepViewProps } from './types.ts';

export function SubmitButton({ step, state, context, translate }: Omit<StepViewProps, 'runner'>) {
  if (!step.submit || step.submit.hidden) return null;
  const busy = state.status === 'submitting' || state.status === 'leaving';
  return (
    <Button
      type="submit"
      size={step.submit.size ?? 'lg'}
      loading={busy}
      disabled={!busy && (state.status !== 'idle' || submitDisabled(step, context))}
    >
      {translate(step.submit.label ?? 'actions.continue')}
    </Button>
  );
}
