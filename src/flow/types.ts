// The shape of flows/*.json, as fixed by schema/flow.schema.json.
import type { RedirectName } from './registry-names.ts';

/** A JSON Logic expression as read from JSON; plain values stand for themselves. */
export type JsonLogic = unknown;

export type ValueMapping = Record<string, JsonLogic>;

export type TextRef = string | { key: string; values?: ValueMapping };

export type AlertVariant = 'primary' | 'secondary' | 'danger' | 'warning' | 'success';
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'link';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'xl' | '2xl';

export type RouteTarget = { route: string; query?: ValueMapping; state?: ValueMapping; replace?: boolean };
export type RedirectTarget = { redirect: RedirectName; input?: ValueMapping };
export type Target = string | RouteTarget | RedirectTarget;

export interface Transition {
  if?: JsonLogic;
  goto?: Target;
  error?: string;
  reset?: boolean;
}

export interface GuardedAction {
  if?: JsonLogic;
  action: string;
  input?: ValueMapping;
}

export interface Notice {
  if?: JsonLogic;
  variant?: AlertVariant;
  title?: string;
  message: string;
}

interface SlotBase {
  if?: JsonLogic;
  placement?: 'before' | 'after';
}

export type Slot =
  | (SlotBase & {
      type: 'button';
      label: TextRef;
      goto: Target;
      reset?: boolean;
      variant?: ButtonVariant;
      size?: ButtonSize;
    })
  | (SlotBase & { type: 'link'; label: TextRef; prefix?: TextRef; to?: string; href?: JsonLogic })
  | (SlotBase & { type: 'divider'; label?: TextRef })
  | (SlotBase & { type: 'alert'; variant?: AlertVariant; title?: TextRef; message: TextRef })
  | (SlotBase & { type: 'component'; component: string; props?: ValueMapping });

export interface ErrorMap {
  title?: string;
  codes?: Record<string, string>;
  default: string;
  clear?: string[];
}

export interface StepSubmit {
  label?: TextRef;
  action?: string;
  input?: ValueMapping;
  disabledIf?: JsonLogic;
  size?: ButtonSize;
  hidden?: boolean;
}

export interface Step {
  heading?: TextRef;
  subheading?: TextRef;
  form?: string;
  component?: string;
  props?: ValueMapping;
  load?: GuardedAction;
  defaults?: ValueMapping;
  auto?: Transition[];
  submit?: StepSubmit;
  next?: Transition[];
  onError?: ErrorMap;
  slots?: Slot[];
}

export interface Flow {
  id: string;
  routes: string[];
  title: string;
  initial: string;
  onEnter?: GuardedAction[];
  notices?: Notice[];
  steps: Record<string, Step>;
}

/** The data JSON Logic sees. */
export interface FlowContext {
  app: Record<string, unknown>;
  config: Record<string, unknown>;
  query: Record<string, string>;
  form: Record<string, unknown>;
  result: unknown;
  results: Record<string, unknown>;
  user: Record<string, unknown>;
  tenant: Record<string, unknown>;
  step: string;
  error: FlowAlert | null;
}

/** The part of the context that comes from outside the flow. */
export type FlowEnvironment = Pick<FlowContext, 'app' | 'config' | 'query' | 'user' | 'tenant'>;

export interface FlowAlert {
  variant: AlertVariant;
  title: string;
  message: string;
}
