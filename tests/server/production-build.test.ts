// The production server (`npm run build:server`, then `npm run start:prod`): the bundle runs under
// plain node, without tsx, and behaves as server/main.ts does: a first start migrates and seeds, a
// restart on the same data folder serves the same app, a password sign-in (argon2id, login session,
// audit), the OpenAPI document (@fastify/swagger, bundled), and SIGTERM stops it cleanly. Every part
// the bundle loads on first use (docs/production.md) answers for real: the GraphQL engine, SAML
// (metadata, a login start and a signed sign-in with a test IdP), Stripe (a webhook's signature),
// nodemailer (a mail over SMTP), @simplewebauthn/server (passkey options) and qrcode (an
// authenticator app's enrolment). A chunk that exposes a package otherwise than its importer expects
// (a CommonJS package's named exports) fails only there, at its first use.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt } from 'jose';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';
import { loadConfig } from '../../server/config.ts';
import { testWebhookSecret } from '../../server/payments/test-provider/provider.ts';
import { DEMO_PASSWORD } from '../../server/seed/demo.ts';
import { asBearer, createConnection, publishAndVerify, type Member } from './federation/enterprise-support.ts';
import { startSmtpSink, type SmtpSink } from './notify/smtp-sink.ts';
import { Browser } from './oidc/browser.ts';
import { postJson, tokensOf } from './oidc/sign-in.ts';
import { signInWithPassword } from './mfa/support.ts';
import { spawnFoyer, type ChildFoyer } from './support/child-server.ts';
import { startDnsStandIn, type DnsStandIn } from './support/dns-stand-in.ts';
import { createTestIdp, readAuthnRequest, signedResponse, type TestIdp } from './support/saml-idp.ts';

const SECRET = 'production-build-test-secret-0123456789';
const OWNER = 'owner@demo.foyer.test';
const SAML_DOMAIN = 'saml-built.test';

let dataDir: string;
let sink: SmtpSink;
let dns: DnsStandIn;
let idp: TestIdp;
let first: Awaited<ReturnType<typeof spawnFoyer>>;
let foyer: ChildFoyer;
/** The demo owner's access token for Acme, from a real sign-in. */
let ownerToken: string;
let owner: Member;
const running: ChildFoyer[] = [];

beforeAll(async () => {
  [, sink, dns, idp] = await Promise.all([buildServer(), startSmtpSink(), startDnsStandIn(), createTestIdp('built')]);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'foyer-built-'));
  const env = { FOYER_SECRET: SECRET, SMTP_URL: sink.url, FOYER_DNS_SERVERS: dns.server };
  first = await spawnFoyer({ dataDir, built: true, env });
  running.push(first);
  await first.stop();
  foyer = await spawnFoyer({ dataDir, built: true, env, ports: first.ports });
  running.push(foyer);
  ownerToken = (await tokensOf(foyer, { email: OWNER, password: DEMO_PASSWORD }, 'Acme')).access_token;
  owner = asBearer(foyer.urls.api, ownerToken);
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((child) => child.kill()));
  await Promise.all([sink?.close(), dns?.close()]);
  await rm(dataDir, { recursive: true, force: true });
});

async function signIn(child: ChildFoyer, password: string): Promise<number> {
  const response = await fetch(`${child.urls.auth}/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': child.demo.appId, origin: child.urls.ui },
    body: JSON.stringify({ username: OWNER, password }),
  });
  return response.status;
}

describe('the built server', () => {
  it('starts under plain node on a new data folder, restarts on it, and serves the same app', async () => {
    expect(first.output()).toContain('Foyer is running (development)');
    expect(first.output()).not.toMatch(/tsx/);
    expect(foyer.demo.appId).toBe(first.demo.appId);

    const discovery = await fetch(`${foyer.urls.auth}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect((await discovery.json()).issuer).toBe(foyer.urls.auth);

    const openApi = await fetch(`${foyer.urls.api}/openapi.json`);
    expect(openApi.status).toBe(200);
    const document = await openApi.json();
    expect(document.info.title).toBe('Foyer API');
    expect(document.paths['/auth/authenticate'].servers).toEqual([{ url: foyer.urls.auth }]);

    expect(await signIn(foyer, DEMO_PASSWORD)).toBe(200);
    expect(await signIn(foyer, `${DEMO_PASSWORD}x`)).toBe(401);
  });

  it('answers GraphQL, anonymous and signed in (the GraphQL engine)', async () => {
    const config = await fetch(`${foyer.urls.api}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
      body: JSON.stringify({ query: '{ getAppAnonymous { name tenantSelfSignup } }' }),
    });
    expect(await config.json()).toEqual({ data: { getAppAnonymous: { name: 'Demo app', tenantSelfSignup: true } } });
    const users = await owner<{ listUsers: { email: string; role: string }[] }>('{ listUsers { email role } }');
    expect(users.body.errors).toBeUndefined();
    expect(users.body.data!.listUsers).toContainEqual({ email: OWNER, role: 'OWNER' });
  });

  it('serves a SAML connection: its metadata, a login start and a signed sign-in (node-saml)', async () => {
    const connection = await createConnection(owner, {
      kind: 'SAML',
      name: 'Built SSO',
      defaultRole: 'MANAGER',
      domains: [SAML_DOMAIN],
      samlMetadataXml: idp.metadataXml,
    });
    await publishAndVerify(owner, dns, connection, SAML_DOMAIN);

    const metadata = await fetch(connection.spEntityId!);
    expect(metadata.status).toBe(200);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${connection.spEntityId}"`);
    expect(xml).toContain(`Location="${connection.acsUrl}"`);

    const browser = new Browser();
    const start = await browser.request(`${foyer.urls.auth}/federated/saml/login/${connection.id}`);
    expect(start.status).toBe(303);
    const location = start.headers.get('location')!;
    expect(location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    const request = readAuthnRequest(location);
    expect(request.acsUrl).toBe(connection.acsUrl);

    const email = `built.person@${SAML_DOMAIN}`;
    const samlResponse = signedResponse(idp, { inResponseTo: request.id, acsUrl: request.acsUrl, audience: connection.spEntityId!, email });
    const accepted = await browser.request(connection.acsUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: request.relayState }).toString(),
    });
    expect(accepted.status).toBe(303);
    const end = await browser.navigate(accepted.headers.get('location')!, (url) => url.origin === foyer.urls.ui);
    expect(new URL(end.url).origin).toBe(foyer.urls.ui);
    expect(end.url).not.toContain('error');
    const users = await owner<{ listUsers: { email: string; role: string }[] }>('{ listUsers { email role } }');
    expect(users.body.data!.listUsers).toContainEqual({ email, role: 'MANAGER' });
  });

  it("checks a payment webhook's signature (Stripe)", async () => {
    const secret = testWebhookSecret(loadConfig({ FOYER_SECRET: SECRET }), foyer.demo.appId);
    const payload = JSON.stringify({
      id: `evt_built_${Date.now()}`,
      object: 'event',
      type: 'customer.subscription.updated',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'sub_built',
          object: 'subscription',
          status: 'active',
          metadata: {
            appId: foyer.demo.appId,
            tenantId: decodeJwt(ownerToken).tid,
            planKey: 'TEAM',
            currency: 'USD',
            recurrenceInterval: 'month',
          },
        },
      },
    });
    const post = (signature: string) =>
      fetch(`${foyer.urls.api}/payments/webhook/${foyer.demo.appId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
    const forged = await post(Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_forged' }));
    expect(forged.status).toBe(400);
    const signed = await post(Stripe.webhooks.generateTestHeaderString({ payload, secret }));
    expect(signed.status).toBe(200);
    expect(await signed.json()).toEqual({ received: true });
  });

  it('sends a reset mail over SMTP (nodemailer)', async () => {
    const email = 'viewer@globex.demo.foyer.test';
    const answer = await fetch(`${foyer.urls.auth}/auth/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
      body: JSON.stringify({ username: email }),
    });
    expect(answer.status).toBe(200);
    const { mail } = await sink.waitFor(email);
    expect(mail.subject).toBe('Reset your Demo app password');
    expect(mail.text).toMatch(new RegExp(`${foyer.urls.ui}/auth/set-password/[A-Za-z0-9_-]{43}`));
  });

  it('answers passkey options for a sign-in and for a new passkey (@simplewebauthn/server)', async () => {
    const rpId = new URL(foyer.urls.ui).hostname;
    const authentication = await fetch(`${foyer.urls.auth}/auth/passkeys/authentication-options`, {
      headers: { 'x-app-id': foyer.demo.appId },
    });
    expect(authentication.status).toBe(200);
    expect(await authentication.json()).toMatchObject({ rpId, challenge: expect.any(String) });

    const registration = await fetch(`${foyer.urls.auth}/auth/passkeys/registration-options`, {
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    expect(registration.status).toBe(200);
    expect(await registration.json()).toMatchObject({ rp: { id: rpId }, user: { name: OWNER }, challenge: expect.any(String) });
  });

  it("starts an authenticator app's enrolment with its QR code (qrcode)", async () => {
    const mfa = await owner('mutation { updateTenant(tenant: { mfa: true }) { mfa } }');
    expect(mfa.body).toEqual({ data: { updateTenant: { mfa: true } } });
    const { browser, answer } = await signInWithPassword(foyer, { email: 'admin@acme.demo.foyer.test' }, DEMO_PASSWORD);
    expect(answer.mfaState).toBe('SETUP');
    const started = await postJson(browser, `${foyer.urls.auth}/auth/startTotpSetup`, {}, foyer.urls.ui);
    expect(started.status).toBe(200);
    const { secret, otpauthUrl, qrCodeDataUrl } = (await started.json()) as { secret: string; otpauthUrl: string; qrCodeDataUrl: string };
    expect(otpauthUrl).toContain(`secret=${secret}`);
    const png = Buffer.from(qrCodeDataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('stops cleanly on SIGTERM and keeps its data', async () => {
    await foyer.stop();
    expect(foyer.output()).toContain('SIGTERM: stopping Foyer');
    expect(JSON.parse(await readFile(path.join(dataDir, 'demo.json'), 'utf8')).appId).toBe(first.demo.appId);
  });
});
