// What every part of a flow screen is given: the step, the runner driving it, its state and context.
import type { ReactNode } from 'react';
import type { FlowRunner, FlowState } from '../../../flow/engine.ts';
import type { LoadedForm } from '../../../flow/forms.ts';
import type { FlowContext, Step, TextRef } from '../../../flow/types.ts';

export type Translate = (text: TextRef) => string;

export interface StepViewProps {
  step: Step;
  runner: FlowRunner;
  state: FlowState;
  context: FlowContext;
  translate: Translate;
}

/** A step's form, loaded, with what goes above its button. */
export type StepFormProps = StepViewProps & { form: LoadedForm; aboveSubmit: ReactNode };
