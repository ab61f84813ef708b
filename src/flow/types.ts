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
/** A same-origin path computed from the context (e.g. the target carried through onboarding). */
export type PathTarget = { path: JsonLogic; state?: ValueMapping; replace?: boolean };
export type RedirectTarget = { redirect: RedirectName; input?: ValueMapping };
export type Target = string | RouteTarget | PathTarget | RedirectTarget;

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

/** A flow-level guard: leaves for `goto` when its condition holds (e.g. signed-out users to the login). */
export interface GuardedMove {
  if?: JsonLogic;
  goto: Target;
}

export type EnterEntry = GuardedAction | GuardedMove;

export interface Notice {
  if?: JsonLogic;
  variant?: AlertVariant;
  title?: string;
  message: string;
}

/** Who sees a slot: users holding one of `roles` and/or whose workspace plan is one of `plans`. */
export interface SlotAccess {
  roles?: string[];
  plans?: string[];
}

interface SlotBase {
  if?: JsonLogic;
  placement?: 'before' | 'after' | 'above-submit';
  access?: SlotAccess;
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
  /** Error codes that move to a target instead of showing the alert (e.g. an expired link). */
  goto?: Record<string, Target>;
  /** Server field names to form fields; "*" nests every other name under that field. */
  fields?: Record<string, string>;
}

export interface StepSubmit {
  label?: TextRef;
  action?: string;
  input?: ValueMapping;
  disabledIf?: JsonLogic;
  size?: ButtonSize;
  hidden?: boolean;
  /** Actions run in order after `action` succeeded (e.g. renewing tokens after a profile change). */
  then?: GuardedAction[];
}

/** Where the server stores a collected value: the person, the workspace membership or the workspace. */
export type AttributeTarget = 'user' | 'membership' | 'tenant';

export interface Step {
  heading?: TextRef;
  subheading?: TextRef;
  form?: string;
  component?: string;
  /** Fields of the step's form the server stores, by where they belong. */
  collect?: Record<string, AttributeTarget>;
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
  onEnter?: EnterEntry[];
  notices?: Notice[];
  steps: Record<string, Step>;
}

/** The data JSON Logic sees. */
export interface FlowContext {
  app: Record<string, unknown>;
  config: Record<string, unknown>;
  query: Record<string, string>;
  form: Record<string, unknown>;
  /** The values of every field a step of the flow collects (`collect`), for the action that stores them. */
  collected: Record<string, unknown>;
  result: unknown;
  results: Record<string, unknown>;
  user: Record<string, unknown>;
  tenant: Record<string, unknown>;
  /** Route parameters (e.g. `token` of /auth/set-password/:token). */
  params: Record<string, string>;
  /** Navigation state the previous screen handed over (e.g. `email`, `target`). */
  state: Record<string, unknown>;
  /** The current path with its query string. */
  path: string;
  step: string;
  error: FlowAlert | null;
}

/** The part of the context that comes from outside the flow. */
export type FlowEnvironment = Pick<FlowContext, 'app' | 'config' | 'query' | 'user' | 'tenant'> &
  Partial<Pick<FlowContext, 'params' | 'state' | 'path'>>;

export interface FlowAlert {
  variant: AlertVariant;
  title: string;
  message: string;
}
