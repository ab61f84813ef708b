// JSON Logic is the only way a flow expresses conditions and values: data, never code.
import jsonLogic, { type RulesLogic } from 'json-logic-js';
import type { FlowContext, JsonLogic, TextRef, ValueMapping } from './types.ts';

export function evaluate(logic: JsonLogic, context: FlowContext): unknown {
  return jsonLogic.apply(logic as RulesLogic, context);
}

/** A missing condition holds; otherwise JSON Logic's truthiness (empty arrays are false). */
export function holds(condition: JsonLogic | undefined, context: FlowContext): boolean {
  if (condition === undefined) return true;
  return jsonLogic.truthy(evaluate(condition, context));
}

export function evaluateMapping(mapping: ValueMapping | undefined, context: FlowContext): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, logic] of Object.entries(mapping ?? {})) values[name] = evaluate(logic, context);
  return values;
}

export interface ResolvedText {
  key: string;
  values: Record<string, unknown>;
}

export function resolveText(text: TextRef, context: FlowContext): ResolvedText {
  if (typeof text === 'string') return { key: text, values: {} };
  return { key: text.key, values: evaluateMapping(text.values, context) };
}
