// Who may claim an e-mail domain for an enterprise connection (issue 40, finding 1): never a public
// mail domain (a free provider's or a disposable service's), by any API or proof; one verified claim
// per domain and app, whichever workspace asks second, even when two proofs arrive at once; the app's
// operator alone releases it (admin API, audited); and the login screen offers a domain's connection
// only once its claim is verified, and never for a public mail domain.
import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_ENV, startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { appOwners, auditEvents, enterpriseDomains } from '../../../server/db/schema.ts';
import { createApiKey } from '../../../server/apps/api-keys.ts';
import { servesVerifiedDomain } from '../../../server/auth/enterprise/connections.ts';
import { accessTokenFor, admin, consoleOwnerToken, CONSOLE_OWNER_EMAIL, CONSOLE_WORKSPACE, newConsoleUser } from '../support/console.ts';
import { createTestIdp, type TestIdp } from '../support/saml-idp.ts';
import { startDnsStandIn, type DnsStandIn } from '../support/dns-stand-in.ts';
import { insertApp } from '../support/apps.ts';
import { errorCodes } from '../support/graphql.ts';
import { asMember, CONNECTION_FIELDS, credentialsConfig, workspaceNamed } from './enterprise-support.ts';

let foyer: TestFoyer;
let dns: DnsStandIn;
let idp: TestIdp;
let ownerToken: string;
let viewerToken: string;
let otherAppOwnerToken: string;
let key: string;
let otherAppKey: string;
let acme: string;
let globex: string;

beforeAll(async () => {
  dns = await startDnsStandIn();
  foyer = await startFoyer({ dnsServers: [dns.server] });
  idp = await createTestIdp('claims');
  ownerToken = await consoleOwnerToken(foyer);
  viewerToken = await accessTokenFor(foyer, await newConsoleUser(foyer, { workspace: CONSOLE_WORKSPACE, role: 'VIEWER' }));
  // The owner of another app: an app owner, only not of the demo app.
  const otherOwner = await newConsoleUser(foyer, { workspace: 'Other operator', role: 'OWNER' });
  const otherApp = await insertApp(foyer, { name: 'Other app' });
  await foyer.db.insert(appOwners).values({ appId: otherApp, tenantId: otherOwner.tenantId });
  otherAppOwnerToken = await accessTokenFor(foyer, otherOwner);
  ({ key } = await createApiKey(foyer.db, foyer.demo.appId, 'Back end'));
  ({ key: otherAppKey } = await createApiKey(foyer.db, otherApp, 'Other back end'));
  acme = await workspaceNamed(foyer, foyer.demo.appId, 'Acme');
  globex = await workspaceNamed(foyer, foyer.demo.appId, 'Globex');
});
afterAll(async () => {
  await foyer?.close();
  await dns?.close();
});

const connections = (tenantId: string, rest = '') => `/apps/${foyer.demo.appId}/tenants/${tenantId}/enterprise-connections${rest}`;
const claimOf = (domain: string) => `/apps/${foyer.demo.appId}/enterprise-domains/${domain}`;
const freshDomain = (label: string) => `${label}-${randomUUID().slice(0, 8)}.example.test`;

const samlInput = (domains: string[]) => ({
  kind: 'saml',
  name: 'Okta',
  defaultRole: 'VIEWER',
  domains,
  samlIdpEntityId: idp.entityId,
  samlSsoUrl: idp.ssoUrl,
  samlCertificate: idp.certificatePem,
});

interface AdminConnection {
  id: string;
  domains: { domain: string; verified: boolean; verificationRecord: string }[];
}

interface Refusal {
  error: string;
  details: { path: string; code: string; params: Record<string, unknown>; message: string }[];
}

async function addConnection(tenantId: string, domains: string[]): Promise<AdminConnection> {
  const created = await admin<{ connection: AdminConnection }>(foyer, 'POST', connections(tenantId), {
    token: ownerToken,
    body: samlInput(domains),
  });
  expect(created.status).toBe(201);
  return created.body.connection;
}

const recordOf = (connection: AdminConnection, domain: string) =>
  connection.domains.find((entry) => entry.domain === domain)!.verificationRecord;

const verify = (tenantId: string, connection: AdminConnection, domain: string) =>
  admin<Refusal & { connection: AdminConnection }>(foyer, 'POST', connections(tenantId, `/${connection.id}/domains/${domain}/verify`), {
    token: ownerToken,
  });

/** Publishes every given connection's TXT record at `domain` (one name may carry several). */
function publish(domain: string, ...owners: AdminConnection[]) {
  dns.txt.set(
    domain,
    owners.map((connection) => recordOf(connection, domain)),
  );
}

async function verifiedClaims(domain: string) {
  return foyer.db
    .select({ connectionId: enterpriseDomains.connectionId })
    .from(enterpriseDomains)
    .where(and(eq(enterpriseDomains.domain, domain), isNotNull(enterpriseDomains.verifiedAt)));
}

/** A claim as it could stand from before public mail domains were refused: straight into the table. */
async function claimStraightIn(connection: AdminConnection, domain: string, verified: boolean) {
  await foyer.db.insert(enterpriseDomains).values({
    connectionId: connection.id,
    appId: foyer.demo.appId,
    domain,
    token: `legacy-${randomUUID()}`,
    verifiedAt: verified ? new Date() : null,
  });
}

describe('public mail domains', () => {
  it('are refused in a connection by the admin API, GraphQL and the management API, a disposable service’s subdomains too', async () => {
    for (const domain of ['gmail.com', 'Outlook.com', 'mailinator.com', 'team.mailinator.com', 'guerrillamailblock.com']) {
      const refused = await admin<Refusal>(foyer, 'POST', connections(acme), {
        token: ownerToken,
        body: samlInput([freshDomain('corp'), domain]),
      });
      expect(refused.status, domain).toBe(400);
      expect(refused.body.details, domain).toEqual([
        {
          path: '/domains',
          code: 'publicMailDomain',
          params: { domain: domain.toLowerCase() },
          message: `${domain.toLowerCase()} is a public mail domain; it cannot be claimed`,
        },
      ]);
    }

    const acmeOwner = await asMember(foyer, foyer.demo.users[0]!.email, 'Acme');
    const viaGraphQL = await acmeOwner(
      `mutation ($connection: EnterpriseConnectionInput!) { createEnterpriseConnection(connection: $connection) { ${CONNECTION_FIELDS} } }`,
      { connection: { ...samlInput(['yahoo.com']), kind: 'SAML' } },
    );
    expect(errorCodes(viaGraphQL)).toEqual(['BAD_USER_INPUT']);
    expect(viaGraphQL.body.errors![0]!.extensions).toMatchObject({
      fieldIssues: { domains: [{ code: 'publicMailDomain', params: { domain: 'yahoo.com' } }] },
    });

    const viaManagement = await fetch(`${foyer.urls.api}/management/federation/connection`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-tenant-id': globex },
      body: JSON.stringify({
        type: 'saml',
        name: 'ADFS',
        loginUrl: idp.ssoUrl,
        entityId: idp.entityId,
        certificate: idp.certificatePem,
        domains: ['hotmail.com'],
      }),
    });
    expect(viaManagement.status).toBe(400);
    expect(await viaManagement.json()).toMatchObject({ fields: { domains: 'hotmail.com is a public mail domain; it cannot be claimed' } });

    // Nor added to a connection afterwards.
    const domain = freshDomain('corp');
    const connection = await addConnection(acme, [domain]);
    const changed = await admin<Refusal>(foyer, 'PUT', connections(acme, `/${connection.id}`), {
      token: ownerToken,
      body: { ...samlInput([domain, 'icloud.com']), samlCertificate: null },
    });
    expect(changed).toMatchObject({ status: 400, body: { details: [{ path: '/domains', code: 'publicMailDomain' }] } });

    const stored = await foyer.db.select({ domain: enterpriseDomains.domain }).from(enterpriseDomains);
    expect(stored.map((row) => row.domain)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/(gmail|outlook|mailinator|yahoo|hotmail|icloud)\.com$/)]),
    );
  });

  it('are never proved by DNS, not even a claim listed before they were refused', async () => {
    const connection = await addConnection(acme, [freshDomain('corp')]);
    await claimStraightIn(connection, 'gmx.de', false);
    dns.txt.set('gmx.de', [
      `foyer-verification=${(await foyer.db.select().from(enterpriseDomains).where(eq(enterpriseDomains.domain, 'gmx.de')))[0]!.token}`,
    ]);
    const refused = await verify(acme, connection, 'gmx.de');
    expect(refused).toMatchObject({
      status: 400,
      body: { error: 'DOMAIN_NOT_CLAIMABLE', details: [{ path: '/domain', code: 'publicMailDomain', params: { domain: 'gmx.de' } }] },
    });
    expect(await verifiedClaims('gmx.de')).toEqual([]);
  });
});

describe('one verified claim per domain and app', () => {
  it("refuses a second workspace's claim of a verified domain, at saving and at verifying", async () => {
    const domain = freshDomain('held');
    // Globex listed the domain first but has not proved it; Acme proves it.
    const globexFirst = await addConnection(globex, [domain]);
    const acmeConnection = await addConnection(acme, [domain]);
    publish(domain, globexFirst, acmeConnection);
    expect((await verify(acme, acmeConnection, domain)).status).toBe(200);

    const late = await verify(globex, globexFirst, domain);
    expect(late).toMatchObject({
      status: 400,
      body: {
        error: 'DOMAIN_NOT_CLAIMABLE',
        details: [
          {
            path: '/domain',
            code: 'domainClaimed',
            params: { domain },
            message: `${domain} is already verified by another connection of this app; the app's operator can release it`,
          },
        ],
      },
    });

    // A new connection listing it is refused, in any workspace of the app, the holder's own included.
    for (const tenantId of [globex, acme]) {
      const refused = await admin<Refusal>(foyer, 'POST', connections(tenantId), { token: ownerToken, body: samlInput([domain]) });
      expect(refused).toMatchObject({ status: 400, body: { details: [{ path: '/domains', code: 'domainClaimed', params: { domain } }] } });
    }
    const globexOwner = await asMember(foyer, foyer.demo.users[0]!.email, 'Globex');
    const viaGraphQL = await globexOwner(
      `mutation ($connection: EnterpriseConnectionInput!) { createEnterpriseConnection(connection: $connection) { id } }`,
      { connection: { ...samlInput([domain]), kind: 'SAML' } },
    );
    expect(viaGraphQL.body.errors![0]!.extensions).toMatchObject({ fieldIssues: { domains: [{ code: 'domainClaimed' }] } });
    // The holder keeps it when it saves its own connection again.
    const resaved = await admin(foyer, 'PUT', connections(acme, `/${acmeConnection.id}`), {
      token: ownerToken,
      body: { ...samlInput([domain]), samlCertificate: null },
    });
    expect(resaved.status).toBe(200);

    expect(await verifiedClaims(domain)).toEqual([{ connectionId: acmeConnection.id }]);
    expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toEqual([
      { id: acmeConnection.id, name: 'Okta', type: 'saml' },
    ]);
  });

  it('lets exactly one of several verifications at once win, and answers the others 400, never 500', async () => {
    const domain = freshDomain('race');
    const contenders = [
      { tenantId: acme, connection: await addConnection(acme, [domain]) },
      { tenantId: globex, connection: await addConnection(globex, [domain]) },
      { tenantId: globex, connection: await addConnection(globex, [domain]) },
      { tenantId: acme, connection: await addConnection(acme, [domain]) },
    ];
    publish(domain, ...contenders.map((entry) => entry.connection));
    const answers = await Promise.all(contenders.map((entry) => verify(entry.tenantId, entry.connection, domain)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400]);
    for (const answer of answers.filter((entry) => entry.status === 400)) {
      expect(answer.body.details).toMatchObject([{ code: 'domainClaimed' }]);
    }
    const winner = contenders[answers.findIndex((answer) => answer.status === 200)]!.connection;
    expect(await verifiedClaims(domain)).toEqual([{ connectionId: winner.id }]);
  });

  // Two proofs within one instant both find no verified claim; the index lets the first committed win
  // and the other's update fail. Only PostgreSQL runs statements side by side to show it.
  it.runIf(process.env[POSTGRES_ENV])('lets a proof that meets an uncommitted one lose at the index, answered 400', async () => {
    const domain = freshDomain('locked');
    const first = await addConnection(acme, [domain]);
    const second = await addConnection(globex, [domain]);
    publish(domain, second);
    let late: ReturnType<typeof verify> | undefined;
    await foyer.db.transaction(async (tx) => {
      await tx
        .update(enterpriseDomains)
        .set({ verifiedAt: new Date() })
        .where(and(eq(enterpriseDomains.connectionId, first.id), eq(enterpriseDomains.domain, domain)));
      late = verify(globex, second, domain);
      // Commits only once the second proof's update waits for this transaction at the index.
      const deadline = Date.now() + 10_000;
      for (;;) {
        // postgres-js answers the rows themselves (this test runs on PostgreSQL only).
        const waiting = (await foyer.db.execute(
          sql`select count(*)::int as count from pg_stat_activity
              where wait_event_type = 'Lock' and query ilike 'update "enterprise_domains"%'`,
        )) as unknown as { count: number }[];
        if (waiting[0]!.count > 0) break;
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    expect(await late!).toMatchObject({ status: 400, body: { details: [{ code: 'domainClaimed', params: { domain } }] } });
    expect(await verifiedClaims(domain)).toEqual([{ connectionId: first.id }]);
  });

  it('is kept by the database itself: a second verified row of the domain is refused', async () => {
    const domain = freshDomain('index');
    const first = await addConnection(acme, [domain]);
    const second = await addConnection(globex, [domain]);
    const markVerified = (connection: AdminConnection) =>
      foyer.db
        .update(enterpriseDomains)
        .set({ verifiedAt: new Date() })
        .where(and(eq(enterpriseDomains.connectionId, connection.id), eq(enterpriseDomains.domain, domain)));
    await markVerified(first);
    await expect(markVerified(second)).rejects.toThrow();
    expect(await verifiedClaims(domain)).toEqual([{ connectionId: first.id }]);
  });
});

describe("the operator's release of a verified claim", () => {
  async function heldBy(tenantId: string) {
    const domain = freshDomain('released');
    const connection = await addConnection(tenantId, [domain]);
    publish(domain, connection);
    expect((await verify(tenantId, connection, domain)).status).toBe(200);
    return { domain, connection };
  }

  it("is refused to another app's owner and key, to a viewer, and answers an unknown or unverified domain 404", async () => {
    const { domain } = await heldBy(acme);
    expect(await admin(foyer, 'DELETE', claimOf(domain), { token: otherAppOwnerToken })).toMatchObject({
      status: 404,
      body: { error: 'UNKNOWN_APP' },
    });
    expect(await admin(foyer, 'DELETE', claimOf(domain), { apiKey: otherAppKey })).toMatchObject({
      status: 404,
      body: { error: 'UNKNOWN_APP' },
    });
    expect(await admin(foyer, 'DELETE', claimOf(domain), { token: viewerToken })).toMatchObject({
      status: 403,
      body: { error: 'FORBIDDEN' },
    });
    expect((await admin(foyer, 'DELETE', claimOf(domain))).status).toBe(401);

    expect(await admin(foyer, 'DELETE', claimOf(freshDomain('never')), { token: ownerToken })).toMatchObject({
      status: 404,
      body: { error: 'UNKNOWN_DOMAIN_CLAIM' },
    });
    const unproved = freshDomain('unproved');
    await addConnection(globex, [unproved]);
    expect(await admin(foyer, 'DELETE', claimOf(unproved), { apiKey: key })).toMatchObject({
      status: 404,
      body: { error: 'UNKNOWN_DOMAIN_CLAIM' },
    });

    expect(await verifiedClaims(domain)).toHaveLength(1);
    const audited = await foyer.db.select().from(auditEvents).where(eq(auditEvents.type, 'enterprise.domain_released'));
    expect(audited.filter((event) => (event.detail as { domain?: string }).domain === domain)).toEqual([]);
  });

  it('frees the domain for another workspace, and records who released what', async () => {
    const { domain, connection } = await heldBy(acme);
    const released = await admin(foyer, 'DELETE', claimOf(domain.toUpperCase()), { token: ownerToken });
    expect(released.status).toBe(204);
    expect(await verifiedClaims(domain)).toEqual([]);
    expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toEqual([]);
    const [event] = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'enterprise.domain_released'), eq(auditEvents.appId, foyer.demo.appId)))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event!.userId).not.toBeNull();
    expect(event!.detail).toMatchObject({ actor: CONSOLE_OWNER_EMAIL, domain, connectionId: connection.id, tenantId: acme });

    // Globex may now claim and prove it; a second release by the app's key frees it again.
    const globexConnection = await addConnection(globex, [domain]);
    publish(domain, globexConnection);
    expect((await verify(globex, globexConnection, domain)).status).toBe(200);
    expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toMatchObject([
      { id: globexConnection.id },
    ]);
    expect((await admin(foyer, 'DELETE', claimOf(domain), { apiKey: key })).status).toBe(204);
    const [byKey] = await foyer.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, 'enterprise.domain_released'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(byKey!.detail).toMatchObject({ actor: 'api-key', domain, connectionId: globexConnection.id, tenantId: globex });
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await (await fetch(`${foyer.urls.api}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const release = document.paths['/admin/apps/{appId}/enterprise-domains/{domain}']?.delete;
    expect(release).toBeDefined();
    expect(Object.keys(release!.responses)).toEqual(expect.arrayContaining(['204', '401', '403', '404']));
  });
});

describe('routing a domain to a connection', () => {
  it('offers a connection only for its verified claim, never for a public mail domain, and only the holder’s', async () => {
    const domain = freshDomain('routed');
    const acmeConnection = await addConnection(acme, [domain]);
    const globexConnection = await addConnection(globex, [domain]);
    expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toEqual([]);
    publish(domain, acmeConnection, globexConnection);
    expect((await verify(globex, globexConnection, domain)).status).toBe(200);
    expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toEqual([
      { id: globexConnection.id, name: 'Okta', type: 'saml' },
    ]);

    // A verified claim of a public mail domain from before they were refused routes nothing, and signs no one in.
    await claimStraightIn(acmeConnection, 'gmail.com', true);
    expect((await credentialsConfig(foyer, foyer.demo.appId, 'victim@gmail.com')).federationConnections).toEqual([]);
    expect(await servesVerifiedDomain(foyer.db, acmeConnection.id, 'gmail.com')).toBe(false);
    expect(await servesVerifiedDomain(foyer.db, globexConnection.id, domain)).toBe(true);
  });
});
