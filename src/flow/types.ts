// The shape of flows/*.json: the types are generated from schema/flow.schema.json (by
// `npm run codegen`, into src/flow/generated/flow.ts) and named here, with the context the engine
// evaluates them over.
import type * as Schema from './generated/flow.ts';

/** A JSON Logic expression as read from JSON; plain values stand for themselves. */
export type JsonLogic = Schema.JsonLogic;
export type ValueMapping = Schema.ValueMapping;
export type TextRef = Schema.Text;

export type AlertVariant = Schema.AlertVariant;
export type ButtonVariant = Schema.ButtonVariant;
export type ButtonSize = Schema.ButtonSize;

export type Target = Schema.Target;
export type RouteTarget = Extract<Target, { route: string }>;
/** A same-origin path computed from the context (e.g. the target carried through onboarding). */
export type PathTarget = Extract<Target, { path: unknown }>;
export type RedirectTarget = Extract<Target, { redirect: string }>;

export type Transition = Schema.Transition;
export type GuardedAction = Schema.GuardedAction;
/** A flow-level guard: leaves for `goto` when its condition holds (e.g. signed-out users to the login). */
export type GuardedMove = Schema.GuardedMove;
export type EnterEntry = GuardedAction | GuardedMove;
export type Notice = Schema.Notice;

export type Slot = Schema.Slot;
/** Who sees a slot: users holding one of `roles` and/or whose workspace plan is one of `plans`. */
export type SlotAccess = Schema.Access;

export type ErrorMap = Schema.ErrorMap;
export type Step = Schema.Step;
export type StepSubmit = NonNullable<Step['submit']>;
/** Where the server stores a collected value: the person, the workspace membership or the workspace. */
export type AttributeTarget = NonNullable<Step['collect']>[string];

export type Flow = Schema.FoyerFlow;

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
