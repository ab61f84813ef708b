// JSON Logic is the only way a flow expresses conditions and values: data, never code.
import jsonLogic, { type RulesLogic } from 'json-logic-js';
import { passwordProblems } from '../../common/password-policy.ts';
import type { FlowContext, JsonLogic, TextRef, ValueMapping } from './types.ts';

type OwnerPatterns = typeof import('../../common/owner-pattern.ts');

// RE2 (common/owner-pattern.ts) is a large download only apps with a password complexity pattern need:
// it loads before such an app's first screen (src/start.tsx) or with a preview draft that sets one
// (src/preview/listener.ts). Until it has, a pattern matches nothing, so the button stays disabled.
let ownerPatterns: OwnerPatterns | undefined;
let ownerPatternsLoading: Promise<OwnerPatterns> | undefined;

/** Loads the matcher of owners' patterns (once). */
export async function loadOwnerPatterns(): Promise<void> {
  ownerPatternsLoading ??= import('../../common/owner-pattern.ts');
  ownerPatterns = await ownerPatternsLoading;
}

const matchesLoadedPattern = (pattern: string, value: string) => ownerPatterns?.matchesOwnerPattern(pattern, value) ?? false;

/**
 * Operations Foyer adds to JSON Logic (data still, never code):
 * - `{"passwordProblems": [password, enabled, complexityRegex]}` → the password policy's problem keys
 *   (an empty list passes); `enabled` false switches the checks off, a regex replaces the five checks.
 */
jsonLogic.add_operation('passwordProblems', (password: unknown, enabled: unknown, complexityRegex: unknown) =>
  passwordProblems(
    typeof password === 'string' ? password : '',
    {
      enabled: enabled !== false,
      complexityRegex: typeof complexityRegex === 'string' && complexityRegex ? complexityRegex : undefined,
    },
    matchesLoadedPattern,
  ),
);

export function evaluate(logic: JsonLogic, context: FlowContext): unknown {
  return jsonLogic.apply(logic as RulesLogic, context);
}

/** A missing condition holds; otherwise JSON Logic's truthiness (empty arrays are false). */
export function holds(condition: JsonLogic | undefined, context: FlowContext): boolean {
  if (condition === undefined) return true;
  return jsonLogic.truthy(evaluate(condition, context));
}

/**
 * Evaluates each named value. A dotted name builds nested objects ("tenant.owner.email"), and a null or
 * undefined answer leaves such a name out, so optional parts of an input appear only when they have a value.
 */
export function evaluateMapping(mapping: ValueMapping | undefined, context: FlowContext): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, logic] of Object.entries(mapping ?? {})) {
    const value = evaluate(logic, context);
    if (!name.includes('.')) {
      values[name] = value;
      continue;
    }
    if (value === null || value === undefined) continue;
    const path = name.split('.');
    if (path.some((part) => part === '__proto__' || part === 'constructor' || part === 'prototype' || part === '')) {
      throw new Error(`Invalid value name ${name}`);
    }
    let node = values;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      node = (node[part] = typeof next === 'object' && next !== null ? next : {}) as Record<string, unknown>;
    }
    node[path[path.length - 1]!] = value;
  }
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
