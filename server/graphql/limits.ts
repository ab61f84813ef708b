// Limits on what one request may ask for. The deepest document the runtime sends
// (GetTenantPaymentDetails: details → plan → prices → amount) is 4 levels deep and costs well under
// 200, so these leave room for growth while refusing recursive or alias-multiplied bombs.
import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  type ASTVisitor,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';

export const MAX_DEPTH = 8;
export const MAX_COST = 2000;
/**
 * Fields at the top of one operation, aliases and fragments included. Each root field of the API
 * reads the database at least once (countUsers and listUsers search the whole workspace), so the
 * cost limit, which counts fields alike, cannot bound them: hundreds of aliased countUsers once
 * cost minutes of database time. The runtime asks for at most three at once.
 */
export const MAX_ROOT_FIELDS = 10;
/** Characters in a query document; the runtime's largest is under 1,000. */
export const MAX_QUERY_LENGTH = 20_000;

// Report a rejection as a validation error (400) instead of throwing out of the validator.
const reject = [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)];

/** Root fields of `selectionSet`, fragments expanded (each fragment once per path, so cycles end). */
function countRootFields(context: ValidationContext, selectionSet: SelectionSetNode, expanding: ReadonlySet<string>): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) total += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) total += countRootFields(context, selection.selectionSet, expanding);
    else {
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      if (fragment && !expanding.has(name)) total += countRootFields(context, fragment.selectionSet, new Set([...expanding, name]));
    }
  }
  return total;
}

function rootFieldLimit(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const total = countRootFields(context, operation.selectionSet, new Set());
      if (total > MAX_ROOT_FIELDS) {
        context.reportError(
          new GraphQLError(`At most ${MAX_ROOT_FIELDS} fields at the top of an operation; this one asks for ${total}`, { nodes: [operation] }),
        );
      }
    },
  };
}

export function queryLimitPlugins(options: { introspection: boolean }): Plugin[] {
  const plugins: Plugin[] = [
    {
      onValidate({ addValidationRule }) {
        addValidationRule(rootFieldLimit);
      },
    },
    maxDepthPlugin({ n: MAX_DEPTH, flattenFragments: true, onReject: reject, propagateOnRejection: false }),
    costLimitPlugin({ maxCost: MAX_COST, flattenFragments: true, onReject: reject, propagateOnRejection: false }),
  ];
  if (!options.introspection) {
    plugins.push({
      onValidate({ addValidationRule }) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
      },
    });
  }
  return plugins;
}
