// Limits on what one request may ask for. The deepest document the runtime sends
// (GetTenantPaymentDetails: details → plan → prices → amount) is 4 levels deep and costs well under
// 200, so these leave room for growth while refusing recursive or alias-multiplied bombs.
import { NoSchemaIntrospectionCustomRule, type GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';

export const MAX_DEPTH = 8;
export const MAX_COST = 2000;
/** Characters in a query document; the runtime's largest is under 1,000. */
export const MAX_QUERY_LENGTH = 20_000;

// Report a rejection as a validation error (400) instead of throwing out of the validator.
const reject = [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)];

export function queryLimitPlugins(options: { introspection: boolean }): Plugin[] {
  const plugins: Plugin[] = [
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
