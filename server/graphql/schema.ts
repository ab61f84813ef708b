// The executable schema: schema/api.graphql (the contract, read from the file) with the
// capabilities' resolvers. Query and Mutation fields no capability resolves yet answer
// NOT_IMPLEMENTED (501) instead of a null that a non-null field would turn into a 500.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { createSchema } from 'graphql-yoga';
import type { GraphQLContext } from './context.ts';
import type { Resolvers } from './generated/resolvers.ts';
import { notImplemented } from './errors.ts';

export const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schema/api.graphql');

export function buildFoyerSchema(resolvers: Resolvers, typeDefs = readFileSync(SCHEMA_FILE, 'utf8')): GraphQLSchema {
  const contract = buildSchema(typeDefs);
  const complete: Record<string, Record<string, unknown>> = { ...(resolvers as Record<string, Record<string, unknown>>) };
  for (const root of [contract.getQueryType(), contract.getMutationType()]) {
    if (!root) continue;
    const fields = { ...complete[root.name] };
    for (const name of Object.keys(root.getFields())) {
      fields[name] ??= () => {
        throw notImplemented(`${root.name}.${name}`);
      };
    }
    complete[root.name] = fields;
  }
  return createSchema<GraphQLContext>({
    typeDefs,
    resolvers: complete,
    // A resolver for a field the contract lacks is a typo: refuse to build the engine (tests/server/graphql/schema.test.ts builds it).
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
