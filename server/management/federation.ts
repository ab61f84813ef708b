// The management API's /federation/connection CRUD in the original product's shape (ORIGINAL-CONTRACT.md
// section 4: {type, name, clientId?, loginUrl, certificate, requestMethod, signedRequest, ...}), for
// an app's back end with one of its API keys. In Foyer a connection belongs to a workspace (the
// x-tenant-id header, as on /tenant/user*) and serves the e-mail domains it lists, each proved by a
// DNS TXT record before it captures logins; the rules are the workspace owner's (server/auth/enterprise/
// connections.ts). Foyer sends SAML requests by redirect, unsigned: a POST binding or a signed request
// is refused with a field message rather than stored and ignored.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { FoyerContext } from '../context.ts';
import type { App } from '../apps/lookup.ts';
import { findTenant } from '../payments/service.ts';
import {
  ConnectionInputError,
  connectionView,
  createConnection,
  deleteConnection,
  findConnection,
  listConnections,
  updateConnection,
  type ConnectionInput,
  type ConnectionView,
} from '../auth/enterprise/connections.ts';
import { ErrorBody, IdParams, TenantHeaders } from './schemas.ts';
import { badInput, ManagementError, unknownTenant } from './errors.ts';
import { keyedIssue, type FieldIssue } from '../http/field-issues.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const FederationConnectionBody = Type.Object(
  {
    type: Type.Union([Type.Literal('saml'), Type.Literal('oidc')], { description: 'Set on creation; a connection keeps its type' }),
    name: Type.String({ maxLength: 200 }),
    clientId: Type.Optional(Type.String({ maxLength: 500, description: 'OIDC: the client id at the IdP' })),
    clientSecret: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: 'OIDC: the client secret (stored encrypted, never answered); left out on an update, the stored one stays',
      }),
    ),
    loginUrl: Type.String({
      maxLength: 2048,
      description: "SAML: the IdP's sign-in URL. OIDC: the issuer, whose discovery document names the endpoints",
    }),
    entityId: Type.Optional(Type.String({ maxLength: 2048, description: "SAML: the IdP's entity id (its responses' Issuer)" })),
    certificate: Type.Optional(
      Type.String({ maxLength: 20_000, description: "SAML: the IdP's X.509 signing certificate (PEM or base64)" }),
    ),
    requestMethod: Type.Optional(
      Type.Union([Type.Literal('GET'), Type.Literal('POST')], { description: 'Only GET (the redirect binding)' }),
    ),
    signedRequest: Type.Optional(Type.Boolean({ description: 'Only false: Foyer sends unsigned AuthnRequests' })),
    signedRequestAlgorithm: Type.Optional(Type.Union([Type.Literal('sha256'), Type.Literal('sha512')])),
    signedRequestPrivateKey: Type.Optional(Type.String({ maxLength: 20_000 })),
    domains: Type.Array(Type.String({ maxLength: 253 }), {
      maxItems: 50,
      description: 'The e-mail domains whose logins the connection serves',
    }),
    defaultRole: Type.Optional(
      Type.String({ maxLength: 50, description: 'ADMIN, MANAGER or VIEWER (the default) for people who join just in time' }),
    ),
  },
  { additionalProperties: false },
);

export const FederationConnection = Type.Object({
  id: Type.String(),
  type: Type.String({ enum: ['saml', 'oidc'] }),
  name: Type.String(),
  clientId: Nullable(Type.String()),
  hasClientSecret: Type.Boolean(),
  loginUrl: Nullable(Type.String()),
  entityId: Nullable(Type.String()),
  certificate: Nullable(Type.String()),
  requestMethod: Type.Literal('GET'),
  signedRequest: Type.Literal(false),
  defaultRole: Type.String(),
  domains: Type.Array(Type.Object({ domain: Type.String(), verified: Type.Boolean(), verificationRecord: Type.String() })),
  redirectUri: Nullable(Type.String({ description: 'OIDC: the redirect URI to register at the IdP' })),
  spEntityId: Nullable(Type.String({ description: "SAML: Foyer's entity id (the Audience) for this connection" })),
  acsUrl: Nullable(Type.String({ description: 'SAML: where the IdP posts its responses' })),
});

type Body = Static<typeof FederationConnectionBody>;

const notFound = () => new ManagementError(404, 'NOT_FOUND', 'This workspace has no such federation connection');

function originalShape(view: ConnectionView): Static<typeof FederationConnection> {
  const saml = view.kind === 'saml';
  return {
    id: view.id,
    type: view.kind,
    name: view.name,
    clientId: saml ? null : view.oidcClientId,
    hasClientSecret: view.hasClientSecret,
    loginUrl: saml ? view.samlSsoUrl : view.oidcIssuer,
    entityId: saml ? view.samlIdpEntityId : null,
    certificate: view.samlCertificate,
    requestMethod: 'GET',
    signedRequest: false,
    defaultRole: view.defaultRole,
    domains: view.domains,
    redirectUri: view.redirectUri,
    spEntityId: view.spEntityId,
    acsUrl: view.acsUrl,
  };
}

/** The body as Foyer's connection input; the request options Foyer does not offer are refused by name. */
function connectionInput(body: Body): ConnectionInput {
  const unsupported: Record<string, FieldIssue> = {};
  if (body.requestMethod === 'POST')
    unsupported.requestMethod = keyedIssue('redirectBinding', 'Foyer sends SAML requests by redirect: use GET');
  if (body.signedRequest === true || body.signedRequestPrivateKey !== undefined || body.signedRequestAlgorithm !== undefined) {
    unsupported.signedRequest = keyedIssue('unsignedRequests', 'Foyer sends unsigned SAML requests; leave signedRequest false');
  }
  if (Object.keys(unsupported).length > 0) throw badInput(unsupported);
  const saml = body.type === 'saml';
  return {
    kind: body.type,
    name: body.name,
    defaultRole: body.defaultRole ?? 'VIEWER',
    domains: body.domains,
    ...(saml
      ? { samlSsoUrl: body.loginUrl, samlIdpEntityId: body.entityId ?? null, samlCertificate: body.certificate ?? null }
      : { oidcIssuer: body.loginUrl, oidcClientId: body.clientId ?? null, oidcClientSecret: body.clientSecret ?? null }),
  };
}

/** Field problems under the original body's names (loginUrl, certificate...), as the other management routes answer them. */
const FIELD_NAMES: Record<string, string> = {
  oidcIssuer: 'loginUrl',
  samlSsoUrl: 'loginUrl',
  oidcClientId: 'clientId',
  oidcClientSecret: 'clientSecret',
  samlIdpEntityId: 'entityId',
  samlCertificate: 'certificate',
};

async function checked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ConnectionInputError)) throw error;
    throw badInput(Object.fromEntries(Object.entries(error.fields).map(([field, issue]) => [FIELD_NAMES[field] ?? field, issue])));
  }
}

export interface FederationRouteOptions {
  context: FoyerContext;
  /** The app of the request's API key (the management plugin checked the key before this runs). */
  appOf(request: FastifyRequest): App;
  /** The OpenAPI tags of the management routes. */
  tags: string[];
}

export async function managementFederationRoutes(parent: FastifyInstance, { context, appOf, tags }: FederationRouteOptions): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = context;
  const refusals = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody };
  const route = (summary: string) => ({ tags, security: [{ apiKey: [] }], summary, headers: TenantHeaders });

  /** The key's app and the workspace x-tenant-id names, when it is one of the app's. */
  async function workspaceOf(request: FastifyRequest) {
    const keyApp = appOf(request);
    const tenantId = String(request.headers['x-tenant-id']);
    if (!(await findTenant(db, keyApp.id, tenantId))) throw unknownTenant();
    return { appId: keyApp.id, tenantId };
  }

  async function answer(tenantId: string, id: string) {
    const found = (await listConnections(db, tenantId)).find((entry) => entry.connection.id === id);
    if (!found) throw notFound();
    return originalShape(connectionView(config, found.connection, found.domains));
  }

  app.get(
    '/federation/connection',
    { schema: { ...route("The workspace's federation connections"), response: { 200: Type.Array(FederationConnection), ...refusals } } },
    async (request) => {
      const { tenantId } = await workspaceOf(request);
      return (await listConnections(db, tenantId)).map((entry) => originalShape(connectionView(config, entry.connection, entry.domains)));
    },
  );

  app.post(
    '/federation/connection',
    {
      schema: {
        ...route('Add a federation connection to the workspace'),
        body: FederationConnectionBody,
        response: { 201: FederationConnection, ...refusals },
      },
    },
    async (request, reply) => {
      const scope = await workspaceOf(request);
      const created = await checked(() => createConnection(config, db, scope, connectionInput(request.body)));
      return reply.status(201).send(await answer(scope.tenantId, created.id));
    },
  );

  app.get(
    '/federation/connection/:id',
    { schema: { ...route('A federation connection'), params: IdParams, response: { 200: FederationConnection, ...refusals } } },
    async (request) => answer((await workspaceOf(request)).tenantId, request.params.id),
  );

  app.put(
    '/federation/connection/:id',
    {
      schema: {
        ...route('Change a federation connection'),
        params: IdParams,
        body: FederationConnectionBody,
        response: { 200: FederationConnection, ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = await workspaceOf(request);
      const existing = await findConnection(db, tenantId, request.params.id);
      if (!existing) throw notFound();
      if (existing.kind !== request.body.type) {
        throw badInput({ type: keyedIssue('typeFixed', 'A connection keeps its type') });
      }
      await checked(() => updateConnection(config, db, existing, connectionInput(request.body)));
      return answer(tenantId, existing.id);
    },
  );

  app.delete(
    '/federation/connection/:id',
    { schema: { ...route('Remove a federation connection'), params: IdParams, response: { 204: Type.Null(), ...refusals } } },
    async (request, reply) => {
      const { tenantId } = await workspaceOf(request);
      const existing = await findConnection(db, tenantId, request.params.id);
      if (!existing) throw notFound();
      await deleteConnection(db, existing);
      return reply.status(204).send(null);
    },
  );
}
