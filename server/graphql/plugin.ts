// POST /graphql on the API host. Fastify reads the request (JSON only, size-limited, its own
// malformed-body errors); Yoga runs the operation with Foyer's authorization, limits and error shape.
//
// CORS: the callers are browsers on the hosted UI's origin and on every app's own origins, which the
// operator may not list anywhere. The endpoint is answered with `Access-Control-Allow-Origin: *` and
// never with credentials: it reads no cookies, the caller is only what the Authorization header
// proves, so a foreign page can do nothing here that it could not do with its own token. With `*`
// browsers also withhold any cookie-carrying response from the page, should a cookie ever appear.
import cors from '@fastify/cors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { YogaServerInstance } from 'graphql-yoga';
import type { FoyerContext } from '../context.ts';
import { badRequest, HttpError, toErrorBody, type ErrorBody } from '../http/errors.ts';
import type { GraphQLContext } from './context.ts';
import { attributeCatalog } from './attributes/catalog.ts';
import type { ServerContext } from './yoga.ts';

export const GRAPHQL_PATH = '/graphql';

/**
 * Characters in a query document; the runtime's largest is under 1,000. The other limits on what one
 * request may ask for are Yoga's plugins (server/graphql/limits.ts), loaded with the engine.
 */
const MAX_QUERY_LENGTH = 20_000;

/**
 * Refuses (400) a body that is not a GraphQL request object before Yoga sees it: Yoga would try to
 * re-read the already consumed request stream for an empty object, and a clear message beats that.
 */
function checkBody(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Send a JSON object: {"query": "...", "variables": {...}, "operationName": "..."}');
  }
  const { query } = body as { query?: unknown };
  if (typeof query !== 'string' || query.trim() === '') throw badRequest('The body needs a "query" string');
  if (query.length > MAX_QUERY_LENGTH) throw badRequest(`The query is longer than ${MAX_QUERY_LENGTH} characters`);
}

/** REST clients read {statusCode, message, error}; GraphQL clients read errors[].extensions. */
function graphqlErrorBody(body: ErrorBody) {
  return {
    ...body,
    errors: [{ message: body.message, extensions: { code: body.error, response: { statusCode: body.statusCode } } }],
  };
}

/**
 * A refused operation (4xx, 5xx) carries the REST error shape beside `errors`, from its first error,
 * as graphqlErrorBody does for the requests Fastify refuses: every failed answer reads the same.
 */
function withErrorShape(status: number, text: string): string {
  let body: { errors?: { message?: unknown; extensions?: { code?: unknown } }[] };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return text;
  }
  const first = body.errors?.[0];
  if (!first) return text;
  const error = typeof first.extensions?.code === 'string' ? first.extensions.code : 'BAD_REQUEST';
  return JSON.stringify({ statusCode: status, error, message: String(first.message ?? ''), ...body });
}

export async function graphqlPlugin(app: FastifyInstance, context: FoyerContext): Promise<void> {
  // Read now, so flows that collect what their forms do not define stop the start, not a signup.
  attributeCatalog(context.config);
  // Built on the first request (server/graphql/yoga.ts says why); requests arriving meanwhile wait
  // for the same one. A failed build is not kept, so the next request tries again.
  let yoga: Promise<YogaServerInstance<ServerContext, GraphQLContext>> | undefined;
  const yogaOf = () =>
    (yoga ??= import('./yoga.ts')
      .then(({ createFoyerYoga }) => createFoyerYoga(context, app, GRAPHQL_PATH))
      .catch((error: unknown) => {
        yoga = undefined;
        throw error;
      }));

  // Only JSON bodies reach /graphql; anything else is 415 from Fastify.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const body = toErrorBody(error);
    if (body.statusCode >= 500) request.log.error({ err: error }, 'graphql request failed');
    return reply.status(body.statusCode).send(graphqlErrorBody(body));
  });

  const runYoga = async (request: FastifyRequest, reply: FastifyReply) => {
    const response = await (await yogaOf()).handleNodeRequestAndResponse(request, reply, { fastifyRequest: request, reply });
    response.headers.forEach((value, key) => reply.header(key, value));
    const text = await response.text();
    return reply.status(response.status).send(response.status >= 400 ? withErrorShape(response.status, text) : text);
  };

  // Any origin, without credentials (the caller is the bearer token, never a cookie). Whatever headers
  // the runtime adds are let through; the server reads only Authorization, x-app-id and Content-Type.
  await app.register(cors, { origin: '*', methods: ['POST'], maxAge: 600 });

  app.post(GRAPHQL_PATH, async (request, reply) => {
    checkBody(request.body);
    return runYoga(request, reply);
  });

  // Operations only over POST. In development a browser opening /graphql gets GraphiQL.
  app.get(GRAPHQL_PATH, async (request, reply) => {
    const wantsPage = request.headers.accept?.includes('text/html') ?? false;
    if (context.config.env === 'development' && wantsPage) return runYoga(request, reply);
    reply.header('allow', 'POST');
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'Send GraphQL operations with POST');
  });
}
