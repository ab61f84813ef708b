// Shipped flows tested by behaviour, not by their step names: a test walks whatever steps lead to
// the screen it is about (each answered with a value its form accepts) and names steps by what they
// show, so a step added to a shipped flow (issue 15's "Company size" before signup's form) breaks
// no test.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FlowRunner } from '../../../src/flow/engine.ts';
import type { Flow, Step } from '../../../src/flow/types.ts';

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minLength?: number;
  oneOf?: { const?: unknown }[];
}

function formSchema(form: string): { required?: string[]; properties?: Record<string, PropertySchema> } {
  const file = path.resolve('schema/forms', `${form}.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { schema: { required?: string[]; properties?: Record<string, PropertySchema> } })
    .schema;
}

/** A value `schema` accepts: its first option, else one of its type. */
function validValue(schema: PropertySchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.oneOf?.[0]?.const !== undefined) return schema.oneOf[0].const;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'number' || schema.type === 'integer') return schema.minimum ?? 1;
  return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
}

/** Values for every field `form` requires. */
export function answersFor(form: string): Record<string, unknown> {
  const schema = formSchema(form);
  return Object.fromEntries((schema.required ?? []).map((name) => [name, validValue(schema.properties?.[name] ?? {})]));
}

/** The step the runner shows. */
export function shownStep(runner: FlowRunner, flow: Flow): Step {
  return flow.steps[runner.getState().step]!;
}

/** The name of the one step of `flow` that `matches`. */
export function stepNameWhere(flow: Flow, matches: (step: Step) => boolean): string {
  const found = Object.entries(flow.steps).filter(([, step]) => matches(step));
  if (found.length !== 1) throw new Error(`${flow.id} has ${found.length} steps that match, not one`);
  return found[0]![0];
}

/** The name of the step of `flow` that shows `form` or the registered `component`. */
export function stepNameShowing(flow: Flow, shown: { form?: string; component?: string }): string {
  return stepNameWhere(
    flow,
    (step) =>
      (shown.form !== undefined && step.form === shown.form) || (shown.component !== undefined && step.component === shown.component),
  );
}

/** The step of `flow` that shows `form` (the test's screen, whatever the flow calls it). */
export function stepShowing(flow: Flow, form: string): Step {
  const step = Object.values(flow.steps).find((candidate) => candidate.form === form);
  if (!step) throw new Error(`${flow.id} has no step showing the form ${form}`);
  return step;
}

/**
 * Submits every step before the one showing `form`, each with values its form accepts, and answers
 * what those steps collected (the flow sends it as the collected attributes).
 */
export async function walkTo(runner: FlowRunner, flow: Flow, form: string): Promise<Record<string, unknown>> {
  const collected: Record<string, unknown> = {};
  for (let walked = 0; shownStep(runner, flow).form !== form; walked += 1) {
    const step = shownStep(runner, flow);
    if (walked === 10 || !step.form) throw new Error(`${flow.id}: no way from step ${runner.getState().step} to the form ${form}`);
    const answers = answersFor(step.form);
    for (const name of Object.keys(step.collect ?? {})) collected[name] = answers[name];
    await runner.submit(answers);
  }
  return collected;
}
