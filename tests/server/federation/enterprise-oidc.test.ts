// Enterprise OIDC connections, and how owners manage connections. The issuer is a real local
// oidc-provider: the development IdP (server/dev-idp), whose test identities have addresses at
// dev-idp.foyer.test, the domain the owner proves through the DNS stand-in. Hostile: a mismatched
// state or nonce, another workspace's connection, a non-owner managing connections, an unverified
// domain never routing logins, bad input answered field by field.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { enterpriseConnections, federationStates, tenantUsers, users } from '../../../server/db/schema.ts';
import { DEV_IDP_CLIENT_ID, devIdpClientSecret } from '../../../server/dev-idp/server.ts';
import { Browser } from '../oidc/browser.ts';
import { errorCodes } from '../support/graphql.ts';
import { startDnsStandIn, type DnsStandIn } from '../support/dns-stand-in.ts';
import { openPickScreen, pickIdentity } from './dev-idp.ts';
import {
  CONNECTION_FIELDS,
  asMember,
  createConnection,
  credentialsConfig,
  publishAndVerify,
  verifyDomain,
  type ConnectionAnswer,
  type Member,
} from './enterprise-support.ts';

const DOMAIN = 'dev-idp.foyer.test';

let foyer: TestFoyer;
let dns: DnsStandIn;
let acmeOwner: Member;
let globexOwner: Member;
let acmeAdmin: Member;

beforeAll(async () => {
  dns = await startDnsStandIn();
  foyer = await startFoyer({ dnsServers: [dns.server] });
  const ownerEmail = foyer.demo.users[0]!.email;
  [acmeOwner, globexOwner, acmeAdmin] = await Promise.all([
    asMember(foyer, ownerEmail, 'Acme'),
    asMember(foyer, ownerEmail, 'Globex'),
    asMember(foyer, 'admin@acme.demo.foyer.test', 'Acme'),
  ]);
});
afterAll(async () => {
  await foyer?.close();
  await dns?.close();
});

const oidcInput = (overrides: Record<string, unknown> = {}) => ({
  kind: 'OIDC',
  name: 'Dev IdP',
  defaultRole: 'VIEWER',
  domains: [DOMAIN],
  oidcIssuer: foyer.config.devIdp.url,
  oidcClientId: DEV_IDP_CLIENT_ID,
  oidcClientSecret: devIdpClientSecret(foyer.config),
  ...overrides,
});

async function membershipIn(tenantId: string, email: string) {
  const [row] = await foyer.db
    .select({ role: tenantUsers.role })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(tenantUsers.tenantId, tenantId), eq(users.email, email)));
  return row;
}

async function tenantOf(connectionId: string) {
  const [row] = await foyer.db.select().from(enterpriseConnections).where(eq(enterpriseConnections.id, connectionId));
  return row!.tenantId;
}

describe('managing connections', () => {
  it('lets only an owner list, add, change and remove them', async () => {
    const list = `{ enterpriseConnections { ${CONNECTION_FIELDS} } }`;
    expect(errorCodes(await acmeAdmin(list))).toEqual(['FORBIDDEN']);
    const create = `mutation ($connection: EnterpriseConnectionInput!) { createEnterpriseConnection(connection: $connection) { id } }`;
    expect(errorCodes(await acmeAdmin(create, { connection: oidcInput() }))).toEqual(['FORBIDDEN']);

    const created = await createConnection(acmeOwner, oidcInput({ name: 'Managed', domains: ['managed.test'] }));
    expect(created).toMatchObject({ kind: 'OIDC', hasClientSecret: true, redirectUri: `${foyer.urls.auth}/federated/oidc/callback` });
    expect(JSON.stringify(created)).not.toContain(devIdpClientSecret(foyer.config));
    const [stored] = await foyer.db.select().from(enterpriseConnections).where(eq(enterpriseConnections.id, created.id));
    expect(stored!.oidcClientSecretSealed).not.toContain(devIdpClientSecret(foyer.config));

    const update = `mutation ($id: String!, $connection: EnterpriseConnectionInput!) { updateEnterpriseConnection(id: $id, connection: $connection) { name defaultRole hasClientSecret domains { domain } } }`;
    const changed = {
      ...oidcInput({ name: 'Renamed', defaultRole: 'ADMIN', domains: ['managed.test', 'second.test'] }),
      oidcClientSecret: '',
    };
    delete (changed as { kind?: string }).kind;
    expect(errorCodes(await acmeAdmin(update, { id: created.id, connection: changed }))).toEqual(['FORBIDDEN']);
    // Another workspace's owner does not find it.
    expect(errorCodes(await globexOwner(update, { id: created.id, connection: changed }))).toEqual(['NOT_FOUND']);
    const updated = await acmeOwner<{ updateEnterpriseConnection: Record<string, unknown> }>(update, {
      id: created.id,
      connection: changed,
    });
    expect(updated.body.data?.updateEnterpriseConnection).toEqual({
      name: 'Renamed',
      defaultRole: 'ADMIN',
      hasClientSecret: true,
      domains: [{ domain: 'managed.test' }, { domain: 'second.test' }],
    });
    expect(((await globexOwner<{ enterpriseConnections: unknown[] }>(list)).body.data?.enterpriseConnections ?? []).length).toBe(0);

    const remove = `mutation ($id: String!) { deleteEnterpriseConnection(id: $id) }`;
    expect(errorCodes(await acmeAdmin(remove, { id: created.id }))).toEqual(['FORBIDDEN']);
    expect(errorCodes(await globexOwner(remove, { id: created.id }))).toEqual(['NOT_FOUND']);
    expect((await acmeOwner(remove, { id: created.id })).body.data).toEqual({ deleteEnterpriseConnection: true });
    expect(await foyer.db.select().from(enterpriseConnections).where(eq(enterpriseConnections.id, created.id))).toEqual([]);
  });

  it('answers bad input field by field', async () => {
    const create = `mutation ($connection: EnterpriseConnectionInput!) { createEnterpriseConnection(connection: $connection) { id } }`;
    const answer = await acmeOwner(create, {
      connection: oidcInput({ name: ' ', defaultRole: 'OWNER', domains: ['not a domain'], oidcIssuer: 'ftp://x', oidcClientSecret: '' }),
    });
    expect(errorCodes(answer)).toEqual(['BAD_USER_INPUT']);
    expect(Object.keys((answer.body.errors![0]!.extensions as { fields: object }).fields).sort()).toEqual([
      'defaultRole',
      'domains',
      'name',
      'oidcClientSecret',
      'oidcIssuer',
    ]);
    const saml = await acmeOwner(create, {
      connection: { kind: 'SAML', name: 'Broken', defaultRole: 'VIEWER', domains: ['x.test'], samlMetadataXml: '<nope/>' },
    });
    expect(Object.keys((saml.body.errors![0]!.extensions as { fields: object }).fields)).toEqual(['samlMetadataXml']);
  });

  it('verifies a domain only when its TXT record is published', async () => {
    const created = await createConnection(acmeOwner, oidcInput({ domains: ['txt-check.test'] }));
    const [domain] = created.domains;
    expect(domain).toMatchObject({ domain: 'txt-check.test', verified: false });
    expect(domain!.verificationRecord).toMatch(/^foyer-verification=[\w-]{20,}$/);
    dns.txt.set('txt-check.test', ['foyer-verification=someone-elses-token']);
    const wrong = await verifyDomain(acmeOwner, created.id, 'txt-check.test');
    expect(errorCodes(wrong)).toEqual(['BAD_USER_INPUT']);
    expect(errorCodes(await verifyDomain(acmeAdmin, created.id, 'txt-check.test'))).toEqual(['FORBIDDEN']);
    expect(errorCodes(await verifyDomain(globexOwner, created.id, 'txt-check.test'))).toEqual(['NOT_FOUND']);
    expect((await credentialsConfig(foyer, foyer.demo.appId, 'a@txt-check.test')).federationConnections).toEqual([]);
    await publishAndVerify(acmeOwner, dns, created, 'txt-check.test');
    expect((await credentialsConfig(foyer, foyer.demo.appId, 'a@txt-check.test')).federationConnections).toEqual([
      { id: created.id, name: 'Dev IdP', type: 'oidc' },
    ]);
    await acmeOwner(`mutation ($id: String!) { deleteEnterpriseConnection(id: $id) }`, { id: created.id });
  });
});

describe('signing in through an OIDC connection', () => {
  let connection: ConnectionAnswer;

  beforeAll(async () => {
    connection = await createConnection(acmeOwner, oidcInput());
    await publishAndVerify(acmeOwner, dns, connection, DOMAIN);
  });

  const start = () => `${foyer.urls.auth}/federated/oidc/login/${connection.id}`;

  it('signs a person of the verified domain in and makes the membership just in time', async () => {
    const browser = new Browser();
    const uid = await openPickScreen(foyer, browser, start());
    const callback = await pickIdentity(foyer, browser, uid, 'dev-ada');
    expect(callback.startsWith(`${foyer.urls.auth}/federated/oidc/callback?`)).toBe(true);
    const end = await browser.navigate(callback, (url) => url.origin === foyer.urls.ui);
    expect(new URL(end.url).origin).toBe(foyer.urls.ui);
    expect(end.url).not.toContain('error');
    expect(await membershipIn(await tenantOf(connection.id), 'ada@dev-idp.foyer.test')).toEqual({ role: 'VIEWER' });
  });

  it('refuses a mismatched state and a callback in another browser', async () => {
    const browser = new Browser();
    const uid = await openPickScreen(foyer, browser, start());
    const callback = new URL(await pickIdentity(foyer, browser, uid, 'dev-grace'));
    const elsewhere = await new Browser().request(callback.href);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({ error: 'FEDERATION_STATE_INVALID' });
    callback.searchParams.set('state', 'another-state');
    const tampered = await browser.request(callback.href);
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ error: 'FEDERATION_STATE_INVALID' });
    expect(await membershipIn(await tenantOf(connection.id), 'grace@dev-idp.foyer.test')).toBeUndefined();
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const browser = new Browser();
    const uid = await openPickScreen(foyer, browser, start());
    // The kept nonce no longer matches the one the provider put in the ID token.
    await foyer.db.update(federationStates).set({ nonce: 'another-nonce' });
    const callback = await pickIdentity(foyer, browser, uid, 'dev-grace');
    const answer = await browser.request(callback);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: 'FEDERATION_FAILED' });
    expect(await membershipIn(await tenantOf(connection.id), 'grace@dev-idp.foyer.test')).toBeUndefined();
  });

  it("signs in through another workspace's connection only that connection's own verified domains", async () => {
    const otherConnection = await createConnection(globexOwner, oidcInput({ name: 'Globex IdP', domains: ['globex-idp.test'] }));
    // Globex is a workspace of the same app: its connection starts, but only signs in its own verified domain.
    const browser = new Browser();
    const uid = await openPickScreen(foyer, browser, `${foyer.urls.auth}/federated/oidc/login/${otherConnection.id}`);
    const callback = await pickIdentity(foyer, browser, uid, 'dev-grace');
    const answer = await browser.request(callback);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ error: 'FEDERATION_DOMAIN_UNVERIFIED' });
    expect(await membershipIn(await tenantOf(otherConnection.id), 'grace@dev-idp.foyer.test')).toBeUndefined();
  });
});
