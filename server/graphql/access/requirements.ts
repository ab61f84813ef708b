// Reads the privilege each Query and Mutation field names with @requires(privilege:) in
// schema/api.graphql, once at startup, so authorization has one table to consult.
import { Kind, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { Privilege as RequiredPrivilege } from '../generated/resolvers.ts';

export type { RequiredPrivilege };

/** Keyed by "Query.getMe", "Mutation.updateTenant" ... A field missing here names no privilege. */
export type Requirements = ReadonlyMap<string, RequiredPrivilege>;

const REQUIRED_PRIVILEGES: readonly RequiredPrivilege[] = [
  'ANONYMOUS',
  'AUTHENTICATED',
  'USER_READ',
  'USER_WRITE',
  'TENANT_READ',
  'TENANT_WRITE',
];

function requiredPrivilegeOf(field: GraphQLField<unknown, unknown>): RequiredPrivilege | undefined {
  const directive = field.astNode?.directives?.find((node) => node.name.value === 'requires');
  const argument = directive?.arguments?.find((node) => node.name.value === 'privilege');
  if (!argument) return undefined;
  const value = argument.value.kind === Kind.ENUM ? argument.value.value : undefined;
  if (!REQUIRED_PRIVILEGES.includes(value as RequiredPrivilege)) {
    throw new Error(`${field.name}: @requires names an unknown privilege`);
  }
  return value as RequiredPrivilege;
}

export function readRequirements(schema: GraphQLSchema): Requirements {
  const requirements = new Map<string, RequiredPrivilege>();
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) {
      const privilege = requiredPrivilegeOf(field);
      if (privilege) requirements.set(`${root.name}.${field.name}`, privilege);
    }
  }
  return requirements;
}
