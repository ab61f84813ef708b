// Enterprise sign-in in a real Chromium: the demo owner adds an OIDC connection on the workspace page
// (the development identity provider, server/dev-idp, as the issuer), publishes its TXT record in the
// local DNS stand-in and verifies the domain; a person with an address at that domain is sent from the
// login screen to the connection and comes back signed in, a member just in time. The section passes
// axe and fits 320 px.
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { enterpriseDomains, tenantUsers, users } from '../server/db/schema.ts';
import { createConnection, deleteConnection } from '../server/auth/enterprise/connections.ts';
import { DEV_IDP_CLIENT_ID, devIdpClientSecret } from '../server/dev-idp/server.ts';
import { startDnsStandIn, type DnsStandIn } from '../tests/server/support/dns-stand-in.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { nextLink } from './support/mailbox.ts';
import { signInToWorkspace } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';
import { demoWorkspaceId } from './support/workspaces.ts';

const DOMAIN = 'dev-idp.foyer.test';
let dns: DnsStandIn;

const suite = browserSuite(undefined, async () => {
  dns = await startDnsStandIn();
  return { dnsServers: [dns.server] };
});
const ui = () => suite.foyer.urls.ui;
afterAll(() => dns?.close());

describe('enterprise sign-in connections', () => {
  it('an owner adds an OIDC connection and verifies its domain, at 320 px', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 320, height: 720 });
    await signInToWorkspace(page, ui());
    await page.goto(`${ui()}/user-management/workspace`);
    const section = page.getByRole('region', { name: 'Enterprise sign-in' });
    await section.getByText('No connections yet.').waitFor();
    await expectNoAxeViolations(page);

    await section.getByRole('button', { name: 'Add connection' }).click();
    await section.getByRole('radio', { name: 'OpenID Connect (OIDC)' }).check();
    await section.getByLabel('Connection name').fill('Dev IdP');
    await section.getByLabel('E-mail domains').fill(DOMAIN);
    await section.getByLabel('Issuer URL').fill('not a url');
    await section.getByLabel('Client ID').fill(DEV_IDP_CLIENT_ID);
    await section.getByLabel('Client secret').fill(devIdpClientSecret(suite.foyer.config));
    await section.getByRole('button', { name: 'Save connection' }).click();
    await section.getByText("Enter the issuer's URL, starting with https://.").waitFor();
    expect(await section.getByLabel('Issuer URL').getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);

    await section.getByLabel('Issuer URL').fill(suite.foyer.config.devIdp.url);
    await section.getByRole('button', { name: 'Save connection' }).click();
    await section.getByText('The connection has been saved.').waitFor();
    await section.getByText(`${suite.foyer.urls.auth}/federated/oidc/callback`).waitFor();
    await section.getByText('Not verified').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);

    // Not published yet: the check says so, and the domain routes nothing.
    const verify = section.getByRole('button', { name: `Verify ${DOMAIN}` });
    await verify.click();
    await section.getByText(`No matching TXT record was found at ${DOMAIN} yet.`, { exact: false }).waitFor();
    const record = (await section.getByText(/^foyer-verification=/).textContent())!;
    dns.txt.set(DOMAIN, [record]);
    await verify.focus();
    await page.keyboard.press('Enter');
    await section.getByText('Verified', { exact: true }).waitFor();
    await expectNoAxeViolations(page);
    const [domain] = await suite.foyer.db.select().from(enterpriseDomains).where(eq(enterpriseDomains.domain, DOMAIN));
    expect(domain!.verifiedAt).not.toBeNull();

    await section.getByRole('button', { name: 'Remove Dev IdP' }).click();
    await section.getByText('No connections yet.').waitFor();
  });

  it('an owner proves a domain by a mailed link from the workspace page, with the keyboard', async () => {
    const { foyer, page } = suite;
    const domain = 'mail-proof.example.test';
    const connection = await createConnection(
      foyer.config,
      foyer.db,
      { appId: foyer.demo.appId, tenantId: await demoWorkspaceId(suite.foyer, 'Acme') },
      {
        kind: 'oidc',
        name: 'Mailed proof',
        defaultRole: 'VIEWER',
        domains: [domain],
        oidcIssuer: foyer.config.devIdp.url,
        oidcClientId: DEV_IDP_CLIENT_ID,
        oidcClientSecret: devIdpClientSecret(foyer.config),
      },
    );
    await page.setViewportSize({ width: 320, height: 720 });
    await signInToWorkspace(page, ui());
    await page.goto(`${ui()}/user-management/workspace`);
    const section = page.getByRole('region', { name: 'Enterprise sign-in' });
    // Only the domain's role mailboxes are offered: a personal address does not prove the domain.
    const mailbox = section.getByLabel(`Or mail a confirmation link to an administrative mailbox at ${domain}`);
    expect(await mailbox.inputValue()).toBe('postmaster');
    expect(await mailbox.locator('option').allTextContents()).toEqual(
      ['postmaster', 'hostmaster', 'webmaster', 'admin', 'administrator'].map((name) => `${name}@${domain}`),
    );

    // A domain another workspace holds is refused by the server, at the field.
    const rival = await createConnection(
      foyer.config,
      foyer.db,
      { appId: foyer.demo.appId, tenantId: await demoWorkspaceId(suite.foyer, 'Globex') },
      {
        kind: 'oidc',
        name: 'Rival',
        defaultRole: 'VIEWER',
        domains: [domain],
        oidcIssuer: foyer.config.devIdp.url,
        oidcClientId: DEV_IDP_CLIENT_ID,
        oidcClientSecret: devIdpClientSecret(foyer.config),
      },
    );
    await foyer.db.update(enterpriseDomains).set({ verifiedAt: new Date() }).where(eq(enterpriseDomains.connectionId, rival.id));
    await section.getByRole('button', { name: `Send link to ${domain}` }).click();
    await section
      .getByText(`${domain} is already verified by another connection of this app. Ask the app's operator to release it.`)
      .waitFor();
    expect(await mailbox.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);
    await deleteConnection(foyer.db, rival);

    await mailbox.selectOption('hostmaster');
    await section.getByRole('button', { name: `Send link to ${domain}` }).press('Enter');
    await section.getByRole('status').getByText(`We sent a confirmation link to hostmaster@${domain}.`, { exact: false }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);

    await page.goto(await nextLink(ui(), `hostmaster@${domain}`, /\/federated\/domain-proof\//));
    await page.getByRole('button', { name: 'Confirm the domain' }).click();
    await page.getByRole('status').getByText(`${domain} is confirmed.`, { exact: false }).waitFor();
    await page.goto(`${ui()}/user-management/workspace`);
    await section.getByRole('list', { name: 'Domains of Mailed proof' }).getByText('Verified', { exact: true }).waitFor();
    const [proved] = await foyer.db.select().from(enterpriseDomains).where(eq(enterpriseDomains.connectionId, connection.id));
    expect(proved!.verifiedAt).not.toBeNull();
    await section.getByRole('button', { name: 'Remove Mailed proof' }).click();
    await section.getByText('No connections yet.').waitFor();
  });

  it('routes a person of the verified domain from the login screen to the connection and back signed in', async () => {
    const { foyer } = suite;
    const connection = await createConnection(
      foyer.config,
      foyer.db,
      { appId: foyer.demo.appId, tenantId: await demoWorkspaceId(suite.foyer, 'Acme') },
      {
        kind: 'oidc',
        name: 'Dev IdP',
        defaultRole: 'MANAGER',
        domains: [DOMAIN],
        oidcIssuer: foyer.config.devIdp.url,
        oidcClientId: DEV_IDP_CLIENT_ID,
        oidcClientSecret: devIdpClientSecret(foyer.config),
      },
    );
    await foyer.db.update(enterpriseDomains).set({ verifiedAt: new Date() }).where(eq(enterpriseDomains.connectionId, connection.id));

    const { page } = suite;
    await page.goto(ui());
    await page.getByLabel('Email').fill('ada@dev-idp.foyer.test');
    await page.getByRole('button', { name: 'Continue' }).click();
    // A single connection is chosen at once: straight to the provider.
    await page.waitForURL((url) => url.origin === foyer.config.devIdp.url);
    await page.getByRole('button', { name: 'Continue as Ada Lovelace' }).click();
    await page.waitForURL(`${ui()}/`);
    await page.getByText('You are signed in').waitFor();
    await expectNoAxeViolations(page);

    const [membership] = await foyer.db
      .select({ role: tenantUsers.role })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(and(eq(users.email, 'ada@dev-idp.foyer.test'), eq(tenantUsers.tenantId, await demoWorkspaceId(suite.foyer, 'Acme'))));
    expect(membership).toEqual({ role: 'MANAGER' });
  });
});
