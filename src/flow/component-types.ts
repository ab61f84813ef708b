// What a registered flow component receives: its evaluated props and the runner's form operations.
import type { FlowStatus } from './engine.ts';
import type { Target } from './types.ts';

export interface FlowComponentProps {
  props: Record<string, unknown>;
  form: Record<string, unknown>;
  status: FlowStatus;
  setForm(values: Record<string, unknown>): void;
  submit(values?: Record<string, unknown>): void;
  /** Takes a move the flow names in the component's props (a step, route or redirect). */
  follow?(target: Target): void;
}
