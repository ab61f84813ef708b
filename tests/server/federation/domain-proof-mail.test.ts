// Proving a connection's domain by mail: the owner (admin API) sends a link to one of the domain's
// role mailboxes, delivered over real SMTP (./../notify/smtp-sink.ts) in the workspace's language;
// opening the link only asks, its button confirms, once; the domain then routes logins. Hostile: any
// other mailbox at the domain (one person's), an address at another domain or a subdomain, another
// workspace's connection, a public mail domain, two workspaces' links confirmed at once, a used, an
// expired and a made-up link, the token stored only as its hash.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { enterpriseDomains, tenants } from '../../../server/db/schema.ts';
import { admin, consoleOwnerToken } from '../support/console.ts';
import { createTestIdp, type TestIdp } from '../support/saml-idp.ts';
import { startSmtpSink, type SmtpSink } from '../notify/smtp-sink.ts';
import { asMember, credentialsConfig, workspaceNamed } from './enterprise-support.ts';
import { errorCodes } from '../support/graphql.ts';

let foyer: TestFoyer;
let sink: SmtpSink;
let idp: TestIdp;
let ownerToken: string;
let acme: string;
let globex: string;
let counter = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  foyer = await startFoyer({ smtpUrl: sink.url });
  idp = await createTestIdp('proof');
  ownerToken = await consoleOwnerToken(foyer);
  acme = await workspaceNamed(foyer, foyer.demo.appId, 'Acme');
  globex = await workspaceNamed(foyer, foyer.demo.appId, 'Globex');
});
afterAll(async () => {
  await foyer?.close();
  await sink?.close();
});

const base = (tenantId: string) => `/apps/${foyer.demo.appId}/tenants/${tenantId}/enterprise-connections`;

/** A fresh SAML connection of Acme's for a new domain. */
async function connectionFor() {
  const domain = `proof${++counter}-${Date.now()}.example.test`;
  const created = await admin<{ connection: { id: string } }>(foyer, 'POST', base(acme), {
    token: ownerToken,
    body: {
      kind: 'saml',
      name: 'Okta',
      defaultRole: 'VIEWER',
      domains: [domain],
      samlIdpEntityId: idp.entityId,
      samlSsoUrl: idp.ssoUrl,
      samlCertificate: idp.certificatePem,
    },
  });
  expect(created.status).toBe(201);
  return { id: created.body.connection.id, domain };
}

const sendProof = (tenantId: string, id: string, domain: string, address: string) =>
  admin(foyer, 'POST', `${base(tenantId)}/${id}/domains/${domain}/mail`, { token: ownerToken, body: { address } });

function linkIn(text: string, origin: string): string {
  const link = text.match(new RegExp(`${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/federated/domain-proof/[A-Za-z0-9_-]+`))?.[0];
  expect(link, text).toBeDefined();
  return link!;
}

describe('proving a domain by mail', () => {
  it('sends a link to postmaster@ the domain; the page asks, its button confirms once, and logins are routed', async () => {
    await foyer.db.update(tenants).set({ locale: 'sv' }).where(eq(tenants.id, acme));
    try {
      const { id, domain } = await connectionFor();
      const address = `postmaster@${domain}`;
      const sent = await sendProof(acme, id, domain, ` PostMaster@${domain.toUpperCase()} `);
      expect(sent).toMatchObject({ status: 202, body: { sentTo: address } });
      const { mail } = await sink.waitFor(address);
      // In the workspace's language (Swedish), naming the workspace and the domain.
      expect(mail.subject).toBe(`Bekräfta ${domain} för ”Acme”`);
      expect(mail.text).toContain('Länken fungerar en gång och slutar gälla om 1 dag.');
      const link = linkIn(mail.text!, foyer.urls.auth);
      const [row] = await foyer.db.select().from(enterpriseDomains).where(eq(enterpriseDomains.connectionId, id));
      expect(row!.mailTokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(link).not.toContain(row!.mailTokenHash!);

      // Opening the link (as a mail scanner would) confirms nothing.
      const asked = await fetch(link);
      expect(asked.status).toBe(200);
      expect(await asked.text()).toContain(`<form method="post">`);
      expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toEqual([]);

      const confirmed = await fetch(link, { method: 'POST' });
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toContain(`${domain} är bekräftad.`);
      expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toMatchObject([{ id }]);

      // Single use.
      expect((await fetch(link, { method: 'POST' })).status).toBe(410);
      expect((await fetch(link)).status).toBe(410);
    } finally {
      await foyer.db.update(tenants).set({ locale: 'en' }).where(eq(tenants.id, acme));
    }
  });

  it("sends only to the domain's role mailboxes, never another mailbox there, at another domain or a subdomain", async () => {
    const { id, domain } = await connectionFor();
    for (const address of [
      `it-team@${domain}`,
      `ceo@${domain}`,
      `postmaster+owner@${domain}`,
      `post.master@${domain}`,
      `it@evil.test`,
      `postmaster@mail.${domain}`,
      `postmaster@${domain}.evil.test`,
      'not an address',
      `a b@${domain}`,
    ]) {
      const refused = await sendProof(acme, id, domain, address);
      expect(refused, address).toMatchObject({
        status: 400,
        body: {
          details: [
            {
              path: '/address',
              code: 'roleMailbox',
              params: { domain, mailboxes: ['postmaster', 'hostmaster', 'webmaster', 'admin', 'administrator'] },
            },
          ],
        },
      });
    }
    expect(
      sink.received.some((entry) =>
        entry.envelopeTo.some((to) => to.endsWith('evil.test') || !/^(postmaster|hostmaster|webmaster|admin|administrator)@/.test(to)),
      ),
    ).toBe(false);
    for (const mailbox of ['hostmaster', 'administrator']) {
      expect((await sendProof(acme, id, domain, `${mailbox}@${domain}`)).status).toBe(202);
      await sink.waitFor(`${mailbox}@${domain}`);
    }
  });

  it('never mails a proof for a public mail domain, not even of a claim listed before they were refused', async () => {
    const { id } = await connectionFor();
    await foyer.db.insert(enterpriseDomains).values({ connectionId: id, appId: foyer.demo.appId, domain: 'web.de', token: 'legacy-token' });
    const refused = await sendProof(acme, id, 'web.de', 'postmaster@web.de');
    expect(refused).toMatchObject({
      status: 400,
      body: { error: 'DOMAIN_NOT_CLAIMABLE', details: [{ path: '/domain', code: 'publicMailDomain', params: { domain: 'web.de' } }] },
    });
    expect(sink.received.some((entry) => entry.envelopeTo.includes('postmaster@web.de'))).toBe(false);
  });

  it("confirms one workspace's claim of a domain only: a second link confirmed at once, or later, verifies nothing", async () => {
    const domain = `contested${++counter}-${Date.now()}.example.test`;
    const claimants = [];
    for (const tenantId of [acme, globex, globex]) {
      const created = await admin<{ connection: { id: string } }>(foyer, 'POST', base(tenantId), {
        token: ownerToken,
        body: {
          kind: 'saml',
          name: 'Okta',
          defaultRole: 'VIEWER',
          domains: [domain],
          samlIdpEntityId: idp.entityId,
          samlSsoUrl: idp.ssoUrl,
          samlCertificate: idp.certificatePem,
        },
      });
      expect(created.status).toBe(201);
      claimants.push({ tenantId, id: created.body.connection.id });
    }
    const mailboxes = ['postmaster', 'hostmaster', 'webmaster'];
    const links: string[] = [];
    for (const [index, claimant] of claimants.entries()) {
      expect((await sendProof(claimant.tenantId, claimant.id, domain, `${mailboxes[index]}@${domain}`)).status).toBe(202);
      links.push(linkIn((await sink.waitFor(`${mailboxes[index]}@${domain}`)).mail.text!, foyer.urls.auth));
    }
    const [first, second] = await Promise.all(links.slice(0, 2).map((link) => fetch(link, { method: 'POST' })));
    expect([first!.status, second!.status].sort()).toEqual([200, 409]);
    const loser = first!.status === 409 ? first! : second!;
    expect(await loser.text()).toContain(`${domain} is already verified for another connection of Demo app. Nothing was changed`);
    const late = await fetch(links[2]!, { method: 'POST' });
    expect(late.status).toBe(409);
    // Spent: the link does not try again.
    expect((await fetch(links[2]!, { method: 'POST' })).status).toBe(410);
    const verified = await foyer.db.select().from(enterpriseDomains).where(eq(enterpriseDomains.domain, domain));
    expect(verified.filter((row) => row.verifiedAt !== null)).toHaveLength(1);
    const winner = claimants[first!.status === 200 ? 0 : 1]!;
    expect((await credentialsConfig(foyer, foyer.demo.appId, `ann@${domain}`)).federationConnections).toMatchObject([{ id: winner.id }]);
    // And no further proof mail goes out for the held domain.
    const again = await sendProof(claimants[2]!.tenantId, claimants[2]!.id, domain, `admin@${domain}`);
    expect(again).toMatchObject({ status: 400, body: { details: [{ path: '/domain', code: 'domainClaimed' }] } });
  });

  it("refuses another workspace's connection, and answers an expired, replaced or made-up link as no longer working", async () => {
    const { id, domain } = await connectionFor();
    expect((await sendProof(globex, id, domain, `postmaster@${domain}`)).status).toBe(404);

    expect((await sendProof(acme, id, domain, `admin@${domain}`)).status).toBe(202);
    const first = linkIn((await sink.waitFor(`admin@${domain}`)).mail.text!, foyer.urls.auth);
    expect((await sendProof(acme, id, domain, `webmaster@${domain}`)).status).toBe(202);
    const second = linkIn((await sink.waitFor(`webmaster@${domain}`)).mail.text!, foyer.urls.auth);
    // A new mail replaces the previous link.
    expect((await fetch(first, { method: 'POST' })).status).toBe(410);

    await foyer.db
      .update(enterpriseDomains)
      .set({ mailExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(enterpriseDomains.connectionId, id));
    const expired = await fetch(second, { method: 'POST' });
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This link has expired or was already used.');
    expect((await fetch(`${foyer.urls.auth}/federated/domain-proof/made-up-token`, { method: 'POST' })).status).toBe(410);
    const [row] = await foyer.db.select().from(enterpriseDomains).where(eq(enterpriseDomains.connectionId, id));
    expect(row!.verifiedAt).toBeNull();
  });

  it("lets the workspace's OWNER send it through GraphQL, and no one else", async () => {
    const { id, domain } = await connectionFor();
    const mutation =
      'mutation ($id: String!, $domain: String!, $address: String!) { sendEnterpriseDomainMail(id: $id, domain: $domain, address: $address) }';
    const variables = { id, domain, address: `hostmaster@${domain}` };
    const acmeAdmin = await asMember(foyer, 'admin@acme.demo.foyer.test', 'Acme');
    expect(errorCodes(await acmeAdmin(mutation, variables))).toEqual(['FORBIDDEN']);
    const globexOwner = await asMember(foyer, foyer.demo.users[0]!.email, 'Globex');
    expect(errorCodes(await globexOwner(mutation, variables))).toEqual(['NOT_FOUND']);
    const acmeOwner = await asMember(foyer, foyer.demo.users[0]!.email, 'Acme');
    expect(errorCodes(await acmeOwner(mutation, { ...variables, address: 'hostmaster@evil.test' }))).toEqual(['BAD_USER_INPUT']);
    const personal = await acmeOwner(mutation, { ...variables, address: `jane@${domain}` });
    expect(personal.body.errors![0]!.extensions).toMatchObject({ fieldIssues: { address: [{ code: 'roleMailbox', params: { domain } }] } });
    const sent = await acmeOwner<{ sendEnterpriseDomainMail: string }>(mutation, variables);
    expect(sent.body.data?.sendEnterpriseDomainMail).toBe(`hostmaster@${domain}`);
    const link = linkIn((await sink.waitFor(`hostmaster@${domain}`)).mail.text!, foyer.urls.auth);
    expect((await fetch(link, { method: 'POST' })).status).toBe(200);
  });
});
