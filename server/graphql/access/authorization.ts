// Authorization in one place: before anything executes, every root field the operation selects is
// checked against the privilege its @requires names. One denied field rejects the whole operation,
// so a mutation never runs halfway and no resolver sees an unauthorized caller.
import { Kind, getOperationAST, type DocumentNode, type FragmentDefinitionNode, type GraphQLError, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../context.ts';
import type { Caller } from '../../auth/caller-kinds.ts';
import { foyerError, type FoyerErrorCode } from '../errors.ts';
import type { RequiredPrivilege, Requirements } from './requirements.ts';

export interface Denial {
  code: Extract<FoyerErrorCode, 'UNAUTHENTICATED' | 'MEMBERSHIP_ENDED' | 'FORBIDDEN' | 'UNKNOWN_APP'>;
  message: string;
}

/** Why `caller` may not use a field requiring `required`, or null when it may. */
export function authorize(required: RequiredPrivilege | undefined, caller: Caller): Denial | null {
  // Fail closed: a field that names no privilege is nobody's.
  if (required === undefined) return { code: 'FORBIDDEN', message: 'This field names no privilege and is denied' };
  // A presented token that does not hold is never downgraded to an anonymous call.
  if (caller.kind === 'rejected') {
    if (caller.membershipEnded) return { code: 'MEMBERSHIP_ENDED', message: 'Your membership of this workspace has ended' };
    return { code: 'UNAUTHENTICATED', message: 'The access token is invalid or expired' };
  }
  if (required === 'ANONYMOUS') {
    if (caller.kind === 'anonymous' || caller.kind === 'member') return null;
    if (caller.kind === 'unknownApp') return { code: 'UNKNOWN_APP', message: 'Unknown app id' };
    return { code: 'UNKNOWN_APP', message: 'Send an x-app-id header or an access token' };
  }
  if (caller.kind !== 'member') return { code: 'UNAUTHENTICATED', message: 'Sign in to do this' };
  return caller.privileges.has(required) ? null : { code: 'FORBIDDEN', message: 'You are not allowed to do this' };
}

interface RootField {
  name: string;
  responseKey: string;
}

/** The root fields an operation selects, through fragments, whether or not @skip/@include apply. */
function rootFields(document: DocumentNode, selectionSet: SelectionSetNode): RootField[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const fields: RootField[] = [];
  const visited = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        fields.push({ name: selection.name.value, responseKey: selection.alias?.value ?? selection.name.value });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment && !visited.has(fragment.name.value)) {
          visited.add(fragment.name.value);
          walk(fragment.selectionSet);
        }
      }
    }
  };
  walk(selectionSet);
  return fields;
}

export function useFieldAuthorization(requirements: Requirements): Plugin<GraphQLContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      const root = operation && args.schema.getRootType(operation.operation);
      // Without a runnable operation graphql-js answers the error itself and executes nothing.
      if (!operation || !root) return;
      const errors: GraphQLError[] = [];
      for (const field of rootFields(args.document, operation.selectionSet)) {
        // Meta fields carry no data; introspection itself is governed by a validation rule.
        if (field.name.startsWith('__')) continue;
        const denial = authorize(requirements.get(`${root.name}.${field.name}`), args.contextValue.caller);
        if (denial) errors.push(foyerError(denial.code, denial.message, [field.responseKey]));
      }
      if (errors.length > 0) setResultAndStopExecution({ errors });
    },
  };
}
