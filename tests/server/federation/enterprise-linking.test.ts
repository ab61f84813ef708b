// Who an enterprise connection may sign in, as an attacker would try it: the Acme owner's connection
// to an OpenID Provider (the development IdP, server/dev-idp) with its domain verified through the DNS
// stand-in. It signs in a subject linked to it, a person whose every membership is in Acme, or a new
// person just in time; an identity with a workspace elsewhere (or none) is never linked on the
// provider's word alone: the browser is sent to the login, the person signs in the old way, and only
// then, in that browser and as that identity, confirms the link. An e-mail the provider has not
// verified links and creates nothing. A SAML connection's assertion is held to the same rule.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import {
  auditEvents,
  enterpriseDomains,
  federatedIdentities,
  federationStates,
  tenants,
  tenantUsers,
  users,
} from '../../../server/db/schema.ts';
import { CONSOLE_APP_ID } from '../../../server/apps/console.ts';
import { createConnection as insertConnection } from '../../../server/auth/enterprise/connections.ts';
import { hashPassword } from '../../../server/auth/passwords.ts';
import { DEV_IDP_CLIENT_ID, devIdpClientSecret } from '../../../server/dev-idp/server.ts';
import { Browser } from '../oidc/browser.ts';
import { startDnsStandIn, type DnsStandIn } from '../support/dns-stand-in.ts';
import { createTestIdp, readAuthnRequest, signedResponse } from '../support/saml-idp.ts';
import { federate } from './dev-idp.ts';
import { asMember, createConnection, publishAndVerify, workspaceNamed, type ConnectionAnswer } from './enterprise-support.ts';

const DOMAIN = 'dev-idp.foyer.test';
const GRACE = 'grace@dev-idp.foyer.test';
const ADA = 'ada@dev-idp.foyer.test';
const UNA = 'una@dev-idp.foyer.test';
const PASSWORD = 'Correct-Horse-41!';

let foyer: TestFoyer;
let dns: DnsStandIn;
let connection: ConnectionAnswer;
let acme: string;
let globex: string;

beforeAll(async () => {
  dns = await startDnsStandIn();
  foyer = await startFoyer({ dnsServers: [dns.server] });
  [acme, globex] = await Promise.all([workspaceNamed(foyer, foyer.demo.appId, 'Acme'), workspaceNamed(foyer, foyer.demo.appId, 'Globex')]);
  const acmeOwner = await asMember(foyer, foyer.demo.users[0]!.email, 'Acme');
  connection = await createConnection(acmeOwner, {
    kind: 'OIDC',
    name: 'Acme IdP',
    defaultRole: 'VIEWER',
    domains: [DOMAIN],
    oidcIssuer: foyer.config.devIdp.url,
    oidcClientId: DEV_IDP_CLIENT_ID,
    oidcClientSecret: devIdpClientSecret(foyer.config),
  });
  await publishAndVerify(acmeOwner, dns, connection, DOMAIN);
});
afterAll(async () => {
  await foyer?.close();
  await dns?.close();
});

// Every test starts with none of the development IdP's people in the app, and no pending link.
beforeEach(async () => {
  await foyer.db.delete(federationStates).where(eq(federationStates.intent, 'link'));
  for (const email of [GRACE, ADA, UNA]) {
    await foyer.db.delete(users).where(and(eq(users.appId, foyer.demo.appId), eq(users.email, email)));
  }
});

/** An identity with a password and a membership in each of `workspaces`. */
async function person(email: string, workspaces: string[]) {
  const id = randomUUID();
  await foyer.db.insert(users).values({
    id,
    appId: foyer.demo.appId,
    email,
    passwordHash: await hashPassword(PASSWORD),
    emailVerifiedAt: new Date(),
    onboarded: true,
  });
  const memberships = workspaces.map((tenantId) => ({ id: randomUUID(), tenantId, userId: id, role: 'OWNER' as const, onboarded: true }));
  if (memberships.length > 0) await foyer.db.insert(tenantUsers).values(memberships);
  return { id, memberships: memberships.map((membership) => membership.id) };
}

const linksOf = (userId: string) => foyer.db.select().from(federatedIdentities).where(eq(federatedIdentities.userId, userId));
const start = () => `${foyer.urls.auth}/federated/oidc/login/${connection.id}`;

/** Through the connection as the development IdP's `identity`, to wherever the browser lands on the hosted UI. */
async function throughConnection(browser: Browser, identity: string) {
  const run = await federate(foyer, browser, start(), identity);
  return new URL(run.url);
}

/** The hosted login's address when an existing identity must sign in the old way before linking. */
function expectAskedToSignIn(landed: URL, email: string) {
  expect(landed.origin + landed.pathname).toBe(`${foyer.urls.ui}/auth/login`);
  expect(Object.fromEntries(landed.searchParams)).toEqual({ appId: foyer.demo.appId, email, notice: 'enterpriseLink' });
}

async function signedIn(browser: Browser) {
  const answer = await browser.request(`${foyer.urls.auth}/auth/tenantUsers`);
  return answer.status === 200;
}

async function passwordSignIn(browser: Browser, email: string, password = PASSWORD) {
  const answer = await browser.request(`${foyer.urls.auth}/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
    body: JSON.stringify({ username: email, password }),
  });
  expect(answer.status).toBe(200);
}

/** The handover into a workspace (what the hosted UI opens once signed in): answers where it leads. */
async function choose(browser: Browser, tenantUserId: string) {
  const answer = await browser.request(`${foyer.urls.auth}/auth/chooseTenantUser/${tenantUserId}`);
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location')!, foyer.urls.auth);
}

function answerLink(browser: Browser, decision: 'link' | 'decline', tenantUserId: string) {
  return browser.request(`${foyer.urls.auth}/federated/link`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision, continue: tenantUserId }).toString(),
  });
}

describe('whom an enterprise connection signs in', () => {
  it('links and signs in a person whose every membership is in the connection’s workspace', async () => {
    const ada = await person(ADA, [acme]);
    const browser = new Browser();
    const landed = await throughConnection(browser, 'dev-ada');
    expect(landed.pathname).not.toBe('/auth/login');
    expect(await signedIn(browser)).toBe(true);
    expect((await linksOf(ada.id)).map((link) => link.subject)).toEqual(['dev-ada']);
  });

  it('never signs in or links, on the e-mail alone, an identity with a workspace elsewhere', async () => {
    const grace = await person(GRACE, [globex]);
    const attacker = new Browser();
    expectAskedToSignIn(await throughConnection(attacker, 'dev-grace'), GRACE);
    expect(await signedIn(attacker)).toBe(false);
    expect(await linksOf(grace.id)).toEqual([]);
    expect(await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.userId, grace.id))).toHaveLength(1);
  });

  it('never links, on the e-mail alone, an identity with no workspace or a workspace both here and elsewhere', async () => {
    for (const workspaces of [[], [acme, globex]]) {
      const grace = await person(GRACE, workspaces);
      const browser = new Browser();
      expectAskedToSignIn(await throughConnection(browser, 'dev-grace'), GRACE);
      expect(await signedIn(browser)).toBe(false);
      expect(await linksOf(grace.id)).toEqual([]);
      await foyer.db.delete(users).where(eq(users.id, grace.id));
    }
  });

  it('never links a console owner on the e-mail alone, even through their own workspace’s connection', async () => {
    const tenantId = randomUUID();
    await foyer.db.insert(tenants).values({ id: tenantId, appId: CONSOLE_APP_ID, name: 'Grace console', onboarded: true });
    const ownerId = randomUUID();
    await foyer.db.insert(users).values({ id: ownerId, appId: CONSOLE_APP_ID, email: GRACE, onboarded: true });
    await foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId, userId: ownerId, role: 'OWNER', onboarded: true });
    const consoleConnection = await insertConnection(
      foyer.config,
      foyer.db,
      { appId: CONSOLE_APP_ID, tenantId },
      {
        kind: 'oidc',
        name: 'Console IdP',
        defaultRole: 'VIEWER',
        domains: [DOMAIN],
        oidcIssuer: foyer.config.devIdp.url,
        oidcClientId: DEV_IDP_CLIENT_ID,
        oidcClientSecret: devIdpClientSecret(foyer.config),
      },
    );
    // Which route proves a domain is the connection tests' business; here it is proved.
    await foyer.db
      .update(enterpriseDomains)
      .set({ verifiedAt: new Date() })
      .where(eq(enterpriseDomains.connectionId, consoleConnection.id));

    const browser = new Browser();
    const landed = new URL(
      (await federate(foyer, browser, `${foyer.urls.auth}/federated/oidc/login/${consoleConnection.id}`, 'dev-grace')).url,
    );
    expect(landed.pathname).toBe('/auth/login');
    expect(landed.searchParams.get('notice')).toBe('enterpriseLink');
    expect(await linksOf(ownerId)).toEqual([]);
    await foyer.db.delete(tenants).where(eq(tenants.id, tenantId));
    await foyer.db.delete(users).where(eq(users.id, ownerId));
  });

  it('links once the person signed in the old way in the same browser and confirmed, and records it in their activity', async () => {
    const grace = await person(GRACE, [globex]);
    const browser = new Browser();
    expectAskedToSignIn(await throughConnection(browser, 'dev-grace'), GRACE);
    await passwordSignIn(browser, GRACE);
    const confirmation = await choose(browser, grace.memberships[0]!);
    expect(confirmation.href).toBe(`${foyer.urls.auth}/federated/link?continue=${grace.memberships[0]}`);
    const page = await browser.request(confirmation.href);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Acme IdP');
    expect(html).toContain(GRACE);
    expect(await linksOf(grace.id)).toEqual([]);

    const confirmed = await answerLink(browser, 'link', grace.memberships[0]!);
    expect(confirmed.status).toBe(303);
    const [joined] = await foyer.db
      .select()
      .from(tenantUsers)
      .where(and(eq(tenantUsers.userId, grace.id), eq(tenantUsers.tenantId, acme)));
    expect(joined!.role).toBe('VIEWER');
    expect(confirmed.headers.get('location')).toBe(`/auth/chooseTenantUser/${joined!.id}`);
    expect((await linksOf(grace.id)).map((link) => [link.provider, link.subject])).toEqual([[`oidc:${connection.id}`, 'dev-grace']]);
    // Single use: the answer cannot be sent again.
    expect((await answerLink(browser, 'link', grace.memberships[0]!)).status).toBe(410);

    const asGrace = await asMember(foyer, GRACE, 'Globex');
    const activity = await asGrace<{ myActivity: { type: string }[] }>('{ myActivity { type } }');
    expect(activity.body.data!.myActivity.map((event) => event.type)).toContain('enterprise.linked');

    // From now on the connection signs Grace in directly.
    const later = new Browser();
    expect((await throughConnection(later, 'dev-grace')).pathname).not.toBe('/auth/login');
    expect(await signedIn(later)).toBe(true);
  });

  it('links nothing when the person declines', async () => {
    const grace = await person(GRACE, [globex]);
    const browser = new Browser();
    await throughConnection(browser, 'dev-grace');
    await passwordSignIn(browser, GRACE);
    expect((await choose(browser, grace.memberships[0]!)).pathname).toBe('/federated/link');
    const declined = await answerLink(browser, 'decline', grace.memberships[0]!);
    expect(declined.status).toBe(303);
    expect(declined.headers.get('location')).toBe(`/auth/chooseTenantUser/${grace.memberships[0]}`);
    expect(await linksOf(grace.id)).toEqual([]);
    // The pending link is gone: the handover goes on to the workspace.
    expect((await choose(browser, grace.memberships[0]!)).pathname).not.toBe('/federated/link');
  });

  it('drops the pending link when another identity signs in, and refuses a confirmation as anyone else', async () => {
    const grace = await person(GRACE, [globex]);
    const owner = foyer.demo.users[0]!;
    // The attacker's own browser started the link through the attacker's connection, then signs in as the attacker.
    const attacker = new Browser();
    expectAskedToSignIn(await throughConnection(attacker, 'dev-grace'), GRACE);
    expect((await answerLink(attacker, 'link', grace.memberships[0]!)).status).toBe(401);
    await passwordSignIn(attacker, owner.email, owner.password);
    const ownMembership = await membershipId(owner.email, acme);
    expect((await answerLink(attacker, 'link', ownMembership)).status).toBe(403);
    expect((await choose(attacker, ownMembership)).pathname).not.toBe('/federated/link');
    expect(await linksOf(grace.id)).toEqual([]);
    expect(await pendingLinks()).toEqual([]);
  });

  it('drops a pending link after ten minutes', async () => {
    const grace = await person(GRACE, [globex]);
    const browser = new Browser();
    await throughConnection(browser, 'dev-grace');
    expect(await pendingLinks()).toHaveLength(1);
    await foyer.db
      .update(federationStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(federationStates.intent, 'link'));
    await passwordSignIn(browser, GRACE);
    expect((await choose(browser, grace.memberships[0]!)).pathname).not.toBe('/federated/link');
    expect((await answerLink(browser, 'link', grace.memberships[0]!)).status).toBe(410);
    expect(await linksOf(grace.id)).toEqual([]);
  });
});

async function membershipId(email: string, tenantId: string) {
  const [row] = await foyer.db
    .select({ id: tenantUsers.id })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(users.email, email), eq(tenantUsers.tenantId, tenantId)));
  return row!.id;
}

const pendingLinks = () => foyer.db.select().from(federationStates).where(eq(federationStates.intent, 'link'));

describe('an e-mail the OpenID Provider has not verified', () => {
  const refusedAtLogin = (landed: URL) => {
    expect(landed.origin + landed.pathname).toBe(`${foyer.urls.ui}/auth/login`);
    expect(landed.searchParams.get('error')).toBe('federation');
    expect(landed.searchParams.get('errorDetails')).toBe('enterpriseUnverifiedEmail');
  };

  it('creates nobody just in time', async () => {
    const browser = new Browser();
    refusedAtLogin(await throughConnection(browser, 'dev-una'));
    expect(await signedIn(browser)).toBe(false);
    expect(await foyer.db.select().from(users).where(eq(users.email, UNA))).toEqual([]);
  });

  it('links nobody, not even a person whose every membership is in the connection’s workspace', async () => {
    const una = await person(UNA, [acme]);
    const browser = new Browser();
    refusedAtLogin(await throughConnection(browser, 'dev-una'));
    expect(await signedIn(browser)).toBe(false);
    expect(await linksOf(una.id)).toEqual([]);
  });

  it('still signs in a subject already linked', async () => {
    const una = await person(UNA, [acme]);
    await foyer.db.insert(federatedIdentities).values({
      id: randomUUID(),
      appId: foyer.demo.appId,
      userId: una.id,
      provider: `oidc:${connection.id}`,
      subject: 'dev-una',
      email: UNA,
    });
    const browser = new Browser();
    expect((await throughConnection(browser, 'dev-una')).pathname).not.toBe('/auth/login');
    expect(await signedIn(browser)).toBe(true);
    const events = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, una.id), eq(auditEvents.type, 'login.success')));
    expect(events).toHaveLength(1);
  });
});

describe('a SAML connection', () => {
  it('never signs in or links, on its assertion alone, an identity with a workspace elsewhere', async () => {
    const domain = 'saml-linking.test';
    const idp = await createTestIdp('linking');
    const acmeOwner = await asMember(foyer, foyer.demo.users[0]!.email, 'Acme');
    const saml = await createConnection(acmeOwner, {
      kind: 'SAML',
      name: 'Acme SAML',
      defaultRole: 'VIEWER',
      domains: [domain],
      samlMetadataXml: idp.metadataXml,
    });
    await publishAndVerify(acmeOwner, dns, saml, domain);
    const email = `victim@${domain}`;
    const victim = await person(email, [globex]);

    const attacker = new Browser();
    const started = await attacker.request(`${foyer.urls.auth}/federated/saml/login/${saml.id}`);
    const request = readAuthnRequest(started.headers.get('location')!);
    const response = signedResponse(idp, { inResponseTo: request.id, acsUrl: request.acsUrl, audience: saml.spEntityId!, email });
    const posted = await attacker.request(saml.acsUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: response, RelayState: request.relayState }).toString(),
    });
    expect(posted.status).toBe(303);
    const end = await attacker.navigate(posted.headers.get('location')!, (url) => url.origin === foyer.urls.ui);
    expectAskedToSignIn(new URL(end.url), email);
    expect(await signedIn(attacker)).toBe(false);
    expect(await linksOf(victim.id)).toEqual([]);
  });
});
