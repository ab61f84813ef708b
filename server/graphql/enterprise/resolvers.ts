// The workspace's enterprise sign-in connections (server/auth/enterprise/connections.ts), for its
// OWNERs only: TENANT_WRITE admits ADMINs to the fields too, so the role is checked here.
import type { Resolvers } from '../generated/resolvers.ts';
import type { ServerConfig } from '../../config.ts';
import type { Caller, MemberCaller } from '../../auth/caller-kinds.ts';
import { memberOf } from '../access/caller.ts';
import { fieldErrors, foyerError } from '../errors.ts';
import {
  ConnectionInputError,
  createConnection,
  deleteConnection,
  findConnection,
  listConnections,
  connectionView,
  normalizeDomain,
  updateConnection,
  type ConnectionInput,
  type EnterpriseConnection,
  type EnterpriseDomain,
} from '../../auth/enterprise/connections.ts';
import {
  claimRefusal,
  claimRefusalIssue,
  isRoleMailboxAt,
  roleMailboxIssue,
  sendDomainProof,
  verificationRecord,
  verifyDomain,
} from '../../auth/enterprise/domains.ts';
import type { Database } from '../../db/client.ts';

function ownerOf(caller: Caller): MemberCaller {
  const member = memberOf(caller);
  if (member.role !== 'OWNER') throw foyerError('FORBIDDEN', 'Only a workspace owner manages its sign-in connections');
  return member;
}

const notFound = () => foyerError('NOT_FOUND', 'This workspace has no such connection');

const answer = (config: ServerConfig, connection: EnterpriseConnection, domains: EnterpriseDomain[]) => ({
  ...connectionView(config, connection, domains),
  kind: connection.kind.toUpperCase(),
});

async function answerOne(config: ServerConfig, db: Database, tenantId: string, id: string) {
  const found = (await listConnections(db, tenantId)).find((entry) => entry.connection.id === id);
  if (!found) throw notFound();
  return answer(config, found.connection, found.domains);
}

function connectionInput(input: Record<string, unknown>): ConnectionInput {
  const kind = typeof input.kind === 'string' ? input.kind.toLowerCase() : undefined;
  return { ...(input as unknown as ConnectionInput), kind: kind as ConnectionInput['kind'] };
}

async function checked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConnectionInputError) throw fieldErrors(error.fields);
    throw error;
  }
}

export const enterpriseResolvers: Resolvers = {
  Query: {
    enterpriseConnections: async (_parent, _args, { config, db, caller }) => {
      const owner = ownerOf(caller);
      const entries = await listConnections(db, owner.tenantId);
      return entries.map((entry) => answer(config, entry.connection, entry.domains));
    },
  },
  Mutation: {
    createEnterpriseConnection: async (_parent, { connection }, { config, db, caller }) => {
      const owner = ownerOf(caller);
      const created = await checked(() =>
        createConnection(config, db, { appId: owner.app.id, tenantId: owner.tenantId }, connectionInput(connection)),
      );
      return answerOne(config, db, owner.tenantId, created.id);
    },
    updateEnterpriseConnection: async (_parent, { id, connection }, { config, db, caller }) => {
      const owner = ownerOf(caller);
      const existing = await findConnection(db, owner.tenantId, id);
      if (!existing) throw notFound();
      await checked(() => updateConnection(config, db, existing, connectionInput(connection)));
      return answerOne(config, db, owner.tenantId, id);
    },
    deleteEnterpriseConnection: async (_parent, { id }, { db, caller }) => {
      const owner = ownerOf(caller);
      const existing = await findConnection(db, owner.tenantId, id);
      if (!existing) throw notFound();
      await deleteConnection(db, existing);
      return true;
    },
    verifyEnterpriseDomain: async (_parent, { id, domain }, { config, db, caller }) => {
      const owner = ownerOf(caller);
      const found = (await listConnections(db, owner.tenantId)).find((entry) => entry.connection.id === id);
      if (!found) throw notFound();
      const claim = found.domains.find((entry) => entry.domain === normalizeDomain(domain));
      if (!claim) throw notFound();
      const outcome = await verifyDomain(config, db, claim);
      if (outcome === 'missing') {
        throw fieldErrors({
          domain: {
            code: 'txtRecordMissing',
            params: { record: verificationRecord(claim.token), domain: claim.domain },
            message: `No TXT record ${verificationRecord(claim.token)} was found at ${claim.domain}`,
          },
        });
      }
      if (outcome !== 'verified') throw fieldErrors({ domain: claimRefusalIssue(outcome, claim.domain) });
      return answerOne(config, db, owner.tenantId, id);
    },
    sendEnterpriseDomainMail: async (_parent, { id, domain, address }, context) => {
      const owner = ownerOf(context.caller);
      const found = (await listConnections(context.db, owner.tenantId)).find((entry) => entry.connection.id === id);
      const claim = found?.domains.find((entry) => entry.domain === normalizeDomain(domain));
      if (!claim) throw notFound();
      if (!isRoleMailboxAt(claim.domain, address)) throw fieldErrors({ address: roleMailboxIssue(claim.domain) });
      const refusal = await claimRefusal(context.db, claim);
      if (refusal) throw fieldErrors({ domain: claimRefusalIssue(refusal, claim.domain) });
      if (!(await sendDomainProof(context, claim, address)))
        throw foyerError('SERVICE_UNAVAILABLE', 'The proof mail could not be sent; try again later');
      return address.trim().toLowerCase();
    },
  },
};
