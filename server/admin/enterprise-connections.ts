// A workspace's enterprise connections through the admin API (/admin/apps/{appId}/tenants/{tenantId}/
// enterprise-connections...), registered inside the admin plugin as an extension (server/app.ts) so
// they share its callers, CORS and error answers. The app's owners (a console token whose role may
// change app settings) and the app's own API keys manage them; another app's workspace or connection
// reads as not found. The rules are the ones the workspace owner's GraphQL meets (server/auth/enterprise/connections.ts).
// Only they, the app's operator, release a verified domain claim (/apps/{appId}/enterprise-domains/
// {domain}): a domain has one verified claim per app, and a dispute over it is theirs to settle.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { FoyerContext } from '../context.ts';
import { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { appFor, resolveAdminCaller, type Access } from './caller.ts';
import { AdminError } from './errors.ts';
import { findTenant } from '../payments/service.ts';
import {
  ConnectionInputError,
  connectionById,
  connectionViewOf,
  createConnection,
  deleteConnection,
  findConnection,
  listConnections,
  connectionView,
  normalizeDomain,
  updateConnection,
  type ConnectionInput,
} from '../auth/enterprise/connections.ts';
import {
  claimRefusal,
  claimRefusalIssue,
  isRoleMailboxAt,
  releaseVerifiedClaim,
  roleMailboxIssue,
  sendDomainProof,
  verificationRecord,
  verifyDomain,
} from '../auth/enterprise/domains.ts';
import type { FieldIssue } from '../http/field-issues.ts';
import { ADMIN_SECURITY, ADMIN_TAG } from './plugin.ts';
import { recordAppAudit } from './service.ts';
import {
  DomainMailBody,
  DomainMailSent,
  EnterpriseConnectionAnswer,
  EnterpriseConnectionBody,
  EnterpriseConnectionList,
} from '../../common/api/admin.ts';
import { refusals } from '../../common/api/errors.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const WorkspaceParams = Type.Object({ appId: Id, tenantId: Id });
const ConnectionParams = Type.Object({ appId: Id, tenantId: Id, connectionId: Id });
const Domain = Type.String({ minLength: 1, maxLength: 253 });
const DomainParams = Type.Object({ appId: Id, tenantId: Id, connectionId: Id, domain: Domain });
const AppDomainParams = Type.Object({ appId: Id, domain: Domain });

const notFound = () => new AdminError(404, 'NOT_FOUND', 'This workspace has no such connection');
const unknownWorkspace = () => new AdminError(404, 'UNKNOWN_TENANT', 'This app has no such workspace');
const unknownClaim = () => new AdminError(404, 'UNKNOWN_DOMAIN_CLAIM', 'No connection of this app holds a verified claim of this domain');

/** A refused domain proof: 400 naming the field (`/domain` of the path, `/address` of the body) at fault. */
function refusedProof(code: string, path: string, issue: FieldIssue): AdminError {
  return new AdminError(400, code, issue.message, [{ path, code: issue.code, params: issue.params, message: issue.message }]);
}

/** A connection's field problems as the admin API names them: by JSON pointer into the body. */
function invalid(error: ConnectionInputError): AdminError {
  return new AdminError(
    400,
    'VALIDATION_FAILED',
    'The connection is not valid',
    Object.entries(error.fields).map(([field, issue]) => ({
      path: `/${field}`,
      code: issue.code,
      params: issue.params,
      message: issue.message,
    })),
  );
}

async function checked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConnectionInputError) throw invalid(error);
    throw error;
  }
}

export async function enterpriseAdminRoutes(parent: FastifyInstance, context: FoyerContext): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = context;
  const verifier = new AccessTokenVerifier(db, config.urls.auth);

  /** The workspace `tenantId` of app `appId`, when the caller may reach the app with `access`. */
  async function workspaceOf(request: FastifyRequest, params: Static<typeof WorkspaceParams>, access: Access) {
    const caller = await resolveAdminCaller(db, verifier, request);
    const found = await appFor(db, caller, params.appId, access);
    if (!(await findTenant(db, found.id, params.tenantId))) throw unknownWorkspace();
    return { appId: found.id, tenantId: params.tenantId };
  }

  /** The connection as the answer shows it; one deleted meanwhile answers like an unknown one. */
  async function viewOf(tenantId: string, id: string) {
    const view = await connectionViewOf(config, db, tenantId, id);
    if (!view) throw notFound();
    return view;
  }

  const base = '/apps/:appId/tenants/:tenantId/enterprise-connections';
  const route = (summary: string) => ({ tags: [ADMIN_TAG], summary, security: ADMIN_SECURITY });
  const refused = refusals(400, 401, 403, 404);

  app.get(
    base,
    {
      schema: {
        ...route("The workspace's enterprise connections"),
        params: WorkspaceParams,
        response: { 200: EnterpriseConnectionList, ...refused },
      },
    },
    async (request) => {
      const { tenantId } = await workspaceOf(request, request.params, 'read');
      const entries = await listConnections(db, tenantId);
      return { connections: entries.map((entry) => connectionView(config, entry.connection, entry.domains)) };
    },
  );

  app.post(
    base,
    {
      schema: {
        ...route('A new enterprise connection of the workspace'),
        params: WorkspaceParams,
        body: EnterpriseConnectionBody,
        response: { 201: EnterpriseConnectionAnswer, ...refused },
      },
    },
    async (request, reply) => {
      const scope = await workspaceOf(request, request.params, 'write');
      const created = await checked(() => createConnection(config, db, scope, request.body as ConnectionInput));
      return reply.status(201).send({ connection: await viewOf(scope.tenantId, created.id) });
    },
  );

  app.put(
    `${base}/:connectionId`,
    {
      schema: {
        ...route('Change an enterprise connection'),
        params: ConnectionParams,
        body: EnterpriseConnectionBody,
        response: { 200: EnterpriseConnectionAnswer, ...refused },
      },
    },
    async (request) => {
      const { tenantId } = await workspaceOf(request, request.params, 'write');
      const existing = await findConnection(db, tenantId, request.params.connectionId);
      if (!existing) throw notFound();
      await checked(() => updateConnection(config, db, existing, request.body as ConnectionInput));
      return { connection: await viewOf(tenantId, existing.id) };
    },
  );

  app.delete(
    `${base}/:connectionId`,
    { schema: { ...route('Delete an enterprise connection'), params: ConnectionParams, response: { 204: Type.Null(), ...refused } } },
    async (request, reply) => {
      const { tenantId } = await workspaceOf(request, request.params, 'write');
      const existing = await findConnection(db, tenantId, request.params.connectionId);
      if (!existing) throw notFound();
      await deleteConnection(db, existing);
      return reply.status(204).send(null);
    },
  );

  // Looks for the domain's TXT record now; a 400 names the record still missing.
  app.post(
    `${base}/:connectionId/domains/:domain/verify`,
    { schema: { ...route("Check a domain's proof"), params: DomainParams, response: { 200: EnterpriseConnectionAnswer, ...refused } } },
    async (request) => {
      const { tenantId } = await workspaceOf(request, request.params, 'write');
      const found = (await listConnections(db, tenantId)).find((entry) => entry.connection.id === request.params.connectionId);
      const claim = found?.domains.find((entry) => entry.domain === normalizeDomain(request.params.domain));
      if (!found || !claim) throw notFound();
      const outcome = await verifyDomain(config, db, claim);
      if (outcome === 'missing') {
        const record = verificationRecord(claim.token);
        throw refusedProof('DOMAIN_NOT_VERIFIED', '/domain', {
          code: 'txtRecordMissing',
          params: { record, domain: claim.domain },
          message: `No TXT record ${record} was found at ${claim.domain}`,
        });
      }
      if (outcome !== 'verified') throw refusedProof('DOMAIN_NOT_CLAIMABLE', '/domain', claimRefusalIssue(outcome, claim.domain));
      return { connection: await viewOf(tenantId, found.connection.id) };
    },
  );

  // The proof by mail: a link to one of the domain's role mailboxes; whoever reads that mailbox confirms it.
  app.post(
    `${base}/:connectionId/domains/:domain/mail`,
    {
      schema: {
        ...route('Mail a proof of the domain'),
        params: DomainParams,
        body: DomainMailBody,
        response: { 202: DomainMailSent, ...refusals(400, 401, 403, 404, 502) },
      },
    },
    async (request, reply) => {
      const { tenantId } = await workspaceOf(request, request.params, 'write');
      const found = (await listConnections(db, tenantId)).find((entry) => entry.connection.id === request.params.connectionId);
      const claim = found?.domains.find((entry) => entry.domain === normalizeDomain(request.params.domain));
      if (!found || !claim) throw notFound();
      if (!isRoleMailboxAt(claim.domain, request.body.address)) {
        throw refusedProof('VALIDATION_FAILED', '/address', roleMailboxIssue(claim.domain));
      }
      const refusal = await claimRefusal(db, claim);
      if (refusal) throw refusedProof('DOMAIN_NOT_CLAIMABLE', '/domain', claimRefusalIssue(refusal, claim.domain));
      if (!(await sendDomainProof(context, claim, request.body.address))) {
        throw new AdminError(502, 'MAIL_NOT_SENT', 'The proof mail could not be sent; try again later');
      }
      return reply.status(202).send({ sentTo: request.body.address.trim().toLowerCase() });
    },
  );
  // The operator releases the one verified claim of a domain (server/auth/enterprise/domains.ts).
  app.delete(
    '/apps/:appId/enterprise-domains/:domain',
    {
      schema: {
        ...route("Release the app's verified claim of an e-mail domain"),
        description:
          'The domain leaves the enterprise connection whose verified claim held it, so that another may claim and prove it. Audited (enterprise.domain_released).',
        params: AppDomainParams,
        response: { 204: Type.Null(), ...refused },
      },
    },
    async (request, reply) => {
      const caller = await resolveAdminCaller(db, verifier, request);
      const found = await appFor(db, caller, request.params.appId, 'write');
      const released = await releaseVerifiedClaim(db, found.id, normalizeDomain(request.params.domain));
      if (!released) throw unknownClaim();
      await recordAppAudit(db, { caller, ip: request.ip }, 'enterprise.domain_released', found.id, {
        domain: released.domain,
        connectionId: released.connectionId,
        tenantId: (await connectionById(db, released.connectionId))?.tenantId,
        verifiedAt: released.verifiedAt,
      });
      request.log.info({ domain: released.domain, connectionId: released.connectionId }, 'enterprise domain claim released');
      return reply.status(204).send(null);
    },
  );
}
