// Enterprise SAML connections end to end: an OWNER adds a connection from a test IdP's metadata and
// verifies its domain through the DNS stand-in; the login screen's credentialsConfig lists it; the
// AuthnRequest goes to the IdP, whose response this test signs with the IdP's own key (xml-crypto);
// the ACS checks it and the person joins the workspace just in time. Hostile: replayed, unsigned and
// wrongly signed assertions, another audience, recipient or destination, an expired assertion, an
// answer to no request of Foyer's, an address outside the verified domain, another browser.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { federatedIdentities, tenantUsers, users } from '../../../server/db/schema.ts';
import { Browser } from '../oidc/browser.ts';
import { authorizationRequest, relyingParty } from '../oidc/sign-in.ts';
import { insertApp } from '../support/apps.ts';
import { startDnsStandIn, type DnsStandIn } from '../support/dns-stand-in.ts';
import { createTestIdp, readAuthnRequest, signedResponse, type ResponseOptions, type TestIdp } from '../support/saml-idp.ts';
import {
  asMember,
  createConnection,
  credentialsConfig,
  publishAndVerify,
  type ConnectionAnswer,
  type Member,
} from './enterprise-support.ts';

let foyer: TestFoyer;
let dns: DnsStandIn;
let idp: TestIdp;
let otherIdp: TestIdp;
let owner: Member;
let connection: ConnectionAnswer;
const DOMAIN = 'saml-corp.test';

beforeAll(async () => {
  dns = await startDnsStandIn();
  foyer = await startFoyer({ dnsServers: [dns.server] });
  [idp, otherIdp] = await Promise.all([createTestIdp('corp'), createTestIdp('intruder')]);
  owner = await asMember(foyer, foyer.demo.users[0]!.email, 'Acme');
  connection = await createConnection(owner, {
    kind: 'SAML',
    name: 'Corp SSO',
    defaultRole: 'MANAGER',
    domains: [DOMAIN, 'unproven-saml.test'],
    samlMetadataXml: idp.metadataXml,
  });
  await publishAndVerify(owner, dns, connection, DOMAIN);
});
afterAll(async () => {
  await foyer?.close();
  await dns?.close();
});

/** A browser at the IdP with Foyer's AuthnRequest: its id, the ACS and the relayed state. */
async function startLogin(browser = new Browser()) {
  const response = await browser.request(`${foyer.urls.auth}/federated/saml/login/${connection.id}`);
  expect(response.status).toBe(303);
  const location = response.headers.get('location')!;
  expect(location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
  return { browser, request: readAuthnRequest(location) };
}

/** The IdP's form post to the ACS, then (when accepted) the browser's way on. */
async function post(browser: Browser, samlResponse: string, relayState: string) {
  const response = await browser.request(connection.acsUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
  });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

function options(request: { id: string; acsUrl: string }, email: string, extra: Partial<ResponseOptions> = {}): ResponseOptions {
  return { inResponseTo: request.id, acsUrl: request.acsUrl, audience: connection.spEntityId!, email, ...extra };
}

async function membershipOf(email: string) {
  const [row] = await foyer.db
    .select({ role: tenantUsers.role, tenantId: tenantUsers.tenantId })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(users.appId, foyer.demo.appId), eq(users.email, email)));
  return row;
}

async function refused(extra: Partial<ResponseOptions>, email = `someone@${DOMAIN}`) {
  const { browser, request } = await startLogin();
  const answer = await post(browser, signedResponse(idp, options(request, email, extra)), request.relayState);
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.body)).toMatchObject({ error: 'FEDERATION_FAILED' });
  expect(await membershipOf(email)).toBeUndefined();
}

describe('an enterprise SAML connection', () => {
  it('shows the owner what to register, and reads the IdP from its metadata', () => {
    expect(connection).toMatchObject({
      kind: 'SAML',
      samlSsoUrl: idp.ssoUrl,
      spEntityId: `${foyer.urls.auth}/federated/saml/metadata/${connection.id}`,
      acsUrl: `${foyer.urls.auth}/federated/saml/acs/${connection.id}`,
    });
  });

  it('serves its SP metadata with the ACS URL', async () => {
    const response = await fetch(connection.spEntityId!);
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(xml).toContain(`entityID="${connection.spEntityId}"`);
    expect(xml).toContain(`Location="${connection.acsUrl}"`);
  });

  it('is listed at the login for addresses of its verified domain only', async () => {
    expect((await credentialsConfig(foyer, foyer.demo.appId, `Someone@${DOMAIN.toUpperCase()}`)).federationConnections).toEqual([
      { id: connection.id, name: 'Corp SSO', type: 'saml' },
    ]);
    expect((await credentialsConfig(foyer, foyer.demo.appId, 'someone@unproven-saml.test')).federationConnections).toEqual([]);
    expect((await credentialsConfig(foyer, foyer.demo.appId, 'someone@elsewhere.test')).federationConnections).toEqual([]);
  });

  it('signs a person in through a signed assertion and makes the membership just in time', async () => {
    const email = `new.person@${DOMAIN}`;
    const { browser, request } = await startLogin();
    expect(request.acsUrl).toBe(connection.acsUrl);
    const answer = await post(
      browser,
      signedResponse(idp, options(request, email, { firstName: 'New', lastName: 'Person' })),
      request.relayState,
    );
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${foyer.urls.auth}/federated/saml/callback?state=${encodeURIComponent(request.relayState)}`);
    const end = await browser.navigate(answer.location!, (url) => url.origin === foyer.urls.ui);
    expect(new URL(end.url).origin).toBe(foyer.urls.ui);
    expect(end.url).not.toContain('error');
    expect(await membershipOf(email)).toMatchObject({ role: 'MANAGER' });
    const [person] = await foyer.db
      .select()
      .from(users)
      .where(and(eq(users.appId, foyer.demo.appId), eq(users.email, email)));
    expect(person).toMatchObject({ firstName: 'New', lastName: 'Person' });
    expect(person!.emailVerifiedAt).not.toBeNull();
    const identities = await foyer.db.select().from(federatedIdentities).where(eq(federatedIdentities.userId, person!.id));
    expect(identities.map((identity) => identity.provider)).toEqual([`saml:${connection.id}`]);

    // Signing in again keeps the one identity and membership.
    const again = await startLogin();
    const second = await post(again.browser, signedResponse(idp, options(again.request, email)), again.request.relayState);
    expect(second.status).toBe(303);
    const secondEnd = await again.browser.navigate(second.location!, (url) => url.origin === foyer.urls.ui);
    expect(secondEnd.url).not.toContain('error');
    expect(await foyer.db.select().from(federatedIdentities).where(eq(federatedIdentities.userId, person!.id))).toHaveLength(1);
  });

  it('refuses a replayed assertion, even under a new request', async () => {
    const email = `replay@${DOMAIN}`;
    const first = await startLogin();
    const assertionId = `_replayed-${Date.now()}`;
    const accepted = await post(
      first.browser,
      signedResponse(idp, options(first.request, email, { assertionId })),
      first.request.relayState,
    );
    expect(accepted.status).toBe(303);
    // The same response again: its request was answered.
    const sameAgain = await post(
      first.browser,
      signedResponse(idp, options(first.request, email, { assertionId })),
      first.request.relayState,
    );
    expect(sameAgain.status).toBe(400);
    // The same assertion id answering a fresh request: remembered.
    const second = await startLogin();
    const replayed = await post(
      second.browser,
      signedResponse(idp, options(second.request, email, { assertionId })),
      second.request.relayState,
    );
    expect(replayed.status).toBe(400);
    expect(JSON.parse(replayed.body)).toMatchObject({ error: 'FEDERATION_FAILED' });
  });

  it('refuses an unsigned assertion', () => refused({ signature: 'none' }));
  it('refuses an assertion signed by another key', () => refused({ signature: { by: otherIdp } }));
  it('refuses another audience', () => refused({ audience: 'https://another-sp.test/metadata' }));
  it('refuses another recipient', () => refused({ recipient: `${foyer.urls.auth}/federated/saml/acs/another` }));
  it('refuses another destination', () => refused({ destination: 'https://another-sp.test/acs' }));
  it('refuses an expired assertion', () => refused({ validForMs: -10 * 60_000 }));
  it('refuses an answer to a request Foyer never sent', () => refused({ inResponseTo: '_never-sent' }));

  it('refuses a signed assertion for an address outside its verified domains', async () => {
    for (const email of ['someone@unproven-saml.test', 'owner@demo.foyer.test']) {
      const { browser, request } = await startLogin();
      const answer = await post(browser, signedResponse(idp, options(request, email)), request.relayState);
      expect(answer.status).toBe(303);
      const end = await browser.request(answer.location!);
      expect(end.status).toBe(403);
      expect(await end.json()).toMatchObject({ error: 'FEDERATION_DOMAIN_UNVERIFIED' });
    }
    expect(await membershipOf('someone@unproven-saml.test')).toBeUndefined();
  });

  it('refuses a response relayed to another browser or with no state of its own', async () => {
    const email = `elsewhere@${DOMAIN}`;
    const { browser, request } = await startLogin();
    const answer = await post(browser, signedResponse(idp, options(request, email)), request.relayState);
    expect(answer.status).toBe(303);
    const stranger = await new Browser().request(answer.location!);
    expect(stranger.status).toBe(400);
    expect(await stranger.json()).toMatchObject({ error: 'FEDERATION_STATE_INVALID' });

    const fresh = await startLogin();
    const unsolicited = await post(fresh.browser, signedResponse(idp, options(fresh.request, email)), '');
    expect(unsolicited.status).toBe(400);
    expect(await membershipOf(email)).toBeUndefined();
  });

  it("does not start this app's connection inside another app's pending sign-in", async () => {
    const otherApp = await insertApp(foyer, { name: 'Other app' });
    const pending = await authorizationRequest(await relyingParty(foyer, otherApp), `${foyer.urls.ui}/auth/oauth-callback`);
    const browser = new Browser();
    const atLogin = await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
    expect(atLogin.url).toBe(`${foyer.urls.ui}/auth/login?appId=${otherApp}`);
    const started = await browser.request(`${foyer.urls.auth}/federated/saml/login/${connection.id}`);
    expect(started.status).toBe(404);
    expect(await started.json()).toMatchObject({ error: 'CONNECTION_NOT_FOUND' });
    // The other app's login lists no connection of this app for the same domain.
    expect((await credentialsConfig(foyer, otherApp, `someone@${DOMAIN}`)).federationConnections).toEqual([]);
  });

  it('does not start another kind or an unknown connection', async () => {
    expect((await fetch(`${foyer.urls.auth}/federated/oidc/login/${connection.id}`, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${foyer.urls.auth}/federated/saml/login/nope`, { redirect: 'manual' })).status).toBe(404);
  });
});
