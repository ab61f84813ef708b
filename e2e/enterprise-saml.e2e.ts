// SAML sign-in in a real Chromium: a person types an address at a domain whose SAML connection is
// verified, is sent with an AuthnRequest to a test IdP (e2e/support/saml-idp-server.ts: a small HTTP
// server that signs the response with its own key), signs in there, and the IdP's page posts the
// response to Foyer's ACS; the person lands signed in, a member of the workspace just in time. The
// login screen, the IdP's page and the landing pass axe, and so does the page of a domain proof
// mail's link, which asks and then confirms.
// The suite first: Foyer's passkey code (@simplewebauthn/server) loads the reflect polyfill that
// @peculiar/x509, which makes the test IdP's certificate, needs before it loads.
import { browserSuite } from './support/suite.ts';
import { demoWorkspaceId } from './support/workspaces.ts';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { enterpriseDomains, tenantUsers, users } from '../server/db/schema.ts';
import { createConnection, samlEntityId } from '../server/auth/enterprise/connections.ts';
import { admin, consoleOwnerToken } from '../tests/server/support/console.ts';
import { nextLink } from './support/mailbox.ts';
import { startSamlIdpServer, type SamlIdpServer } from './support/saml-idp-server.ts';
import { expectNoAxeViolations } from './support/browser.ts';

const DOMAIN = 'saml-e2e.example.test';
const EMAIL = `grace@${DOMAIN}`;

let samlIdp: SamlIdpServer;

const suite = browserSuite(async () => {
  samlIdp = await startSamlIdpServer('e2e', { email: EMAIL, firstName: 'Grace', lastName: 'Hopper' });
});
afterAll(() => samlIdp?.close());

describe('enterprise SAML sign-in', () => {
  it('sends a person of the verified domain to the IdP and back through the ACS, signed in', async () => {
    const { foyer, page } = suite;
    const connection = await createConnection(
      foyer.config,
      foyer.db,
      { appId: foyer.demo.appId, tenantId: await demoWorkspaceId(suite.foyer, 'Acme') },
      {
        kind: 'saml',
        name: 'Test IdP',
        defaultRole: 'VIEWER',
        domains: [DOMAIN],
        samlIdpEntityId: samlIdp.idp.entityId,
        samlSsoUrl: samlIdp.ssoUrl,
        samlCertificate: samlIdp.idp.certificatePem,
      },
    );
    samlIdp.audience = samlEntityId(foyer.config, connection.id);
    await foyer.db.update(enterpriseDomains).set({ verifiedAt: new Date() }).where(eq(enterpriseDomains.connectionId, connection.id));

    await page.goto(foyer.urls.ui);
    await page.getByLabel('Email').fill(EMAIL);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    // A single connection is chosen at once: straight to the IdP.
    await page.waitForURL((url) => url.origin === samlIdp.url);
    await page.getByRole('heading', { name: 'Test IdP' }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Sign in as Grace Hopper' }).click();
    await page.waitForURL(`${foyer.urls.ui}/`);
    await page.getByText('You are signed in').waitFor();
    await expectNoAxeViolations(page);

    const [membership] = await foyer.db
      .select({ role: tenantUsers.role, firstName: users.firstName })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(and(eq(users.email, EMAIL), eq(tenantUsers.tenantId, await demoWorkspaceId(suite.foyer, 'Acme'))));
    expect(membership).toEqual({ role: 'VIEWER', firstName: 'Grace' });
  });

  it("proves a domain from the mail's page: it asks, its button confirms, both pass axe at 320 px", async () => {
    const { foyer, page } = suite;
    const domain = 'mail-proof.example.test';
    const connection = await createConnection(
      foyer.config,
      foyer.db,
      { appId: foyer.demo.appId, tenantId: await demoWorkspaceId(suite.foyer, 'Acme') },
      {
        kind: 'saml',
        name: 'Mail proof',
        defaultRole: 'VIEWER',
        domains: [domain],
        samlIdpEntityId: samlIdp.idp.entityId,
        samlSsoUrl: samlIdp.ssoUrl,
        samlCertificate: samlIdp.idp.certificatePem,
      },
    );
    const sent = await admin(
      foyer,
      'POST',
      `/apps/${foyer.demo.appId}/tenants/${await demoWorkspaceId(suite.foyer, 'Acme')}/enterprise-connections/${connection.id}/domains/${domain}/mail`,
      {
        token: await consoleOwnerToken(foyer),
        body: { address: `postmaster@${domain}` },
      },
    );
    expect(sent.status).toBe(202);
    const link = await nextLink(foyer.urls.ui, `postmaster@${domain}`, /\/federated\/domain-proof\//);

    await page.setViewportSize({ width: 320, height: 720 });
    await page.goto(link);
    await page.getByRole('heading', { name: `Confirm ${domain}` }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Confirm the domain' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText(`${domain} is confirmed.`, { exact: false }).waitFor();
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    const [proved] = await foyer.db.select().from(enterpriseDomains).where(eq(enterpriseDomains.connectionId, connection.id));
    expect(proved!.verifiedAt).not.toBeNull();
  });
});
