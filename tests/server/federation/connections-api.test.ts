// A workspace's enterprise connections through the admin API (the app's owners and its API keys) and
// the management API's /federation/connection (the original product's shape, an API key only). Hostile:
// another app's key, another app's owner, a viewer, another workspace's connection id, a workspace of
// another app, a malformed certificate, SAML request options Foyer does not offer, a console token on
// the management API. A domain proved through the admin API routes logins (credentialsConfig).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { tenants } from '../../../server/db/schema.ts';
import { createApiKey } from '../../../server/apps/api-keys.ts';
import { accessTokenFor, admin, consoleOwnerToken, CONSOLE_WORKSPACE, newConsoleUser } from '../support/console.ts';
import { createTestIdp, type TestIdp } from '../support/saml-idp.ts';
import { startDnsStandIn, type DnsStandIn } from '../support/dns-stand-in.ts';
import { insertApp } from '../support/apps.ts';
import { credentialsConfig, workspaceNamed } from './enterprise-support.ts';

let foyer: TestFoyer;
let dns: DnsStandIn;
let idp: TestIdp;
let ownerToken: string;
let viewerToken: string;
let strangerToken: string;
let key: string;
let otherAppKey: string;
let otherAppTenant: string;
let acme: string;
let globex: string;

beforeAll(async () => {
  dns = await startDnsStandIn();
  foyer = await startFoyer({ dnsServers: [dns.server] });
  idp = await createTestIdp('api');
  ownerToken = await consoleOwnerToken(foyer);
  viewerToken = await accessTokenFor(foyer, await newConsoleUser(foyer, { workspace: CONSOLE_WORKSPACE, role: 'VIEWER' }));
  strangerToken = await accessTokenFor(foyer, await newConsoleUser(foyer, { workspace: 'Stranger company', role: 'OWNER' }));
  ({ key } = await createApiKey(foyer.db, foyer.demo.appId, 'Back end'));
  const otherApp = await insertApp(foyer, { name: 'Other app' });
  ({ key: otherAppKey } = await createApiKey(foyer.db, otherApp, 'Other back end'));
  otherAppTenant = randomUUID();
  await foyer.db.insert(tenants).values({ id: otherAppTenant, appId: otherApp, name: 'Other workspace', onboarded: true });
  acme = await workspaceNamed(foyer, foyer.demo.appId, 'Acme');
  globex = await workspaceNamed(foyer, foyer.demo.appId, 'Globex');
});
afterAll(async () => {
  await foyer?.close();
  await dns?.close();
});

const connections = (tenantId: string, rest = '') => `/apps/${foyer.demo.appId}/tenants/${tenantId}/enterprise-connections${rest}`;

const samlInput = (domain: string, overrides: Record<string, unknown> = {}) => ({
  kind: 'saml',
  name: 'Okta',
  defaultRole: 'MANAGER',
  domains: [domain],
  samlIdpEntityId: idp.entityId,
  samlSsoUrl: idp.ssoUrl,
  samlCertificate: idp.certificatePem,
  ...overrides,
});

interface AdminConnection {
  id: string;
  kind: string;
  domains: { domain: string; verified: boolean; verificationRecord: string }[];
  acsUrl: string | null;
  hasClientSecret: boolean;
}

async function management(
  method: string,
  path: string,
  options: { body?: unknown; tenant?: string; apiKey?: string; token?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.apiKey !== undefined || !options.token) headers['x-api-key'] = options.apiKey ?? key;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.tenant) headers['x-tenant-id'] = options.tenant;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${foyer.urls.api}/management${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> & Record<string, unknown>[] };
}

describe('the admin API', () => {
  it('lets the app owner add, list, verify, change and remove a workspace connection; a proved domain routes logins', async () => {
    const domain = `owner-${randomUUID().slice(0, 8)}.example.test`;
    const created = await admin<{ connection: AdminConnection }>(foyer, 'POST', connections(acme), {
      token: ownerToken,
      body: samlInput(domain),
    });
    expect(created.status).toBe(201);
    const connection = created.body.connection;
    expect(connection).toMatchObject({ kind: 'saml', domains: [{ domain, verified: false }] });
    expect(connection.acsUrl).toBe(`${foyer.urls.auth}/federated/saml/acs/${connection.id}`);
    expect(JSON.stringify(connection)).not.toContain(idp.privateKeyPem.slice(40, 80));

    // Not proved yet: logins at the domain are not routed to it.
    expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toEqual([]);
    const early = await admin(foyer, 'POST', connections(acme, `/${connection.id}/domains/${domain}/verify`), { token: ownerToken });
    expect(early).toMatchObject({ status: 400, body: { error: 'DOMAIN_NOT_VERIFIED' } });
    dns.txt.set(domain, [connection.domains[0]!.verificationRecord]);
    const verified = await admin<{ connection: AdminConnection }>(
      foyer,
      'POST',
      connections(acme, `/${connection.id}/domains/${domain}/verify`),
      {
        token: ownerToken,
      },
    );
    expect(verified.status).toBe(200);
    expect(verified.body.connection.domains).toMatchObject([{ domain, verified: true }]);
    expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toEqual([
      { id: connection.id, name: 'Okta', type: 'saml' },
    ]);

    const listed = await admin<{ connections: AdminConnection[] }>(foyer, 'GET', connections(acme), { apiKey: key });
    expect(listed.body.connections.map((entry) => entry.id)).toContain(connection.id);

    const renamed = await admin<{ connection: { name: string } }>(foyer, 'PUT', connections(acme, `/${connection.id}`), {
      apiKey: key,
      body: samlInput(domain, { name: 'Okta (staff)', samlCertificate: null }),
    });
    expect(renamed).toMatchObject({ status: 200, body: { connection: { name: 'Okta (staff)' } } });

    expect((await admin(foyer, 'DELETE', connections(acme, `/${connection.id}`), { token: ownerToken })).status).toBe(204);
    expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toEqual([]);
  });

  it('answers bad input field by field: a malformed certificate, a bad role, no domains', async () => {
    const answer = await admin<{ error: string; details: { path: string; code: string }[] }>(foyer, 'POST', connections(acme), {
      token: ownerToken,
      body: samlInput('x.example.test', {
        samlCertificate: '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----',
        defaultRole: 'OWNER',
        domains: [],
      }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('VALIDATION_FAILED');
    expect(answer.body.details.map((detail) => detail.path).sort()).toEqual(['/defaultRole', '/domains', '/samlCertificate']);
    const typed = await admin(foyer, 'POST', connections(acme), {
      token: ownerToken,
      body: { ...samlInput('x.example.test'), domains: [{}] },
    });
    expect(typed).toMatchObject({ status: 400, body: { message: expect.stringContaining('domains') } });
  });

  it("refuses another app's owner and key, a viewer, another workspace's connection and another app's workspace", async () => {
    const created = await admin<{ connection: AdminConnection }>(foyer, 'POST', connections(acme), {
      token: ownerToken,
      body: samlInput(`hostile-${randomUUID().slice(0, 8)}.example.test`),
    });
    const id = created.body.connection.id;
    expect((await admin(foyer, 'GET', connections(acme), { token: strangerToken })).status).toBe(404);
    expect((await admin(foyer, 'GET', connections(acme), { apiKey: otherAppKey })).status).toBe(404);
    expect((await admin(foyer, 'POST', connections(acme), { token: viewerToken, body: samlInput('v.example.test') })).status).toBe(403);
    expect((await admin(foyer, 'DELETE', connections(acme, `/${id}`), { token: viewerToken })).status).toBe(403);
    // Globex is the same app's workspace, but the connection is Acme's.
    expect((await admin(foyer, 'DELETE', connections(globex, `/${id}`), { token: ownerToken })).status).toBe(404);
    expect(
      (await admin(foyer, 'PUT', connections(globex, `/${id}`), { token: ownerToken, body: samlInput('g.example.test') })).status,
    ).toBe(404);
    const foreign = `/apps/${foyer.demo.appId}/tenants/${otherAppTenant}/enterprise-connections`;
    expect((await admin(foyer, 'GET', foreign, { token: ownerToken })).status).toBe(404);
    const stillThere = await admin<{ connections: AdminConnection[] }>(foyer, 'GET', connections(acme), { token: ownerToken });
    expect(stillThere.body.connections.map((entry) => entry.id)).toContain(id);
  });
});

describe("the management API's /federation/connection", () => {
  const original = (domain: string, overrides: Record<string, unknown> = {}) => ({
    type: 'saml',
    name: 'ADFS',
    loginUrl: idp.ssoUrl,
    entityId: idp.entityId,
    certificate: idp.certificatePem,
    requestMethod: 'GET',
    signedRequest: false,
    domains: [domain],
    ...overrides,
  });

  it("makes, reads, changes and removes a workspace's connection in the original shape", async () => {
    const domain = `mgmt-${randomUUID().slice(0, 8)}.example.test`;
    const created = await management('POST', '/federation/connection', { tenant: globex, body: original(domain) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'saml',
      name: 'ADFS',
      loginUrl: idp.ssoUrl,
      entityId: idp.entityId,
      requestMethod: 'GET',
      signedRequest: false,
      defaultRole: 'VIEWER',
      domains: [{ domain, verified: false }],
    });
    expect(created.body.certificate).toContain('BEGIN CERTIFICATE');
    const id = created.body.id as string;
    expect((await management('GET', `/federation/connection/${id}`, { tenant: globex })).body).toMatchObject({ id, name: 'ADFS' });
    expect(
      ((await management('GET', '/federation/connection', { tenant: globex })).body as unknown as { id: string }[]).map(
        (entry) => entry.id,
      ),
    ).toContain(id);

    const oidc = await management('POST', '/federation/connection', {
      tenant: globex,
      body: {
        type: 'oidc',
        name: 'Entra',
        loginUrl: 'https://login.example.test/tenant/v2.0',
        clientId: 'abc',
        clientSecret: 's3cret',
        domains: [domain],
      },
    });
    expect(oidc.status).toBe(201);
    expect(oidc.body).toMatchObject({
      type: 'oidc',
      clientId: 'abc',
      hasClientSecret: true,
      redirectUri: `${foyer.urls.auth}/federated/oidc/callback`,
    });
    expect(JSON.stringify(oidc.body)).not.toContain('s3cret');

    const changed = await management('PUT', `/federation/connection/${id}`, {
      tenant: globex,
      body: original(domain, { name: 'ADFS 2', certificate: undefined }),
    });
    expect(changed).toMatchObject({ status: 200, body: { name: 'ADFS 2' } });
    const retyped = await management('PUT', `/federation/connection/${id}`, {
      tenant: globex,
      body: { ...original(domain), type: 'oidc', clientId: 'x' },
    });
    expect(retyped).toMatchObject({ status: 400, body: { fields: { type: expect.any(String) } } });

    expect((await management('DELETE', `/federation/connection/${id}`, { tenant: globex })).status).toBe(204);
    expect((await management('GET', `/federation/connection/${id}`, { tenant: globex })).status).toBe(404);
  });

  it('answers a malformed certificate and the request options Foyer does not offer by field', async () => {
    const domain = 'bad.example.test';
    const malformed = await management('POST', '/federation/connection', {
      tenant: globex,
      body: original(domain, { certificate: 'MIIBnotacert' }),
    });
    expect(malformed).toMatchObject({ status: 400, body: { error: 'BAD_USER_INPUT', fields: { certificate: expect.any(String) } } });
    const posted = await management('POST', '/federation/connection', {
      tenant: globex,
      body: original(domain, { requestMethod: 'POST', signedRequest: true, signedRequestAlgorithm: 'sha256' }),
    });
    expect(posted).toMatchObject({
      status: 400,
      body: { fields: { requestMethod: expect.any(String), signedRequest: expect.any(String) } },
    });
    const noUrl = await management('POST', '/federation/connection', {
      tenant: globex,
      body: original(domain, { loginUrl: 'javascript:alert(1)' }),
    });
    expect(noUrl).toMatchObject({ status: 400, body: { fields: { loginUrl: expect.any(String) } } });
    // The workspace is the header's, never the body's.
    const smuggled = await management('POST', '/federation/connection', {
      tenant: globex,
      body: { ...original(`s-${domain}`), tenantId: acme },
    });
    expect(smuggled.status).toBe(201);
    expect((await management('GET', `/federation/connection/${smuggled.body.id as string}`, { tenant: acme })).status).toBe(404);
  });

  it("refuses another app's key, another workspace's connection id, a workspace of another app and a console token", async () => {
    const created = await management('POST', '/federation/connection', {
      tenant: acme,
      body: original(`k-${randomUUID().slice(0, 8)}.example.test`),
    });
    const id = created.body.id as string;
    expect((await management('GET', `/federation/connection/${id}`, { tenant: acme, apiKey: otherAppKey })).status).toBe(404);
    expect((await management('GET', '/federation/connection', { tenant: otherAppTenant })).status).toBe(404);
    expect((await management('GET', `/federation/connection/${id}`, { tenant: globex })).status).toBe(404);
    expect((await management('DELETE', `/federation/connection/${id}`, { tenant: globex })).status).toBe(404);
    expect((await management('PUT', `/federation/connection/${id}`, { tenant: globex, body: original('z.example.test') })).status).toBe(
      404,
    );
    expect((await management('GET', '/federation/connection', { tenant: acme, token: ownerToken })).status).toBe(401);
    expect((await management('GET', '/federation/connection', {})).status).toBe(400);
    expect((await management('GET', `/federation/connection/${id}`, { tenant: acme })).status).toBe(200);
  });
});
