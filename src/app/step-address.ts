// Each step of a multi-step flow has its own address: `?step=NAME`, except the first step shown, which
// keeps the address the flow was opened with. The flow moving pushes a history entry; browser Back and
// Forward move the flow to a step shown before, with every answer kept (FlowRunner.revisit); an opened
// address resumes at its step only where FlowRunner.start allows it (canResumeAt in src/flow/engine.ts).
import { useEffect, useRef } from 'react';
import type { FlowRunner, FlowState } from '../flow/engine.ts';
import { useAppLocation, useAppNavigate } from './navigation.tsx';

export const STEP_PARAM = 'step';

export function stepOfSearch(search: string): string | undefined {
  return new URLSearchParams(search).get(STEP_PARAM) ?? undefined;
}

/** `search` naming `step` (or no step), every other parameter kept in place. */
export function searchWithStep(search: string, step: string | undefined): string {
  const params = new URLSearchParams(search);
  if (step === undefined) params.delete(STEP_PARAM);
  else params.set(STEP_PARAM, step);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The step the address names when the screen opens: where the flow may resume. */
export function useOpenedStep(): string | undefined {
  const location = useAppLocation();
  const opened = useRef(stepOfSearch(location.search));
  return opened.current;
}

/** Keeps the address and the flow's step together (not in the configurator's preview: `enabled` false). */
export function useStepInAddress(runner: FlowRunner, state: FlowState, opened: string | undefined, enabled: boolean): void {
  const location = useAppLocation();
  const navigate = useAppNavigate();
  const addressStep = stepOfSearch(location.search);
  /** The first step shown and the step parameter its address has (none, or the step it resumed at). */
  const base = useRef<{ step: string; param: string | undefined } | undefined>(undefined);
  /** The step the address was last made to follow: a different one now means the flow moved. */
  const followed = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (!enabled || state.status !== 'idle') return;
    base.current ??= { step: state.step, param: state.step === opened ? opened : undefined };
    const { step: baseStep, param: baseParam } = base.current;
    const addressOf = (step: string) => (step === baseStep ? baseParam : step);
    const go = (step: string | undefined, replace: boolean) =>
      navigate(
        { pathname: location.pathname, search: searchWithStep(location.search, step), hash: location.hash },
        { state: location.state, replace },
      );
    if (followed.current !== state.step) {
      // The flow moved: the address follows, in a new history entry (the first time in place, so an
      // address naming a step the flow could not resume at is corrected rather than kept in history).
      const first = followed.current === undefined;
      followed.current = state.step;
      if (addressOf(state.step) !== addressStep) go(addressOf(state.step), first);
      return;
    }
    // Back or Forward: the flow follows the address to a step shown before; an address naming any
    // other step is put back to the step shown.
    const target = addressStep === baseParam ? baseStep : addressStep;
    if (target === state.step) return;
    if (target === undefined || !runner.revisit(target)) go(addressOf(state.step), true);
  }, [enabled, opened, runner, state.step, state.status, addressStep, location, navigate]);
}
