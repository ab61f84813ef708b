// The GraphQL engine behind POST /graphql: Foyer's schema with its resolvers, authorization and limits,
// run by Yoga. server/graphql/plugin.ts loads this module on the endpoint's first request, not at
// start: building the schema and loading Yoga took a twentieth of the server's CPU to its first
// answer (npm run bench -- server-start), and most starts serve no GraphQL for a while.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { FoyerContext } from '../context.ts';
import type { GraphQLContext } from './context.ts';
import { resolveCaller } from '../auth/callers.ts';
import { useFieldAuthorization } from './access/authorization.ts';
import { readRequirements } from './access/requirements.ts';
import { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { useFoyerErrorShape } from './errors.ts';
import { checkDatabaseCosts, queryLimitPlugins } from './limits.ts';
import { capabilityResolvers, mergeResolvers } from './resolvers.ts';
import { buildFoyerSchema } from './schema.ts';

/** Yoga's own context takes `request` for the Fetch API request, so Fastify's goes by another name. */
export interface ServerContext {
  fastifyRequest: FastifyRequest;
  reply: FastifyReply;
}

export function createFoyerYoga(
  { config, db, notifier, payments }: FoyerContext,
  app: FastifyInstance,
  graphqlEndpoint: string,
): YogaServerInstance<ServerContext, GraphQLContext> {
  const schema = buildFoyerSchema(mergeResolvers(capabilityResolvers));
  checkDatabaseCosts(schema);
  const verifier = new AccessTokenVerifier(db, config.urls.auth);
  const development = config.env === 'development';
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint,
    // Answered by the Fastify route (server/graphql/plugin.ts), so error answers get the headers too.
    cors: false,
    graphiql: development,
    landingPage: false,
    batching: false,
    // Unexpected errors become "Unexpected error." and are logged; never a stack or SQL text.
    maskedErrors: { isDev: false },
    logging: {
      debug: (...args) => app.log.debug({ args }, 'graphql'),
      info: (...args) => app.log.info({ args }, 'graphql'),
      warn: (...args) => app.log.warn({ args }, 'graphql'),
      // Masked errors arrive here with their stack and SQL: for the operator's log only.
      error: (error, ...args) => app.log.error({ err: error, args }, 'graphql request failed'),
    },
    context: async ({ request, fastifyRequest }) => {
      const caller = await resolveCaller(db, verifier, request.headers);
      if (caller.kind === 'rejected') app.log.info({ reason: caller.reason }, 'access token rejected');
      return { config, db, notifier, payments, caller, clientIp: fastifyRequest.ip, log: fastifyRequest.log };
    },
    plugins: [
      ...queryLimitPlugins({ introspection: development }),
      useFieldAuthorization(readRequirements(schema)),
      useFoyerErrorShape({ hideSuggestions: !development }),
    ],
  });
}
