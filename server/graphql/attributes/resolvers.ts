// Collected attributes in GraphQL: the JSONObject scalar they travel in, and the person's own
// attributes, which only that person reads (a workspace sees its membership's and its own, never
// what another workspace's signup collected about the identity).
import { eq } from 'drizzle-orm';
import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped, type ValueNode } from 'graphql';
import { users } from '../../db/schema.ts';
import type { Resolvers } from '../generated/resolvers.ts';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// A GraphQLError, so the refusal reaches the caller as a 400 (a plain error would be masked as a 500).
const notAnObject = () => new GraphQLError('A JSONObject must be a JSON object');

function objectOrRefuse(value: unknown): Record<string, unknown> {
  if (!isObject(value)) throw notAnObject();
  return value;
}

export const JSONObjectScalar = new GraphQLScalarType({
  name: 'JSONObject',
  description: 'A JSON object: values flows collect, by field name.',
  serialize: objectOrRefuse,
  parseValue: objectOrRefuse,
  parseLiteral(ast: ValueNode, variables) {
    if (ast.kind !== Kind.OBJECT) throw notAnObject();
    return valueFromASTUntyped(ast, variables) as Record<string, unknown>;
  },
});

export const attributeResolvers: Resolvers = {
  JSONObject: JSONObjectScalar,
  User: {
    identityAttributes: async (user, _args, { db, caller }) => {
      if (caller.kind !== 'member' || caller.tenantUserId !== user.id) return null;
      const [row] = await db.select({ attributes: users.attributes }).from(users).where(eq(users.id, caller.userId)).limit(1);
      return row?.attributes ?? {};
    },
  },
};
