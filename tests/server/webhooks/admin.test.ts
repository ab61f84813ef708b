// Managing webhook endpoints through the admin API, and who may not: the owner adds, edits,
// reveals and rotates the secret of, and deletes an endpoint; a viewer may read but not change;
// another console workspace's owner, another app's API key and an app user's token reach nothing;
// bad input is a 400 naming the field. In production (SSRF rule) targets on private, loopback,
// link-local and unique-local addresses are refused when saved, and at delivery (after DNS).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { webhookDeliveries, webhookEndpoints } from '../../../server/db/schema.ts';
import { replaceApiKey } from '../../../server/apps/api-keys.ts';
import { sealEndpointSecret } from '../../../server/webhooks/secrets.ts';
import { accessTokenFor, admin, consoleOwnerToken, CONSOLE_WORKSPACE, newConsoleUser } from '../support/console.ts';
import { findMembership, mintAccessToken } from '../support/tokens.ts';
import { ask } from '../graphql/users-workspace.ts';
import { addEndpoint, startReceiver } from './receiver.ts';

const TIMINGS = { pollIntervalMs: 50, retryBaseMs: 200, retryForMs: 24 * 60 * 60_000, timeoutMs: 2000 };

describe('in development', () => {
  let foyer: TestFoyer;
  let ownerToken: string;
  let viewerToken: string;
  let otherOwnerToken: string;
  let appId: string;

  beforeAll(async () => {
    foyer = await startFoyer({ webhooks: TIMINGS });
    appId = foyer.demo.appId;
    const viewer = await newConsoleUser(foyer, { workspace: CONSOLE_WORKSPACE, role: 'VIEWER' });
    const other = await newConsoleUser(foyer, { workspace: 'Other company', role: 'OWNER' });
    [ownerToken, viewerToken, otherOwnerToken] = await Promise.all([
      consoleOwnerToken(foyer),
      accessTokenFor(foyer, viewer),
      accessTokenFor(foyer, other),
    ]);
  });
  afterAll(() => foyer?.close());

  const endpointRows = () => foyer.db.select().from(webhookEndpoints).orderBy(webhookEndpoints.id);

  it('the owner adds, lists, edits, reveals and rotates the secret of, and deletes an endpoint', async () => {
    const created = await admin<{ endpoint: Record<string, unknown>; secret: string }>(foyer, 'POST', `/apps/${appId}/webhooks`, {
      token: ownerToken,
      body: { url: 'http://127.0.0.1:9/hooks', description: 'CRM sync', eventTypes: ['TENANT_CREATED', 'TENANT_CREATED'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.body.endpoint).toMatchObject({
      url: 'http://127.0.0.1:9/hooks',
      description: 'CRM sync',
      eventTypes: ['TENANT_CREATED'],
      enabled: true,
    });
    const id = created.body.endpoint.id as string;
    // Kept sealed: the secret itself is nowhere in the row.
    const [row] = await foyer.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(JSON.stringify(row)).not.toContain(created.body.secret.slice(6));

    const listed = await admin<{ endpoints: { id: string }[]; eventTypes: string[] }>(foyer, 'GET', `/apps/${appId}/webhooks`, {
      token: viewerToken,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.endpoints.map((endpoint) => endpoint.id)).toContain(id);
    expect(listed.body.eventTypes).toContain('USER_SIGNED_IN');
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    const edited = await admin(foyer, 'PUT', `/apps/${appId}/webhooks/${id}`, {
      token: ownerToken,
      body: { eventTypes: ['TENANT_USER_DELETED', 'TENANT_UPDATED'], enabled: false },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.endpoint).toMatchObject({
      id,
      eventTypes: ['TENANT_USER_DELETED', 'TENANT_UPDATED'],
      enabled: false,
      description: 'CRM sync',
    });

    const revealed = await admin<{ secret: string }>(foyer, 'GET', `/apps/${appId}/webhooks/${id}/secret`, { token: ownerToken });
    expect(revealed.body.secret).toBe(created.body.secret);
    const rotated = await admin<{ secret: string }>(foyer, 'POST', `/apps/${appId}/webhooks/${id}/secret`, { token: ownerToken });
    expect(rotated.status).toBe(201);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await admin<{ secret: string }>(foyer, 'GET', `/apps/${appId}/webhooks/${id}/secret`, { token: ownerToken })).body.secret).toBe(
      rotated.body.secret,
    );

    expect((await admin(foyer, 'DELETE', `/apps/${appId}/webhooks/${id}`, { token: ownerToken })).status).toBe(204);
    expect((await admin(foyer, 'DELETE', `/apps/${appId}/webhooks/${id}`, { token: ownerToken })).status).toBe(404);
  });

  it('refuses bad input with a 400 naming each field, and writes nothing', async () => {
    const before = await endpointRows();
    const cases: [unknown, string[]][] = [
      [{ url: 'ftp://example.com/x', eventTypes: ['TENANT_CREATED'] }, ['/url']],
      [{ url: 'https://user:pw@example.com/x', eventTypes: ['TENANT_CREATED'] }, ['/url']],
      [{ url: 'not a url', eventTypes: [] }, ['/url', '/eventTypes']],
      [{ url: 'http://127.0.0.1:9/x', eventTypes: ['TENANT_EXPLODED'] }, ['/eventTypes']],
      [
        { url: 'http://127.0.0.1:9/x', eventTypes: ['TENANT_CREATED'], enabled: 'yes', description: 'x'.repeat(201) },
        ['/description', '/enabled'],
      ],
      [{ url: 'http://127.0.0.1:9/x', eventTypes: ['TENANT_CREATED'], description: 'line\none' }, ['/description']],
      [['an array'], ['']],
    ];
    for (const [body, paths] of cases) {
      const answer = await admin<{ error: string; details: { path: string }[] }>(foyer, 'POST', `/apps/${appId}/webhooks`, {
        token: ownerToken,
        body,
      });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('INVALID_WEBHOOK');
      expect(answer.body.details.map((detail) => detail.path)).toEqual(paths);
    }
    expect(await endpointRows()).toEqual(before);
  });

  it('answers ids that name no endpoint or delivery like unknown ones, whatever they hold', async () => {
    const target = await addEndpoint(foyer, appId, { token: ownerToken }, { url: 'http://127.0.0.1:9/z', eventTypes: ['TENANT_CREATED'] });
    for (const id of ['nope', 'a%20b', encodeURIComponent('\u00e9'.repeat(300)), randomUUID()]) {
      for (const method of ['PUT', 'DELETE']) {
        const answer = await admin(foyer, method, `/apps/${appId}/webhooks/${id}`, {
          token: ownerToken,
          body: method === 'PUT' ? {} : undefined,
        });
        expect(answer.status, `${method} ${id}`).toBe(404);
        expect(answer.body).toMatchObject({ error: 'UNKNOWN_WEBHOOK' });
      }
      const resend = await admin(foyer, 'POST', `/apps/${appId}/webhooks/${target.id}/deliveries/${id}/resend`, { token: ownerToken });
      expect(resend.status).toBe(404);
      expect(resend.body).toMatchObject({ error: 'UNKNOWN_WEBHOOK_DELIVERY' });
    }
  });

  it('a viewer, another workspace, another app and an app user manage nothing', async () => {
    const target = await addEndpoint(foyer, appId, { token: ownerToken }, { url: 'http://127.0.0.1:9/x', eventTypes: ['TENANT_CREATED'] });
    const [delivery] = await foyer.db
      .insert(webhookDeliveries)
      .values({
        id: randomUUID(),
        eventId: 'msg_x',
        appId,
        endpointId: target.id,
        eventType: 'TENANT_CREATED',
        body: { events: [] },
        status: 'failed',
      })
      .returning();
    const otherApp = await admin<{ app: { id: string }; apiKey: string }>(foyer, 'POST', '/apps', {
      token: otherOwnerToken,
      body: { name: 'Theirs' },
    });
    const member = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
    const appUserToken = await mintAccessToken(foyer.db, member, { issuer: foyer.urls.auth });
    const before = {
      endpoints: await endpointRows(),
      deliveries: await foyer.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id),
    };

    const writes: [string, string, unknown?][] = [
      ['POST', `/apps/${appId}/webhooks`, { url: 'http://127.0.0.1:9/y', eventTypes: ['TENANT_CREATED'] }],
      ['PUT', `/apps/${appId}/webhooks/${target.id}`, { enabled: false }],
      ['DELETE', `/apps/${appId}/webhooks/${target.id}`],
      ['GET', `/apps/${appId}/webhooks/${target.id}/secret`],
      ['POST', `/apps/${appId}/webhooks/${target.id}/secret`],
      ['POST', `/apps/${appId}/webhooks/${target.id}/deliveries/${delivery!.id}/resend`],
    ];
    const reads: [string, string][] = [
      ['GET', `/apps/${appId}/webhooks`],
      ['GET', `/apps/${appId}/webhooks/${target.id}/deliveries`],
    ];
    for (const [method, path, body] of writes) {
      expect((await admin(foyer, method, path, { token: viewerToken, body })).status, `viewer ${method} ${path}`).toBe(403);
    }
    for (const [method, path, body] of [...writes, ...reads]) {
      expect((await admin(foyer, method, path, { token: otherOwnerToken, body })).status, `other owner ${method} ${path}`).toBe(404);
      expect((await admin(foyer, method, path, { apiKey: otherApp.body.apiKey, body })).status, `other key ${method} ${path}`).toBe(404);
      expect((await admin(foyer, method, path, { token: appUserToken, body })).status, `app user ${method} ${path}`).toBe(401);
      expect((await admin(foyer, method, path, { body })).status, `anonymous ${method} ${path}`).toBe(401);
    }
    // The other app's own key does not reach this app's endpoint through its own app id either.
    const crossed = await admin(foyer, 'GET', `/apps/${otherApp.body.app.id}/webhooks/${target.id}/secret`, {
      apiKey: otherApp.body.apiKey,
    });
    expect(crossed.status).toBe(404);
    expect(crossed.body).toMatchObject({ error: 'UNKNOWN_WEBHOOK' });
    expect({
      endpoints: await endpointRows(),
      deliveries: await foyer.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id),
    }).toEqual(before);
  });
});

describe('in production (SSRF)', () => {
  let foyer: TestFoyer;
  let apiKey: string;

  beforeAll(async () => {
    foyer = await startFoyer({ env: 'production', webhooks: TIMINGS });
    apiKey = await replaceApiKey(foyer.db, foyer.demo.appId);
  });
  afterAll(() => foyer?.close());

  it.each([
    'http://127.0.0.1:8080/hooks',
    'http://localhost/hooks',
    'http://10.1.2.3/hooks',
    'http://192.168.0.10/hooks',
    'http://172.16.5.4/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hooks',
    'http://[fd00::1]/hooks',
    'http://[fe80::1]/hooks',
    'http://[::ffff:127.0.0.1]/hooks',
    'http://0.0.0.0/hooks',
    'http://100.64.0.1/hooks',
  ])('refuses %s when saved', async (url) => {
    const answer = await admin<{ details: { path: string; message: string }[] }>(foyer, 'POST', `/apps/${foyer.demo.appId}/webhooks`, {
      apiKey,
      body: { url, eventTypes: ['TENANT_UPDATED'] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([
      { path: '/url', code: 'privateAddress', params: {}, message: 'The URL must point to a public address' },
    ]);
  });

  it('accepts a public address', async () => {
    const answer = await admin(foyer, 'POST', `/apps/${foyer.demo.appId}/webhooks`, {
      apiKey,
      body: { url: 'https://93.184.215.14/hooks', eventTypes: ['TENANT_UPDATED'], enabled: false },
    });
    expect(answer.status).toBe(201);
  });

  it('refuses a loopback target at delivery too (an endpoint whose name resolves there now), without connecting', async () => {
    const receiver = await startReceiver();
    try {
      // As if the host had resolved to a public address when saved: the row is written directly.
      const id = randomUUID();
      const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
      await foyer.db.insert(webhookEndpoints).values({
        id,
        appId: foyer.demo.appId,
        url: `http://localhost:${receiver.port}/hooks`,
        eventTypes: ['TENANT_UPDATED'],
        ...sealEndpointSecret(foyer.config, id, secret),
      });
      const owner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
      const renamed = await ask(foyer, owner, 'mutation { updateTenant(tenant: { name: "Acme Prod" }) { id } }');
      expect(renamed.body.errors).toBeUndefined();
      await vi.waitFor(
        async () => {
          const [delivery] = await foyer.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
          expect(delivery).toMatchObject({ status: 'pending', lastResponseCode: null });
          expect(delivery!.lastError).toMatch(/is not a public address/);
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
