// The flow state machine: pure functions that read a flow, plus FlowRunner, which holds one open flow's
// state and performs its moves. No markup here; the renderer subscribes to FlowRunner.
import { safeReturnPath } from '../auth/return-path.ts';
import { alertFor, errorCodes, fieldErrorsFor, FlowError, serverFieldErrors, type FieldErrors } from './errors.ts';
import { evaluate, evaluateMapping, holds } from './logic.ts';
import { REDIRECT_ACTIONS } from './registry-names.ts';
import type { Flow, FlowAlert, FlowContext, FlowEnvironment, GuardedAction, Step, Target, Transition } from './types.ts';

export type ActionRunner = (name: string, input: Record<string, unknown>) => Promise<unknown>;
export type Navigate = (path: string, options: { state: Record<string, unknown>; replace: boolean }) => void;

export type FlowStatus = 'starting' | 'loading' | 'idle' | 'submitting' | 'leaving';

export interface FlowState {
  step: string;
  form: Record<string, unknown>;
  /** The answer of the last action. */
  result: unknown;
  /** Answers by the step that produced them. */
  results: Record<string, unknown>;
  alert: FlowAlert | null;
  /** Server answers about single fields, by form field path ("password", "customParams.size"). */
  fieldErrors: FieldErrors;
  status: FlowStatus;
  /** Changes whenever keyboard focus should go back to the step's first field. */
  focusKey: number;
  /** The fields a step's `defaults` filled in (a stored value shown for editing). */
  prefilled: string[];
}

export type Move =
  | { kind: 'step'; step: string }
  | { kind: 'route'; path: string; state: Record<string, unknown>; replace: boolean }
  | { kind: 'redirect'; action: string; input: Record<string, unknown> };

export function initialState(flow: Flow): FlowState {
  return {
    step: flow.initial,
    form: {},
    prefilled: [],
    result: undefined,
    results: {},
    alert: null,
    fieldErrors: {},
    status: 'starting',
    focusKey: 0,
  };
}

/** The step that collects each field (`collect`), by field name. */
export function collectingSteps(flow: Flow): Map<string, string> {
  const steps = new Map<string, string>();
  for (const [name, step] of Object.entries(flow.steps)) {
    for (const field of Object.keys(step.collect ?? {})) if (!steps.has(field)) steps.set(field, name);
  }
  return steps;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** Whether the flow opens its first step with nothing run before it: no onEnter entry holds, no load. */
export function opensAtOnce(flow: Flow, context: FlowContext): boolean {
  const first = stepOf(flow, flow.initial);
  return !(flow.onEnter ?? []).some((entry) => holds(entry.if, context)) && !(first.load && holds(first.load.if, context));
}

/** The form with a step's defaults in its empty fields, and the fields they filled. */
function withDefaults(state: FlowState, step: Step, context: FlowContext): Pick<FlowState, 'form' | 'prefilled'> {
  const defaults = evaluateMapping(step.defaults, context);
  const form = { ...state.form };
  const prefilled = new Set(state.prefilled);
  for (const [field, value] of Object.entries(defaults)) {
    if ((form[field] === undefined || form[field] === '') && !isEmpty(value)) {
      form[field] = value;
      prefilled.add(field);
    }
  }
  return { form, prefilled: [...prefilled] };
}

/**
 * The entered values of the fields the flow collects. A field left empty is left out, unless it
 * showed a stored value (`prefilled`) that the person cleared: then it is sent empty, which the
 * server takes as removing the value.
 */
export function collectedValues(flow: Flow, form: Record<string, unknown>, prefilled: readonly string[] = []): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of collectingSteps(flow).keys()) {
    const value = form[field];
    if (!isEmpty(value)) values[field] = value;
    else if (prefilled.includes(field)) values[field] = '';
  }
  return values;
}

export function buildContext(environment: FlowEnvironment, state: FlowState, flow?: Flow): FlowContext {
  return {
    params: {},
    state: {},
    path: '',
    ...environment,
    form: state.form,
    collected: flow ? collectedValues(flow, state.form, state.prefilled) : {},
    result: state.result,
    results: state.results,
    step: state.step,
    error: state.alert,
  };
}

export function stepOf(flow: Flow, name: string): Step {
  const step = flow.steps[name];
  if (!step) throw new Error(`Flow ${flow.id} has no step ${name}`);
  return step;
}

/** The first transition whose condition holds. */
export function pickTransition(transitions: Transition[] | undefined, context: FlowContext): Transition | undefined {
  return transitions?.find((transition) => holds(transition.if, context));
}

export function pathWithQuery(route: string, query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${route}${route.includes('?') ? '&' : '?'}${search}` : route;
}

/** Any origin serves: only the path part is compared, and it must stay on the page's own origin. */
const PATH_CHECK_ORIGIN = 'http://runtime.invalid';

export function resolveTarget(target: Target, context: FlowContext): Move {
  if (typeof target === 'string') return { kind: 'step', step: target };
  if ('path' in target) {
    const path = safeReturnPath(evaluate(target.path, context), PATH_CHECK_ORIGIN);
    if (!path) throw new Error('A flow target computed no same-origin path');
    return { kind: 'route', path, state: evaluateMapping(target.state, context), replace: target.replace ?? false };
  }
  if ('route' in target) {
    return {
      kind: 'route',
      path: pathWithQuery(target.route, evaluateMapping(target.query, context)),
      state: evaluateMapping(target.state, context),
      replace: target.replace ?? false,
    };
  }
  return { kind: 'redirect', action: REDIRECT_ACTIONS[target.redirect], input: evaluateMapping(target.input, context) };
}

/** The steps a step's transitions, error moves and buttons name. */
function stepTargets(step: Step): string[] {
  const targets: unknown[] = [
    ...(step.next ?? []).map((transition) => transition.goto),
    ...(step.auto ?? []).map((transition) => transition.goto),
    ...Object.values(step.onError?.goto ?? {}),
    ...(step.slots ?? []).map((slot) => (slot.type === 'button' ? slot.goto : undefined)),
  ];
  return targets.filter((target): target is string => typeof target === 'string');
}

/**
 * Whether a fresh start (a reload, an opened link) may open `name` directly: only when the flow
 * reaches it from its initial step through steps that run no action (no `load`, no submit action,
 * no `then`), so no step whose server action has not run is ever skipped. Answers typed before the
 * reload are gone; the server refuses what is missing.
 */
export function canResumeAt(flow: Flow, name: string): boolean {
  if (!Object.hasOwn(flow.steps, name)) return false;
  const seen = new Set<string>([flow.initial]);
  const queue = [flow.initial];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (current === name) return true;
    const step = flow.steps[current];
    if (!step || step.load || step.submit?.action || step.submit?.then?.length) continue;
    for (const target of stepTargets(step)) {
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return false;
}

/** True while the step's main button must stay disabled. */
export function submitDisabled(step: Step, context: FlowContext): boolean {
  return step.submit?.disabledIf !== undefined && holds(step.submit.disabledIf, context);
}

/** A failure the step's error map had no words for: its codes, and server field errors shown nowhere. */
export interface UnmappedError {
  flow: string;
  step: string;
  codes: string[];
  fields: string[];
  error: unknown;
}

export interface FlowRunnerOptions {
  flow: Flow;
  /** Told of every failure shown with the step's default text or with field errors placed nowhere (development: logged). */
  reportUnmapped?: (report: UnmappedError) => void;
  /** Read on every evaluation, so a signed-in user or a loaded app config is seen at once. */
  environment: () => FlowEnvironment;
  runAction: ActionRunner;
  navigate: Navigate;
}

export class FlowRunner {
  readonly flow: Flow;
  private state: FlowState;
  private readonly listeners = new Set<() => void>();
  private readonly options: FlowRunnerOptions;
  private started = false;
  /** Steps shown to the person (idle) since the flow opened: the ones browser history may return to. */
  private readonly shown = new Set<string>();

  constructor(options: FlowRunnerOptions) {
    this.options = options;
    this.flow = options.flow;
    this.state = initialState(options.flow);
    // The first frame, drawn by the server or not, already shows what the first step fills in.
    const context = this.context();
    if (opensAtOnce(this.flow, context)) this.state = { ...this.state, ...withDefaults(this.state, this.currentStep(), context) };
  }

  getState = (): FlowState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  context(): FlowContext {
    return buildContext(this.options.environment(), this.state, this.flow);
  }

  currentStep(): Step {
    return stepOf(this.flow, this.state.step);
  }

  /**
   * Runs the flow's onEnter entries (actions, or guards that leave), shows the first matching notice,
   * then opens the initial step, or `resume` (the step in the address) where canResumeAt allows it.
   */
  async start(resume?: string): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      for (const entry of this.flow.onEnter ?? []) {
        const context = this.context();
        if (!holds(entry.if, context)) continue;
        if ('goto' in entry) {
          await this.take({ goto: entry.goto });
          return;
        }
        await this.options.runAction(entry.action, evaluateMapping(entry.input, context));
      }
    } catch (error) {
      this.update({ alert: alertFor(error, undefined) });
    }
    const context = this.context();
    const notice = this.flow.notices?.find((item) => holds(item.if, context));
    if (notice) {
      this.update({
        alert: { variant: notice.variant ?? 'danger', title: notice.title ?? 'errors.title', message: notice.message },
      });
    }
    await this.enterStep(resume !== undefined && canResumeAt(this.flow, resume) ? resume : this.flow.initial, true);
  }

  /**
   * Shows a step shown before again, with every answer kept and nothing run (browser Back and
   * Forward). Answers false when that step was never shown or the flow is busy.
   */
  revisit(name: string): boolean {
    if (this.state.status !== 'idle' || !this.shown.has(name)) return false;
    if (name !== this.state.step) {
      this.update({ step: name, alert: null, fieldErrors: {}, focusKey: this.state.focusKey + 1 });
    }
    return true;
  }

  /** New values; a server error about a field goes away once that field changes. */
  setForm(values: Record<string, unknown>): void {
    const form = { ...this.state.form, ...values };
    // By value: the form renderer hands over fresh copies of fields nobody touched.
    const changed = (path: string) => {
      const field = path.split('.')[0]!;
      return JSON.stringify(form[field]) !== JSON.stringify(this.state.form[field]);
    };
    const fieldErrors = Object.fromEntries(Object.entries(this.state.fieldErrors).filter(([path]) => !changed(path)));
    this.update({ form, fieldErrors });
  }

  /** The step's main action: runs its submit action, then takes the first matching `next` transition. */
  async submit(values?: Record<string, unknown>): Promise<void> {
    if (this.state.status !== 'idle') return;
    if (values) this.setForm(values);
    const step = this.currentStep();
    if (submitDisabled(step, this.context())) return;
    this.update({ status: 'submitting', alert: null, fieldErrors: {} });
    try {
      if (step.submit?.action) {
        const context = this.context();
        const result = await this.options.runAction(step.submit.action, evaluateMapping(step.submit.input, context));
        this.update({ result, results: { ...this.state.results, [this.state.step]: result } });
      }
      await this.runActions(step.submit?.then);
      const transition = pickTransition(step.next, this.context());
      if (transition) await this.take(transition);
      else this.update({ status: 'idle' });
    } catch (error) {
      await this.fail(error, step);
    }
  }

  /** A side button's move (e.g. 'Try a different email'). */
  async follow(target: Target, reset = false): Promise<void> {
    if (this.state.status === 'submitting' || this.state.status === 'leaving') return;
    const step = this.currentStep();
    try {
      await this.take({ goto: target, reset });
    } catch (error) {
      await this.fail(error, step);
    }
  }

  private async runActions(actions: GuardedAction[] | undefined): Promise<void> {
    for (const entry of actions ?? []) {
      const context = this.context();
      if (holds(entry.if, context)) await this.options.runAction(entry.action, evaluateMapping(entry.input, context));
    }
  }

  private async take(transition: Transition): Promise<void> {
    if (transition.reset) this.update({ form: {}, prefilled: [], result: undefined, results: {}, alert: null, fieldErrors: {} });
    if (transition.error) throw new FlowError(transition.error);
    if (transition.goto === undefined) return;
    const move = resolveTarget(transition.goto, this.context());
    switch (move.kind) {
      case 'step':
        await this.enterStep(move.step, false);
        return;
      case 'route':
        this.update({ status: 'leaving' });
        this.options.navigate(move.path, { state: move.state, replace: move.replace });
        return;
      case 'redirect':
        this.update({ status: 'leaving' });
        await this.options.runAction(move.action, move.input);
        return;
    }
  }

  private async enterStep(name: string, keepAlert: boolean): Promise<void> {
    const step = stepOf(this.flow, name);
    this.update({
      step: name,
      status: step.load ? 'loading' : 'idle',
      alert: keepAlert ? this.state.alert : null,
      fieldErrors: {},
      focusKey: this.state.focusKey + 1,
    });
    try {
      if (step.load && holds(step.load.if, this.context())) {
        const result = await this.options.runAction(step.load.action, evaluateMapping(step.load.input, this.context()));
        this.update({ result, results: { ...this.state.results, [name]: result } });
      }
      this.applyDefaults(step);
      const transition = pickTransition(step.auto, this.context());
      if (transition) {
        this.update({ status: 'submitting' });
        await this.take(transition);
      } else {
        this.update({ status: 'idle' });
      }
    } catch (error) {
      await this.fail(error, step);
    }
  }

  private applyDefaults(step: Step): void {
    this.update(withDefaults(this.state, step, this.context()));
  }

  /** A failed action: either the error map moves on (onError.goto), or the alert and field errors show. */
  private async fail(error: unknown, step: Step): Promise<void> {
    const moveOn = errorCodes(error).find((code) => step.onError?.goto?.[code] !== undefined);
    if (moveOn !== undefined && this.state.status !== 'leaving') {
      try {
        this.update({ status: 'submitting' });
        await this.take({ goto: step.onError!.goto![moveOn]! });
        return;
      } catch (moveError) {
        error = moveError;
      }
    }
    const form = { ...this.state.form };
    for (const field of step.onError?.clear ?? []) delete form[field];
    const alert = alertFor(error, step.onError);
    // A refused value collected by an earlier step is shown there, at its field.
    const collecting = collectingSteps(this.flow);
    this.reportUnmapped(error, step, collecting);
    const collectedErrors = Object.entries(serverFieldErrors(error)).filter(([field]) => collecting.has(field));
    const earlier = collectedErrors.map(([field]) => collecting.get(field)!).find((name) => name !== this.state.step);
    if (earlier !== undefined && this.state.status !== 'leaving') {
      this.update({ form });
      await this.enterStep(earlier, false);
      const shown = collectedErrors.filter(([field]) => collecting.get(field) === earlier);
      this.update({ alert, fieldErrors: Object.fromEntries(shown), focusKey: this.state.focusKey + 1 });
      return;
    }
    this.update({
      alert,
      fieldErrors: { ...fieldErrorsFor(error, step.onError, new Set(collecting.keys())), ...Object.fromEntries(collectedErrors) },
      form,
      status: 'idle',
      focusKey: this.state.focusKey + 1,
    });
  }

  private reportUnmapped(error: unknown, step: Step, collecting: Map<string, string>): void {
    if (!this.options.reportUnmapped) return;
    const map = step.onError?.fields ?? {};
    const fields = Object.keys(serverFieldErrors(error)).filter(
      (name) => !collecting.has(name) && map[name] === undefined && map['*'] === undefined,
    );
    const mapped = errorCodes(error).some((code) => step.onError?.codes?.[code] !== undefined);
    if (!mapped || fields.length > 0) {
      this.options.reportUnmapped({ flow: this.flow.id, step: this.state.step, codes: errorCodes(error), fields, error });
    }
  }

  private update(patch: Partial<FlowState>): void {
    this.state = { ...this.state, ...patch };
    if (this.state.status === 'idle') this.shown.add(this.state.step);
    for (const listener of this.listeners) listener();
  }
}
