// An app's API keys through the admin API: several per app, named, listed with their created and
// last-used times (never the key), made and shown once, revoked; and refused to owners of other apps,
// to viewers and to other apps' keys. A key made before keys had names (one per app) keeps working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apiKeys, auditEvents } from '../../../server/db/schema.ts';
import { MAX_API_KEYS_PER_APP } from '../../../server/apps/api-keys.ts';
import { accessTokenFor, admin, consoleOwnerToken, CONSOLE_WORKSPACE, newConsoleUser } from '../support/console.ts';

let foyer: TestFoyer;
let ownerToken: string;
let viewerToken: string;
let strangerToken: string;
let appId: string;

interface KeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

beforeAll(async () => {
  foyer = await startFoyer();
  ownerToken = await consoleOwnerToken(foyer);
  viewerToken = await accessTokenFor(foyer, await newConsoleUser(foyer, { workspace: CONSOLE_WORKSPACE, role: 'VIEWER' }));
  strangerToken = await accessTokenFor(foyer, await newConsoleUser(foyer, { workspace: 'Stranger company', role: 'OWNER' }));
  const created = await admin<{ app: { id: string } }>(foyer, 'POST', '/apps', { token: ownerToken, body: { name: 'Keyed app' } });
  appId = created.body.app.id;
});
afterAll(() => foyer?.close());

const managementApp = (key: string) => fetch(`${foyer.urls.api}/management/app`, { headers: { 'x-api-key': key } });

describe('API keys', () => {
  it('makes several named keys, each shown once, and lists them without the keys', async () => {
    const first = await admin<{ apiKey: KeySummary; key: string }>(foyer, 'POST', `/apps/${appId}/api-keys`, {
      token: ownerToken,
      body: { name: ' Billing back end ' },
    });
    const second = await admin<{ apiKey: KeySummary; key: string }>(foyer, 'POST', `/apps/${appId}/api-keys`, {
      token: ownerToken,
      body: { name: 'CRM sync' },
    });
    expect(first).toMatchObject({
      status: 201,
      body: { apiKey: { name: 'Billing back end', lastUsedAt: null }, key: expect.stringMatching(/^fyk_/) },
    });
    expect(second.status).toBe(201);
    // Stored as the SHA-256 only.
    const [stored] = await foyer.db.select().from(apiKeys).where(eq(apiKeys.id, first.body.apiKey.id));
    expect(stored?.keyHash).toBe(createHash('sha256').update(first.body.key).digest('hex'));

    expect((await managementApp(first.body.key)).status).toBe(200);
    expect((await managementApp(second.body.key)).status).toBe(200);

    const listed = await admin<{ apiKeys: KeySummary[] }>(foyer, 'GET', `/apps/${appId}/api-keys`, { token: ownerToken });
    expect(listed.status).toBe(200);
    const names = listed.body.apiKeys.map((key) => key.name);
    expect(names).toEqual(expect.arrayContaining(['Billing back end', 'CRM sync']));
    expect(JSON.stringify(listed.body)).not.toContain(first.body.key);
    expect(listed.body.apiKeys.find((key) => key.id === first.body.apiKey.id)?.lastUsedAt).toEqual(expect.any(String));

    const revoked = await admin(foyer, 'DELETE', `/apps/${appId}/api-keys/${first.body.apiKey.id}`, { token: ownerToken });
    expect(revoked.status).toBe(204);
    expect((await managementApp(first.body.key)).status).toBe(401);
    expect((await managementApp(second.body.key)).status).toBe(200);
    expect((await admin(foyer, 'DELETE', `/apps/${appId}/api-keys/${first.body.apiKey.id}`, { token: ownerToken })).status).toBe(404);

    const audited = await foyer.db.select({ type: auditEvents.type }).from(auditEvents).where(eq(auditEvents.appId, appId));
    expect(audited.map((event) => event.type)).toEqual(expect.arrayContaining(['app.api_key_created', 'app.api_key_revoked']));
  });

  it('refuses blank and over-long names, and more than the most keys', async () => {
    for (const body of [{ name: '   ' }, { name: 'x'.repeat(101) }, { name: { text: 'x' } }, {}]) {
      const answer = await admin(foyer, 'POST', `/apps/${appId}/api-keys`, { token: ownerToken, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const existing = (await admin<{ apiKeys: KeySummary[] }>(foyer, 'GET', `/apps/${appId}/api-keys`, { token: ownerToken })).body.apiKeys
      .length;
    for (let index = existing; index < MAX_API_KEYS_PER_APP; index++) {
      expect((await admin(foyer, 'POST', `/apps/${appId}/api-keys`, { token: ownerToken, body: { name: `Key ${index}` } })).status).toBe(
        201,
      );
    }
    const over = await admin(foyer, 'POST', `/apps/${appId}/api-keys`, { token: ownerToken, body: { name: 'One too many' } });
    expect(over).toMatchObject({ status: 409, body: { error: 'TOO_MANY_API_KEYS' } });
  });

  it("refuses other owners, viewers' writes and other apps' keys", async () => {
    const [key] = (await admin<{ apiKeys: KeySummary[] }>(foyer, 'GET', `/apps/${appId}/api-keys`, { token: ownerToken })).body.apiKeys;
    expect((await admin(foyer, 'GET', `/apps/${appId}/api-keys`, { token: strangerToken })).status).toBe(404);
    expect((await admin(foyer, 'DELETE', `/apps/${appId}/api-keys/${key!.id}`, { token: strangerToken })).status).toBe(404);
    expect((await admin(foyer, 'GET', `/apps/${appId}/api-keys`, { token: viewerToken })).status).toBe(200);
    expect((await admin(foyer, 'POST', `/apps/${appId}/api-keys`, { token: viewerToken, body: { name: 'Viewer key' } })).status).toBe(403);
    expect((await admin(foyer, 'DELETE', `/apps/${appId}/api-keys/${key!.id}`, { token: viewerToken })).status).toBe(403);
    // The demo app's key cannot revoke this app's keys, not even by naming the key under its own app.
    const demoKey = await admin<{ key: string }>(foyer, 'POST', `/apps/${foyer.demo.appId}/api-keys`, {
      token: ownerToken,
      body: { name: 'Demo' },
    });
    expect((await admin(foyer, 'DELETE', `/apps/${appId}/api-keys/${key!.id}`, { apiKey: demoKey.body.key })).status).toBe(404);
    expect((await admin(foyer, 'DELETE', `/apps/${foyer.demo.appId}/api-keys/${key!.id}`, { apiKey: demoKey.body.key })).status).toBe(404);
    expect(await foyer.db.select().from(apiKeys).where(eq(apiKeys.id, key!.id))).toHaveLength(1);
  });

  it('keeps a key made before keys had names working, listed under the default name', async () => {
    const key = `fyk_${randomUUID()}`;
    const [row] = await foyer.db.select().from(apiKeys).limit(1);
    // What a key stored before migration 0016 looks like: no name given, never used.
    await foyer.db
      .insert(apiKeys)
      .values({ id: randomUUID(), appId: foyer.demo.appId, keyHash: createHash('sha256').update(key).digest('hex') });
    expect(row).toBeDefined();
    expect((await managementApp(key)).status).toBe(200);
    const listed = await admin<{ apiKeys: KeySummary[] }>(foyer, 'GET', `/apps/${foyer.demo.appId}/api-keys`, { token: ownerToken });
    expect(listed.body.apiKeys.map((summary) => summary.name)).toContain('API key');
  });
});
