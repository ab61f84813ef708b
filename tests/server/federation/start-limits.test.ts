// Starting a sign-in with a provider needs no account, and each start keeps rows for ten minutes (a
// federation state; for SAML also the AuthnRequest's id): one address starts a bounded number a
// window per app (FEDERATION_STARTS), enterprise and social alike, then gets 429 and nothing is kept.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents, federationStates, samlMessageIds } from '../../../server/db/schema.ts';
import { FEDERATION_STARTS } from '../../../server/auth/federation/service.ts';
import { startDnsStandIn, type DnsStandIn } from '../support/dns-stand-in.ts';
import { createTestIdp } from '../support/saml-idp.ts';
import { insertApp } from '../support/apps.ts';
import { asMember, createConnection, publishAndVerify, type ConnectionAnswer } from './enterprise-support.ts';

let foyer: TestFoyer;
let dns: DnsStandIn;
let connection: ConnectionAnswer;
const DOMAIN = 'start-limits.test';
const [limit] = FEDERATION_STARTS;

beforeAll(async () => {
  dns = await startDnsStandIn();
  // Behind a trusted proxy, so the test names its client addresses.
  foyer = await startFoyer({ dnsServers: [dns.server], trustProxy: ['127.0.0.1'] });
  const owner = await asMember(foyer, foyer.demo.users[0]!.email, 'Acme');
  const idp = await createTestIdp('corp');
  connection = await createConnection(owner, {
    kind: 'SAML',
    name: 'Corp SSO',
    defaultRole: 'MANAGER',
    domains: [DOMAIN],
    samlMetadataXml: idp.metadataXml,
  });
  await publishAndVerify(owner, dns, connection, DOMAIN);
});
afterAll(async () => {
  await foyer?.close();
  await dns?.close();
});

const open = (path: string, ip: string) => fetch(`${foyer.urls.auth}${path}`, { redirect: 'manual', headers: { 'x-forwarded-for': ip } });
const samlStart = (ip: string) => open(`/federated/saml/login/${connection.id}`, ip);

async function keptRows() {
  const [states] = await foyer.db.select({ n: count() }).from(federationStates);
  const [requests] = await foyer.db.select({ n: count() }).from(samlMessageIds);
  return { states: states!.n, requests: requests!.n };
}

describe('sign-ins started with a provider', () => {
  it(`keeps state for ${limit!.max} SAML starts from one address a window, then answers 429 and keeps nothing`, async () => {
    const ip = '198.51.100.71';
    expect((await samlStart(ip)).status).toBe(303);
    // The earlier starts of the window, as the limiter records them.
    await foyer.db.insert(auditEvents).values(
      Array.from({ length: limit!.max - 2 }, () => ({
        type: 'federation.started',
        appId: foyer.demo.appId,
        ip,
        detail: { username: '' },
      })),
    );
    expect((await samlStart(ip)).status).toBe(303);
    const before = await keptRows();

    const burst = await Promise.all(Array.from({ length: 10 }, () => samlStart(ip)));
    expect(burst.map((answer) => answer.status)).toEqual(Array(10).fill(429));
    expect(await burst[0]!.json()).toMatchObject({ statusCode: 429, error: 'TOO_MANY_REQUESTS' });
    expect(await keptRows()).toEqual(before);
    const [recorded] = await foyer.db
      .select({ n: count() })
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'federation.started'), eq(auditEvents.ip, ip)));
    expect(recorded!.n).toBe(limit!.max);

    // Another address starts as before.
    expect((await samlStart('198.51.100.72')).status).toBe(303);
  });

  it('limits social starts alike', async () => {
    const ip = '198.51.100.73';
    const appId = await insertApp(foyer, { name: 'Social app', settings: { googleSsoEnabled: true } });
    const socialStart = () => open(`/federated/google/login?appId=${appId}`, ip);
    const started = await socialStart();
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).not.toContain('/auth/login');
    await foyer.db
      .insert(auditEvents)
      .values(Array.from({ length: limit!.max - 1 }, () => ({ type: 'federation.started', appId, ip, detail: { username: '' } })));
    const before = await keptRows();
    const refused = await socialStart();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ statusCode: 429, error: 'TOO_MANY_REQUESTS' });
    expect(await keptRows()).toEqual(before);
  });
});
