// What the enterprise connection tests share: the demo workspaces' owners and admin calling GraphQL
// with real access tokens, and a connection made and its domain verified through the DNS stand-in.
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { tenants } from '../../../server/db/schema.ts';
import type { TestFoyer } from '../../../server/testing.ts';
import { bearer, postGraphQL, type GraphQLAnswer } from '../support/graphql.ts';
import { findMembership, mintAccessToken } from '../support/tokens.ts';
import type { DnsStandIn } from '../support/dns-stand-in.ts';

export const CONNECTION_FIELDS = `id kind name defaultRole domains { domain verified verificationRecord }
  oidcIssuer oidcClientId hasClientSecret redirectUri samlIdpEntityId samlSsoUrl spEntityId acsUrl`;

export interface ConnectionAnswer {
  id: string;
  kind: string;
  name: string;
  defaultRole: string;
  domains: { domain: string; verified: boolean; verificationRecord: string }[];
  hasClientSecret: boolean;
  redirectUri: string | null;
  spEntityId: string | null;
  acsUrl: string | null;
  samlSsoUrl: string | null;
}

/** GraphQL on the API host `apiUrl` with the access token `token`. */
export function asBearer(apiUrl: string, token: string) {
  return <Data = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}): Promise<GraphQLAnswer<Data>> =>
    postGraphQL<Data>(apiUrl, { query, variables }, bearer(token));
}

export type Member = ReturnType<typeof asBearer>;

/** GraphQL on the API host as `email`'s membership of the demo workspace `workspace`. */
export async function asMember(foyer: TestFoyer, email: string, workspace: string): Promise<Member> {
  return asBearer(
    foyer.urls.api,
    await mintAccessToken(foyer.db, await findMembership(foyer.db, email, workspace), { issuer: foyer.urls.auth }),
  );
}

export async function createConnection(as: Member, connection: Record<string, unknown>): Promise<ConnectionAnswer> {
  const answer = await as<{ createEnterpriseConnection: ConnectionAnswer }>(
    `mutation ($connection: EnterpriseConnectionInput!) { createEnterpriseConnection(connection: $connection) { ${CONNECTION_FIELDS} } }`,
    { connection },
  );
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data!.createEnterpriseConnection;
}

export function verifyDomain(as: Member, id: string, domain: string) {
  return as<{ verifyEnterpriseDomain: ConnectionAnswer }>(
    `mutation ($id: String!, $domain: String!) { verifyEnterpriseDomain(id: $id, domain: $domain) { ${CONNECTION_FIELDS} } }`,
    { id, domain },
  );
}

/** Publishes the connection's TXT record for `domain` in the DNS stand-in and verifies it. */
export async function publishAndVerify(as: Member, dns: DnsStandIn, connection: ConnectionAnswer, domain: string) {
  const record = connection.domains.find((entry) => entry.domain === domain)!.verificationRecord;
  dns.txt.set(domain, ['v=spf1 -all', record]);
  const answer = await verifyDomain(as, connection.id, domain);
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data!.verifyEnterpriseDomain.domains.find((entry) => entry.domain === domain)!.verified).toBe(true);
}

export async function credentialsConfig(foyer: TestFoyer, appId: string, username: string) {
  const response = await fetch(`${foyer.urls.auth}/auth/credentialsConfig`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': appId },
    body: JSON.stringify({ username }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { federationConnections: { id: string; name: string; type: string }[] };
}

/** The id of the app's workspace named `name`. */
export async function workspaceNamed(foyer: TestFoyer, appId: string, name: string): Promise<string> {
  const [row] = await foyer.db
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(eq(tenants.appId, appId), eq(tenants.name, name)));
  return row!.id;
}
