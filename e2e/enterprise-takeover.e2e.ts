// The takeover an enterprise connection once allowed, tried in a real Chromium (issue 40). Victims
// have password accounts and workspaces of their own. An attacker signs up (and so owns a workspace),
// adds an OIDC connection to a provider of their own (the development IdP stands in for it) for the
// victim's domain, proves the domain by its TXT record in the local DNS stand-in, and signs in through
// the connection as the victim: they get neither the victim's session nor a link, only the login
// asking the victim's account to sign in, and signing in there as themselves drops the pending link.
// The victim, sent through the same connection, signs in with their password and confirms the link
// from the keyboard on the confirmation page, and finds the link in their activity. Another attacker
// tries the same with a SAML IdP of their own, after the workspace settings refuse the public mail
// domain and the domain another workspace proved, and gets no further. Every screen passes axe.
// The suite first: Foyer's passkey code (@simplewebauthn/server) loads the reflect polyfill that
// @peculiar/x509, which makes the test IdPs' certificates, needs before it loads.
import { browserSuite } from './support/suite.ts';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  auditEvents,
  enterpriseConnections,
  enterpriseDomains,
  federatedIdentities,
  federationStates,
  tenants,
  tenantUsers,
  users,
} from '../server/db/schema.ts';
import { hashPassword } from '../server/auth/passwords.ts';
import { createConnection, samlEntityId } from '../server/auth/enterprise/connections.ts';
import { DEV_IDP_CLIENT_ID, devIdpClientSecret } from '../server/dev-idp/server.ts';
import type { TestFoyer } from '../server/testing.ts';
import { startDnsStandIn, type DnsStandIn } from '../tests/server/support/dns-stand-in.ts';
import { createTestIdp } from '../tests/server/support/saml-idp.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { nextLink } from './support/mailbox.ts';
import { startSamlIdpServer, type SamlIdpServer } from './support/saml-idp-server.ts';
import { demoWorkspaceId } from './support/workspaces.ts';

const DOMAIN = 'dev-idp.foyer.test';
const VICTIM = 'grace@dev-idp.foyer.test';
const VICTIM_PASSWORD = 'Victim-pass-2026!';
/** The SAML attack's victim, at a domain with no connection yet. */
const SAML_DOMAIN = 'analytical-engines.foyer.test';
const SAML_VICTIM = `ada@${SAML_DOMAIN}`;
/** A domain the demo app's Acme workspace proved for a connection of its own. */
const ACME_DOMAIN = 'acme-sso.foyer.test';
let dns: DnsStandIn;
let samlIdp: SamlIdpServer;

/** A victim: a password account, owner of a workspace of their own. */
async function addVictim(foyer: TestFoyer, person: { email: string; firstName: string; lastName: string; workspace: string }) {
  const userId = randomUUID();
  const tenantId = randomUUID();
  await foyer.db.insert(users).values({
    id: userId,
    appId: foyer.demo.appId,
    email: person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    passwordHash: await hashPassword(VICTIM_PASSWORD),
    emailVerifiedAt: new Date(),
    consentsToPrivacyPolicy: true,
    onboarded: true,
  });
  await foyer.db.insert(tenants).values({ id: tenantId, appId: foyer.demo.appId, name: person.workspace, onboarded: true });
  await foyer.db.insert(tenantUsers).values({ id: randomUUID(), tenantId, userId, role: 'OWNER', onboarded: true });
}

const suite = browserSuite(
  async (foyer) => {
    await addVictim(foyer, { email: VICTIM, firstName: 'Grace', lastName: 'Hopper', workspace: 'Grace Labs' });
    await addVictim(foyer, { email: SAML_VICTIM, firstName: 'Ada', lastName: 'Lovelace', workspace: 'Analytical Engines' });
    const acmeIdp = await createTestIdp('acme');
    const acme = await createConnection(
      foyer.config,
      foyer.db,
      { appId: foyer.demo.appId, tenantId: await demoWorkspaceId(foyer, 'Acme') },
      {
        kind: 'saml',
        name: 'Acme IdP',
        defaultRole: 'VIEWER',
        domains: [ACME_DOMAIN],
        samlIdpEntityId: acmeIdp.entityId,
        samlSsoUrl: acmeIdp.ssoUrl,
        samlCertificate: acmeIdp.certificatePem,
      },
    );
    await foyer.db.update(enterpriseDomains).set({ verifiedAt: new Date() }).where(eq(enterpriseDomains.connectionId, acme.id));
  },
  async () => {
    [dns, samlIdp] = await Promise.all([
      startDnsStandIn(),
      // The attacker's own SAML IdP, which asserts the victim's address.
      startSamlIdpServer('attacker', { email: SAML_VICTIM, firstName: 'Ada', lastName: 'Lovelace' }),
    ]);
    return { dnsServers: [dns.server] };
  },
);
const ui = () => suite.foyer.urls.ui;
afterAll(async () => {
  await Promise.all([dns?.close(), samlIdp?.close()]);
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

async function userIdOf(email: string) {
  const [user] = await suite.foyer.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.appId, suite.foyer.demo.appId), eq(users.email, email)));
  return user!.id;
}

/** The provider links of the identity with `email`. */
async function linksOf(email: string) {
  return suite.foyer.db
    .select()
    .from(federatedIdentities)
    .where(eq(federatedIdentities.userId, await userIdOf(email)));
}

/** The attacker's signup through the hosted screens, to the signed-in home of their own new workspace. */
async function signUpAttacker(page: Page, email: string, password: string) {
  await page.goto(`${ui()}/auth/signup?plan=FREEMIUM&currency=USD&recurrenceInterval=month`);
  const emailField = page.getByLabel('Email');
  await emailField.fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('checkbox', { name: /I agree to the privacy policy/ }).check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByText(`We sent an invite link to ${email}.`).waitFor();
  await page.goto(await nextLink(ui(), email, /\/auth\/set-password\//));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Back to login' }).click();
  await page.waitForURL(`${ui()}/onboard/user`);
  await page.getByLabel('First name').fill('Mallory');
  await page.getByLabel('Last name').fill('Attacker');
  await page.getByLabel('Last name').press('Enter');
  await page.waitForURL(`${ui()}/onboard/tenant`);
  await page.getByLabel('Workspace name').fill('Evil Corp');
  await page.getByLabel('Workspace name').press('Enter');
  await page.waitForURL(`${ui()}/`);
  await expect.poll(() => page.locator('dl').textContent()).toContain('Evil Corp');
}

/** The attacker's OIDC connection for the victim's domain, proved by its TXT record; answers its start address. */
async function addConnection(page: Page): Promise<string> {
  await page.goto(`${ui()}/user-management/workspace`);
  const section = page.getByRole('region', { name: 'Enterprise sign-in' });
  await section.getByRole('button', { name: 'Add connection' }).click();
  await section.getByRole('radio', { name: 'OpenID Connect (OIDC)' }).check();
  await section.getByLabel('Connection name').fill('Evil IdP');
  await section.getByLabel('E-mail domains').fill(DOMAIN);
  await section.getByLabel('Issuer URL').fill(suite.foyer.config.devIdp.url);
  await section.getByLabel('Client ID').fill(DEV_IDP_CLIENT_ID);
  await section.getByLabel('Client secret').fill(devIdpClientSecret(suite.foyer.config));
  await section.getByRole('button', { name: 'Save connection' }).click();
  await section.getByText('The connection has been saved.').waitFor();
  dns.txt.set(DOMAIN, [(await section.getByText(/^foyer-verification=/).textContent())!]);
  await section.getByRole('button', { name: `Verify ${DOMAIN}` }).click();
  await section.getByText('Verified', { exact: true }).waitFor();
  const [connection] = await suite.foyer.db
    .select({ id: enterpriseConnections.id })
    .from(enterpriseConnections)
    .where(eq(enterpriseConnections.name, 'Evil IdP'));
  return `${suite.foyer.urls.auth}/federated/oidc/login/${connection!.id}`;
}

/** Through the connection, choosing the victim at the provider, back to the hosted login that asks them to sign in. */
async function throughConnectionAsVictim(page: Page, start: string) {
  await page.goto(start);
  await page.getByRole('button', { name: 'Continue as Grace Hopper' }).click();
  await page.waitForURL((url) => url.origin === ui() && url.pathname === '/auth/login');
  await page.getByText('An account with this e-mail already exists.', { exact: false }).waitFor();
  await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(VICTIM);
}

describe('an enterprise connection made by an attacker', () => {
  it('signs the attacker in as nobody else; the victim links only by signing in and confirming', async () => {
    const { page, foyer } = suite;
    const attackerEmail = `mallory-${randomUUID().slice(0, 8)}@attacker.foyer.test`;
    const attackerPassword = 'Mallory-pass-2026!';
    await signUpAttacker(page, attackerEmail, attackerPassword);
    const start = await addConnection(page);

    // The attack: through their own connection as the victim's address.
    await throughConnectionAsVictim(page, start);
    expect(new URL(page.url()).searchParams.get('notice')).toBe('enterpriseLink');
    await expectNoAxeViolations(page);
    expect(await linksOf(VICTIM)).toEqual([]);
    // The pending link waits for the victim's account alone: the attacker signing in here drops it.
    const email = page.getByLabel('Email');
    await email.fill(attackerEmail);
    await email.press('Enter');
    await page.getByLabel('Password').fill(attackerPassword);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(`${ui()}/`);
    await expect.poll(() => page.locator('dl').textContent()).toContain('Evil Corp');
    expect(await page.locator('dl').textContent()).not.toContain('Grace Labs');
    const connectionId = start.slice(start.lastIndexOf('/') + 1);
    expect(
      await foyer.db
        .select()
        .from(federationStates)
        .where(and(eq(federationStates.intent, 'link'), eq(federationStates.connectionId, connectionId))),
    ).toEqual([]);
    expect(await linksOf(VICTIM)).toEqual([]);

    // The victim, in their own browser, sent through the same connection (a link the attacker mails them, say).
    const victimContext = await suite.browser.newContext();
    const victim = await victimContext.newPage();
    await victim.goto(ui());
    await victim.waitForURL(/\/auth\/login/);
    await throughConnectionAsVictim(victim, start);
    await victim.getByLabel('Email').press('Enter');
    const password = victim.getByLabel('Password');
    await password.fill(VICTIM_PASSWORD);
    await password.press('Enter');
    await victim.waitForURL((url) => url.href.startsWith(`${foyer.urls.auth}/federated/link?`));
    await expect.poll(() => heading(victim).textContent()).toBe('Link Evil IdP to your account');
    await victim.getByText(`You are signed in as ${VICTIM}.`, { exact: false }).waitFor();
    await expectNoAxeViolations(victim);
    expect(await linksOf(VICTIM)).toEqual([]);

    // From the keyboard: the first button is the link.
    await victim.keyboard.press('Tab');
    await expect.poll(() => victim.evaluate(() => document.activeElement?.textContent)).toBe('Link my account');
    await victim.keyboard.press('Enter');
    await victim.waitForURL(`${ui()}/`);
    await expect.poll(() => victim.locator('dl').textContent()).toContain('Evil Corp');
    expect((await linksOf(VICTIM)).map((link) => link.subject)).toEqual(['dev-grace']);
    const linked = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, await userIdOf(VICTIM)), eq(auditEvents.type, 'enterprise.linked')));
    expect(linked).toHaveLength(1);
    // And the victim sees it in their own activity.
    await victim.goto(`${ui()}/user-management/profile`);
    const activity = victim.getByRole('list', { name: 'Recent activity' });
    await activity.getByRole('listitem').filter({ hasText: 'Organisation sign-in linked' }).waitFor();
    await victimContext.close();
  });
});

describe('an enterprise SAML connection made by an attacker', () => {
  it('refuses a public mail domain and a domain another workspace proved, and signs the attacker in as nobody else', async () => {
    const { page, foyer } = suite;
    await signUpAttacker(page, `mallory-${randomUUID().slice(0, 8)}@attacker.foyer.test`, 'Mallory-pass-2026!');
    await page.goto(`${ui()}/user-management/workspace`);
    const section = page.getByRole('region', { name: 'Enterprise sign-in' });
    await section.getByRole('button', { name: 'Add connection' }).click();
    await section.getByRole('radio', { name: 'SAML 2.0' }).check();
    await section.getByLabel('Connection name').fill('Evil SAML IdP');
    const domains = section.getByLabel('E-mail domains');
    await domains.fill('gmail.com');
    await section.getByLabel('IdP entity ID').fill(samlIdp.idp.entityId);
    await section.getByLabel('IdP signing certificate (PEM)').fill(samlIdp.idp.certificatePem);
    await section.getByLabel('IdP sign-in URL').fill(samlIdp.ssoUrl);
    await section.getByLabel('IdP sign-in URL').press('Enter');

    // A public mail domain's addresses belong to the provider's customers: refused at the field.
    await section.getByText('gmail.com is a public mail domain; it cannot be claimed.').waitFor();
    await expect.poll(() => domains.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);
    // So is a domain another workspace has proved already.
    await domains.fill(ACME_DOMAIN);
    await domains.press('Enter');
    await section
      .getByText(`${ACME_DOMAIN} is already verified by another connection of this app. Ask the app's operator to release it.`)
      .waitFor();
    await expectNoAxeViolations(page);
    expect(await foyer.db.select().from(enterpriseConnections).where(eq(enterpriseConnections.name, 'Evil SAML IdP'))).toEqual([]);

    // The victim's domain has no connection yet: the attacker claims it and proves it by its TXT record.
    await domains.fill(SAML_DOMAIN);
    await domains.press('Enter');
    await section.getByText('The connection has been saved.').waitFor();
    dns.txt.set(SAML_DOMAIN, [(await section.getByText(/^foyer-verification=/).textContent())!]);
    await section.getByRole('button', { name: `Verify ${SAML_DOMAIN}` }).click();
    await section.getByText('Verified', { exact: true }).waitFor();
    await expectNoAxeViolations(page);
    const [connection] = await foyer.db
      .select({ id: enterpriseConnections.id })
      .from(enterpriseConnections)
      .where(eq(enterpriseConnections.name, 'Evil SAML IdP'));
    samlIdp.audience = samlEntityId(foyer.config, connection!.id);

    // The attack: the attacker's IdP asserts the victim's address, signed and addressed as Foyer asks.
    await page.goto(`${foyer.urls.auth}/federated/saml/login/${connection!.id}`);
    await page.waitForURL((url) => url.origin === samlIdp.url);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Sign in as Ada Lovelace' }).click();
    await page.waitForURL((url) => url.origin === ui() && url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('notice')).toBe('enterpriseLink');
    await page.getByText('An account with this e-mail already exists.', { exact: false }).waitFor();
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(SAML_VICTIM);
    await expectNoAxeViolations(page);
    expect(await linksOf(SAML_VICTIM)).toEqual([]);
    const memberships = await foyer.db
      .select({ workspace: tenants.name })
      .from(tenantUsers)
      .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
      .where(eq(tenantUsers.userId, await userIdOf(SAML_VICTIM)));
    expect(memberships).toEqual([{ workspace: 'Analytical Engines' }]);
  });
});
