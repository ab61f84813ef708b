// Limits on what one request may ask for. The deepest document the runtime sends
// (GetTenantPaymentDetails: details → plan → prices → amount) is 4 levels deep and costs well under
// 200, so these leave room for growth while refusing recursive or alias-multiplied bombs.
import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  getNamedType,
  isObjectType,
  type ASTVisitor,
  type GraphQLObjectType,
  type GraphQLSchema,
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
/**
 * Database work per field. Every root field reads the database (weight 1 unless named here); a field
 * that searches, counts or pages a whole workspace weighs 10 (570 aliased countUsers once cost 34 s
 * at 10,000 members). Nested fields are read from what their root field loaded and weigh nothing.
 */
export const DATABASE_COSTS: Readonly<Record<string, number>> = {
  'Query.listUsers': 10,
  'Query.usersPage': 10,
  'Query.countUsers': 10,
  'Query.workspaceLog': 10,
  'Mutation.createUsers': 10,
};
/** The runtime's heaviest request, the users page (usersPage + countUsers + getTenant), costs 21. */
export const MAX_DATABASE_COST = 25;

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
          new GraphQLError(`At most ${MAX_ROOT_FIELDS} fields at the top of an operation; this one asks for ${total}`, {
            nodes: [operation],
          }),
        );
      }
    },
  };
}

/**
 * Refuses, as the engine is built (server/graphql/yoga.ts), a cost named for a field the schema
 * does not have (a renamed field would go free).
 */
export function checkDatabaseCosts(schema: GraphQLSchema): void {
  for (const key of Object.keys(DATABASE_COSTS)) {
    const [typeName, fieldName] = key.split('.');
    const type = schema.getType(typeName!);
    if (!isObjectType(type) || !type.getFields()[fieldName!]) throw new Error(`DATABASE_COSTS names ${key}, which the schema lacks`);
  }
}

/** The database cost of `selectionSet` on `parent`, fragments expanded (each once per path). */
function databaseCost(
  context: ValidationContext,
  parent: GraphQLObjectType,
  root: boolean,
  selectionSet: SelectionSetNode,
  expanding: ReadonlySet<string>,
): number {
  const schema = context.getSchema();
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = parent.getFields()[selection.name.value];
      // Unknown fields are reported by graphql's own rules.
      if (!field) continue;
      total += DATABASE_COSTS[`${parent.name}.${field.name}`] ?? (root ? 1 : 0);
      const type = getNamedType(field.type);
      if (selection.selectionSet && isObjectType(type)) total += databaseCost(context, type, false, selection.selectionSet, expanding);
      continue;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : context.getFragment(selection.name.value);
    if (!fragment) continue;
    if (selection.kind === Kind.FRAGMENT_SPREAD && expanding.has(selection.name.value)) continue;
    const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
    const next = selection.kind === Kind.FRAGMENT_SPREAD ? new Set([...expanding, selection.name.value]) : expanding;
    if (isObjectType(condition)) total += databaseCost(context, condition, root, fragment.selectionSet, next);
  }
  return total;
}

function databaseCostLimit(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const rootType = context.getSchema().getRootType(operation.operation);
      // Past the root-field cap the operation is already refused with the plainer message.
      if (!rootType || countRootFields(context, operation.selectionSet, new Set()) > MAX_ROOT_FIELDS) return;
      const total = databaseCost(context, rootType, true, operation.selectionSet, new Set());
      if (total > MAX_DATABASE_COST) {
        context.reportError(
          new GraphQLError(
            `An operation may have a database cost of at most ${MAX_DATABASE_COST} (a search, count or log page costs 10, any other field at the top 1); this one costs ${total}`,
            { nodes: [operation] },
          ),
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
        addValidationRule(databaseCostLimit);
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
