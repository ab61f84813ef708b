// What a registered flow component receives: its evaluated props and the runner's form operations.
import type { FlowStatus } from './engine.ts';

export interface FlowComponentProps {
  props: Record<string, unknown>;
  form: Record<string, unknown>;
  status: FlowStatus;
  setForm(values: Record<string, unknown>): void;
  submit(values?: Record<string, unknown>): void;
}
