// SAML sign-in in a real Chromium: a person types an address at a domain whose SAML connection is
// verified, is sent with an AuthnRequest to a test IdP (a small HTTP server of this test that signs
// the response with its own key, the way tests/server/support/saml-idp.ts signs with xml-crypto),
// signs in there, and the IdP's page posts the response to Foyer's ACS; the person lands signed in, a
// member of the workspace just in time. The login screen, the IdP's page and the landing pass axe, and
// so does the page of a domain proof mail's link, which asks and then confirms.
// The suite first: Foyer's passkey code (@simplewebauthn/server) loads the reflect polyfill that
// @peculiar/x509, which makes the test IdP's certificate, needs before it loads.
import { browserSuite } from './support/suite.ts';
import { demoWorkspaceId } from './support/workspaces.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { enterpriseDomains, tenantUsers, users } from '../server/db/schema.ts';
import { createConnection, samlEntityId } from '../server/auth/enterprise/connections.ts';
import { admin, consoleOwnerToken } from '../tests/server/support/console.ts';
import { nextLink } from './support/mailbox.ts';
import { escapeHtml } from '../server/notify/render.ts';
import { createTestIdp, readAuthnRequest, signedResponse, type TestIdp } from '../tests/server/support/saml-idp.ts';
import { expectNoAxeViolations } from './support/browser.ts';

const DOMAIN = 'saml-e2e.example.test';
const EMAIL = `grace@${DOMAIN}`;

let idp: TestIdp;
let idpServer: Server;
let idpUrl: string;
/** The audience the IdP signs for: Foyer's entity id for the connection, known once it is made. */
let audience = '';

const suite = browserSuite(async () => {
  idp = await createTestIdp('e2e');
  // The IdP's sign-in page: it reads Foyer's AuthnRequest and offers to answer it, signed, by form post.
  idpServer = createServer((request, response) => {
    const url = new URL(request.url ?? '/', idpUrl);
    if (url.pathname !== '/sso' || !url.searchParams.get('SAMLRequest')) {
      response.writeHead(404).end();
      return;
    }
    const authn = readAuthnRequest(url.toString());
    const samlResponse = signedResponse(idp, {
      inResponseTo: authn.id,
      acsUrl: authn.acsUrl,
      audience,
      email: EMAIL,
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Test IdP</title></head>
<body><main><h1>Test IdP</h1>
<form method="post" action="${escapeHtml(authn.acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">
<input type="hidden" name="RelayState" value="${escapeHtml(authn.relayState)}">
<button type="submit">Sign in as Grace Hopper</button>
</form></main></body></html>`);
  });
  await new Promise<void>((resolve) => idpServer.listen(0, '127.0.0.1', resolve));
  idpUrl = `http://127.0.0.1:${(idpServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (idpServer ? idpServer.close(() => resolve()) : resolve())));

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
        samlIdpEntityId: idp.entityId,
        samlSsoUrl: `${idpUrl}/sso`,
        samlCertificate: idp.certificatePem,
      },
    );
    audience = samlEntityId(foyer.config, connection.id);
    await foyer.db.update(enterpriseDomains).set({ verifiedAt: new Date() }).where(eq(enterpriseDomains.connectionId, connection.id));

    await page.goto(foyer.urls.ui);
    await page.getByLabel('Email').fill(EMAIL);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    // A single connection is chosen at once: straight to the IdP.
    await page.waitForURL((url) => url.origin === idpUrl);
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
        samlIdpEntityId: idp.entityId,
        samlSsoUrl: `${idpUrl}/sso`,
        samlCertificate: idp.certificatePem,
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
