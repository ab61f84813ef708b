// Foyer's own tests of the management API (/management on the API host): every route's answer, and
// the requests it must refuse. A refusal is checked with the database left as it was where a write
// was attempted: no key, an unknown or revoked key, a console or member token, another app's key and
// another app's workspace in x-tenant-id or the path (404 exactly like an unknown id), malformed ids
// and bodies (never a 500), a duplicate member, concurrent creates, and the last owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apiKeys, auditEvents, outbox, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { createApiKey, revokeApiKey } from '../../../server/apps/api-keys.ts';
import { insertApp } from '../support/apps.ts';
import { consoleOwnerToken } from '../support/console.ts';
import { findMembership, mintAccessToken, type Membership } from '../support/tokens.ts';

let foyer: TestFoyer;
let key: string;
let keyId: string;
let otherKey: string;
let otherAppId: string;
let acme: Membership;
let globexViewer: Membership;
let otherTenantId: string;

interface Answer<Body> {
  status: number;
  body: Body;
}

async function call<Body = Record<string, unknown>>(
  method: string,
  path: string,
  options: { key?: string | null; tenant?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<Answer<Body>> {
  const headers: Record<string, string> = { ...options.headers };
  const usedKey = options.key === undefined ? key : options.key;
  if (usedKey !== null) headers['x-api-key'] = usedKey;
  if (options.tenant !== undefined) headers['x-tenant-id'] = options.tenant;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`${foyer.urls.api}/management${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Body };
}

beforeAll(async () => {
  foyer = await startFoyer();
  ({ key, id: keyId } = await createApiKey(foyer.db, foyer.demo.appId, 'Back end'));
  otherAppId = await insertApp(foyer, { name: 'Other app' });
  ({ key: otherKey } = await createApiKey(foyer.db, otherAppId, 'Other back end'));
  acme = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
  globexViewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
  const created = await call<{ id: string }>('POST', '/tenant', {
    key: otherKey,
    body: { name: 'Other workspace', owner: { email: 'someone@other.example', muteNotifications: true } },
  });
  expect(created.status).toBe(201);
  otherTenantId = created.body.id;
});
afterAll(() => foyer?.close());

describe('who may call', () => {
  const unauthorized = { statusCode: 401, error: 'UNAUTHENTICATED', code: 'NBLOCKS_UNAUTHORIZED_EXCEPTION' };

  it('refuses a missing, unknown, revoked or over-long key with 401', async () => {
    expect(await call('GET', '/tenant', { key: null })).toMatchObject({ status: 401, body: unauthorized });
    expect(await call('GET', '/tenant', { key: 'fyk_not-a-key' })).toMatchObject({ status: 401, body: unauthorized });
    expect(await call('GET', '/tenant', { key: 'x'.repeat(5000) })).toMatchObject({ status: 401, body: unauthorized });
    const revoked = await createApiKey(foyer.db, foyer.demo.appId, 'Revoked');
    expect((await call('GET', '/tenant', { key: revoked.key })).status).toBe(200);
    await revokeApiKey(foyer.db, foyer.demo.appId, revoked.id);
    expect(await call('GET', '/tenant', { key: revoked.key })).toMatchObject({ status: 401, body: unauthorized });
  });

  it('refuses console and member tokens, alone or beside a key', async () => {
    const consoleToken = await consoleOwnerToken(foyer);
    const memberToken = await mintAccessToken(foyer.db, acme, { issuer: foyer.urls.auth });
    for (const token of [consoleToken, memberToken]) {
      expect((await call('GET', '/tenant', { key: null, headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      expect((await call('GET', '/tenant', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    }
  });

  it('refuses before reading the body', async () => {
    const answer = await call('POST', '/tenant', { key: null, raw: '{not json', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(401);
  });

  it('notes when a key was last used', async () => {
    expect((await call('GET', '/app')).status).toBe(200);
    const [row] = await foyer.db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
    expect(Date.now() - row!.lastUsedAt!.getTime()).toBeLessThan(5 * 60_000);
  });
});

describe('another app', () => {
  const unknownTenant = { statusCode: 404, error: 'NOT_FOUND', code: 'NBLOCKS_NOT_FOUND_TENANT_EXCEPTION' };

  it("lists only the key's own workspaces", async () => {
    const mine = await call<{ id: string }[]>('GET', '/tenant');
    expect(mine.body.map((tenant) => tenant.id)).toContain(acme.tenantId);
    expect(mine.body.map((tenant) => tenant.id)).not.toContain(otherTenantId);
    const theirs = await call<{ id: string }[]>('GET', '/tenant', { key: otherKey });
    expect(theirs.body.map((tenant) => tenant.id)).toEqual([otherTenantId]);
  });

  it("answers another app's workspace exactly like an unknown id, on every route", async () => {
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const requests: [string, (id: string) => string, unknown?][] = [
      ['GET', (id) => `/tenant/byId/${id}`],
      ['PUT', (id) => `/tenant/${id}`, { name: 'Taken over' }],
      ['DELETE', (id) => `/tenant/${id}`],
      ['GET', (id) => `/tenant/${id}/paymentDetails`],
      ['POST', (id) => `/tenant/${id}/planDetails`, { planKey: 'FREEMIUM', priceOffer: { currency: 'USD', recurrenceInterval: 'month' } }],
    ];
    for (const [method, path, body] of requests) {
      const foreign = await call(method, path(acme.tenantId), { key: otherKey, body });
      const unknown = await call(method, path(unknownId), { key: otherKey, body });
      expect(foreign).toEqual({ status: 404, body: unknown.body });
      expect(foreign.body).toMatchObject(unknownTenant);
    }
    const userRequests: [string, string, unknown?][] = [
      ['GET', '/tenant/user'],
      ['POST', '/tenant/user', { username: 'intruder@other.example', role: 'OWNER' }],
      ['GET', `/tenant/user/${acme.tenantUserId}`],
      ['PUT', `/tenant/user/${acme.tenantUserId}`, { role: 'VIEWER' }],
      ['DELETE', `/tenant/user/${acme.tenantUserId}`],
      ['GET', `/tenant/user/${acme.tenantUserId}/passwordLink`],
      ['POST', `/tenant/user/${acme.tenantUserId}/password`],
      ['GET', `/tenant/user/${acme.tenantUserId}/associations`],
    ];
    for (const [method, path, body] of userRequests) {
      const foreign = await call(method, path, { key: otherKey, tenant: acme.tenantId, body });
      const unknown = await call(method, path, { key: otherKey, tenant: unknownId, body });
      expect(foreign).toEqual({ status: 404, body: unknown.body });
      expect(foreign.body).toMatchObject(unknownTenant);
    }
    // Nothing changed in the demo app's workspace.
    const [owner] = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, acme.tenantUserId));
    expect(owner).toMatchObject({ role: 'OWNER', enabled: true });
    const [tenant] = await foyer.db.select().from(tenants).where(eq(tenants.id, acme.tenantId));
    expect(tenant?.name).toBe('Acme');
    const intruder = await foyer.db.select().from(users).where(eq(users.email, 'intruder@other.example'));
    expect(intruder).toEqual([]);
  });

  it("does not reach another workspace's member through its own x-tenant-id", async () => {
    const answer = await call('GET', `/tenant/user/${globexViewer.tenantUserId}`, { tenant: acme.tenantId });
    expect(answer).toMatchObject({ status: 404, body: { code: 'NBLOCKS_USER_NOT_FOUND' } });
    const removal = await call('DELETE', `/tenant/user/${globexViewer.tenantUserId}`, { tenant: acme.tenantId });
    expect(removal).toMatchObject({ status: 404, body: { code: 'NBLOCKS_USER_NOT_FOUND' } });
    expect(await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, globexViewer.tenantUserId))).toHaveLength(1);
  });
});

describe('malformed requests', () => {
  it('answers a missing or malformed x-tenant-id with 400, never a 500', async () => {
    for (const tenant of [undefined, '', '../etc', 'a'.repeat(101), "x' or '1'='1", '%00']) {
      const answer = await call('GET', '/tenant/user', { tenant });
      expect(answer.status, String(tenant)).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
    }
  });

  it('answers malformed ids and bodies with 400', async () => {
    expect((await call('GET', `/tenant/byId/${'z'.repeat(200)}`)).status).toBe(400);
    expect((await call('GET', '/tenant/user/not%20an%20id', { tenant: acme.tenantId })).status).toBe(400);
    expect((await call('POST', '/tenant', { body: { name: 'No owner' } })).status).toBe(400);
    expect((await call('POST', '/tenant', { body: { owner: { email: 42 } } })).status).toBe(400);
    expect((await call('POST', '/tenant', { raw: '{not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await call('POST', '/tenant', { body: [] })).status).toBe(400);
    expect((await call('POST', '/tenant/user', { tenant: acme.tenantId, body: { username: ['a'] } })).status).toBe(400);
    expect((await call('GET', '/tenant?limit=100000')).status).toBe(400);
    const badEmail = await call('POST', '/tenant', { body: { owner: { email: 'not an address' } } });
    expect(badEmail).toMatchObject({ status: 400, body: { error: 'BAD_USER_INPUT', fields: { 'owner.email': expect.any(String) } } });
    const badLocale = await call('PUT', `/tenant/${acme.tenantId}`, { body: { locale: 'xx-nowhere' } });
    expect(badLocale).toMatchObject({ status: 400, body: { fields: { locale: expect.any(String) } } });
    const metadata = await call('PUT', `/tenant/${acme.tenantId}`, { body: { metadata: { crm: '1' } } });
    expect(metadata).toMatchObject({ status: 400, body: { fields: { metadata: expect.any(String) } } });
  });
});

describe('workspaces', () => {
  it('creates one on a plan, reads, changes and deletes it', async () => {
    const created = await call<{ id: string; plan: string | null; locale: string; onboarded: boolean }>('POST', '/tenant', {
      body: {
        owner: { email: 'Dana@Umbrella.example', firstName: 'Dana', muteNotifications: true },
        locale: 'de',
        plan: 'FREEMIUM',
        priceOffer: { currency: 'EUR', recurrenceInterval: 'month' },
      },
    });
    expect(created).toMatchObject({ status: 201, body: { plan: 'FREEMIUM', locale: 'de', onboarded: false, name: '' } });
    const id = created.body.id;
    // Muted: no mail went out.
    expect(await foyer.db.select().from(outbox).where(eq(outbox.recipient, 'Dana@Umbrella.example'))).toEqual([]);

    const details = await call('GET', `/tenant/${id}/paymentDetails`);
    expect(details).toMatchObject({ status: 200, body: { details: { plan: { key: 'FREEMIUM' }, price: { currency: 'EUR', amount: 0 } } } });
    const paid = await call('POST', `/tenant/${id}/planDetails`, {
      body: { planKey: 'TEAM', priceOffer: { currency: 'USD', recurrenceInterval: 'year' } },
    });
    expect(paid).toMatchObject({ status: 200, body: { status: { shouldSetupPayments: true } } });
    const noPlan = await call('POST', `/tenant/${id}/planDetails`, {
      body: { planKey: 'GOLD', priceOffer: { currency: 'USD', recurrenceInterval: 'year' } },
    });
    expect(noPlan).toMatchObject({ status: 400, body: { fields: { planKey: expect.any(String) } } });

    const renamed = await call('PUT', `/tenant/${id}`, { body: { name: 'Umbrella', mfa: true } });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Umbrella', mfa: true, onboarded: true } });
    const [audited] = await foyer.db
      .select({ detail: auditEvents.detail, tenantUserId: auditEvents.tenantUserId })
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'tenant.updated'), eq(auditEvents.appId, foyer.demo.appId)));
    expect(audited).toMatchObject({ tenantUserId: null, detail: { tenantId: id, apiKeyId: keyId } });

    expect((await call('DELETE', `/tenant/${id}`)).status).toBe(204);
    expect((await call('DELETE', `/tenant/${id}`)).status).toBe(404);
    // The owner's identity stays: it may belong to other workspaces of the app.
    expect(await foyer.db.select().from(users).where(eq(users.email, 'Dana@Umbrella.example'))).toHaveLength(1);
  });

  it('reuses an existing identity as the owner', async () => {
    const created = await call<{ id: string }>('POST', '/tenant', {
      body: { name: 'Second', owner: { email: 'ADMIN@acme.demo.foyer.test' } },
    });
    expect(created.status).toBe(201);
    const identities = await foyer.db.select().from(users).where(eq(users.appId, foyer.demo.appId));
    expect(identities.filter((user) => user.email.toLowerCase() === 'admin@acme.demo.foyer.test')).toHaveLength(1);
    const [mail] = await foyer.db.select().from(outbox).where(eq(outbox.recipient, 'admin@acme.demo.foyer.test'));
    expect(mail?.kind).toBe('invite-existing');
  });
});

describe('members', () => {
  it('refuses a duplicate e-mail in the workspace with 409 NBLOCKS_CONFLICT', async () => {
    const answer = await call('POST', '/tenant/user', { tenant: acme.tenantId, body: { username: 'ADMIN@acme.demo.foyer.test' } });
    expect(answer).toMatchObject({ status: 409, body: { error: 'CONFLICT', code: 'NBLOCKS_CONFLICT' } });
  });

  it('lets one of several concurrent creates of the same member win', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', '/tenant/user', { tenant: acme.tenantId, body: { username: 'race@acme.example', muteNotifications: true } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const identities = await foyer.db.select().from(users).where(eq(users.email, 'race@acme.example'));
    expect(identities).toHaveLength(1);
    expect(await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.userId, identities[0]!.id))).toHaveLength(1);
  });

  it('refuses an unknown role with NBLOCKS_INVALID_ROLE', async () => {
    const created = await call('POST', '/tenant/user', {
      tenant: acme.tenantId,
      body: { username: 'role@acme.example', role: 'SUPERUSER' },
    });
    expect(created).toMatchObject({ status: 400, body: { code: 'NBLOCKS_INVALID_ROLE', fields: { role: expect.any(String) } } });
    const updated = await call('PUT', `/tenant/user/${acme.tenantUserId}`, { tenant: acme.tenantId, body: { role: 'ROOT' } });
    expect(updated).toMatchObject({ status: 400, body: { code: 'NBLOCKS_INVALID_ROLE' } });
  });

  it('keeps the last enabled owner (NBLOCKS_OWNER_ROLE_MUST_EXIST)', async () => {
    const created = await call<{ id: string }>('POST', '/tenant', {
      body: { name: 'Solo', owner: { email: 'solo@solo.example', muteNotifications: true } },
    });
    const [owner] = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, created.body.id));
    const tenant = created.body.id;
    for (const [method, body] of [
      ['PUT', { role: 'ADMIN' }],
      ['PUT', { enabled: false }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await call(method, `/tenant/user/${owner!.id}`, { tenant, body });
      expect(answer).toMatchObject({ status: 403, body: { error: 'OWNER_ROLE_MUST_EXIST', code: 'NBLOCKS_OWNER_ROLE_MUST_EXIST' } });
    }
    const [after] = await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, owner!.id));
    expect(after).toMatchObject({ role: 'OWNER', enabled: true });
  });

  it('changes role, names and status, audited with the key', async () => {
    const created = await call<{ id: string }>('POST', '/tenant/user', {
      tenant: acme.tenantId,
      body: { username: 'nina@acme.example', role: 'VIEWER', firstName: 'Nina', muteNotifications: true },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const changed = await call('PUT', `/tenant/user/${id}`, {
      tenant: acme.tenantId,
      body: { role: 'MANAGER', enabled: false, lastName: 'Nilsson', onboarded: true },
    });
    expect(changed).toMatchObject({ status: 200, body: { id, role: 'MANAGER', enabled: false, onboarded: true } });
    const [identity] = await foyer.db.select().from(users).where(eq(users.email, 'nina@acme.example'));
    expect(identity).toMatchObject({ firstName: 'Nina', lastName: 'Nilsson' });
    const refused = await call('PUT', `/tenant/user/${id}`, {
      tenant: acme.tenantId,
      body: { teams: ['red'], phoneNumber: '+46700000000' },
    });
    expect(refused).toMatchObject({ status: 400, body: { fields: { teams: expect.any(String), phoneNumber: expect.any(String) } } });
    const audit = await foyer.db
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'user.updated'), eq(auditEvents.appId, foyer.demo.appId)));
    expect(audit.map((event) => event.detail)).toContainEqual(
      expect.objectContaining({ apiKeyId: keyId, target: expect.objectContaining({ tenantUserId: id }) }),
    );
  });

  it('mails a reset link and answers a reset link for an active member', async () => {
    const admin = await findMembership(foyer.db, 'admin@acme.demo.foyer.test', 'Acme');
    expect((await call('POST', `/tenant/user/${admin.tenantUserId}/password`, { tenant: acme.tenantId })).status).toBe(204);
    const mails = await foyer.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, 'admin@acme.demo.foyer.test'), eq(outbox.kind, 'reset')));
    expect(mails).toHaveLength(1);
    const link = await call<string>('GET', `/tenant/user/${admin.tenantUserId}/passwordLink`, { tenant: acme.tenantId });
    expect(link.status).toBe(200);
    expect(link.body).toMatch(new RegExp(`^${foyer.urls.ui}/auth/set-password/[\\w-]{20,}$`));
  });

  it("lists the same person's other memberships of the app as associations", async () => {
    const answer = await call<{ tenant: { name: string }; role: string }[]>('GET', `/tenant/user/${acme.tenantUserId}/associations`, {
      tenant: acme.tenantId,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.map((user) => [user.tenant.name, user.role])).toEqual([['Globex', 'OWNER']]);
  });

  it("holds the app's keys to the workspace's mail allowance, and muted creates send nothing to count", async () => {
    const created = await call<{ id: string }>('POST', '/tenant', {
      body: { name: 'Mailbox', owner: { email: 'box@mail.example', muteNotifications: true } },
    });
    const tenant = created.body.id;
    // A hundred mails sent by the app's keys in this workspace within the hour, as the audit trail records them.
    await foyer.db.insert(auditEvents).values(
      Array.from({ length: 100 }, (_, index) => ({
        type: 'user.invited',
        appId: foyer.demo.appId,
        detail: { tenantId: tenant, apiKeyId: keyId, target: { email: `sent${index}@mail.example` } },
      })),
    );
    const refused = await call('POST', '/tenant/user', { tenant, body: { username: 'one-more@mail.example' } });
    expect(refused).toMatchObject({ status: 429, body: { error: 'TOO_MANY_REQUESTS' } });
    expect(await foyer.db.select().from(users).where(eq(users.email, 'one-more@mail.example'))).toEqual([]);
    const muted = await call('POST', '/tenant/user', { tenant, body: { username: 'one-more@mail.example', muteNotifications: true } });
    expect(muted.status).toBe(201);
    // Another workspace's allowance is its own.
    const elsewhere = await call('POST', '/tenant/user', { tenant: acme.tenantId, body: { username: 'elsewhere@mail.example' } });
    expect(elsewhere.status).toBe(201);
  });

  it('pages the member list', async () => {
    const page = await call<unknown[]>('GET', '/tenant/user?limit=1&offset=1', { tenant: acme.tenantId });
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
  });
});

describe('the app', () => {
  it('answers the attributes flows collected for a workspace and a membership', async () => {
    await foyer.db
      .update(tenants)
      .set({ attributes: { companySize: '11-50' } })
      .where(eq(tenants.id, acme.tenantId));
    await foyer.db
      .update(tenantUsers)
      .set({ attributes: { team: 'Sales' } })
      .where(eq(tenantUsers.id, acme.tenantUserId));
    const workspace = await call<{ attributes: unknown }>('GET', `/tenant/byId/${acme.tenantId}`);
    expect(workspace).toMatchObject({ status: 200, body: { attributes: { companySize: '11-50' } } });
    const member = await call<{ attributes: unknown; tenant: { attributes: unknown } }>('GET', `/tenant/user/${acme.tenantUserId}`, {
      tenant: acme.tenantId,
    });
    expect(member).toMatchObject({
      status: 200,
      body: { attributes: { team: 'Sales' }, tenant: { attributes: { companySize: '11-50' } } },
    });
  });

  it('answers the app, credentials state, custom fields, roles, privileges, plans and taxes', async () => {
    expect(await call('GET', '/app')).toMatchObject({ status: 200, body: { id: foyer.demo.appId, name: 'Demo app', mfaEnabled: true } });
    expect(await call('GET', '/app', { key: otherKey })).toMatchObject({ status: 200, body: { id: otherAppId, name: 'Other app' } });
    expect(await call('GET', '/app/credentialsState')).toMatchObject({ status: 200, body: { googleCredentialsAdded: false } });
    expect((await call('GET', '/app/custom-tenant-user-params-config')).status).toBe(200);
    const roles = await call<{ key: string; isDefault: boolean; privileges: { key: string }[] }[]>('GET', '/role');
    expect(roles.body.find((role) => role.key === 'VIEWER')?.privileges.map((privilege) => privilege.key)).toEqual([
      'AUTHENTICATED',
      'USER_READ',
      'TENANT_READ',
    ]);
    expect((await call<unknown[]>('GET', '/role/privilege')).body).toHaveLength(5);
    expect((await call<{ key: string }[]>('GET', '/payments/plan')).body.map((plan) => plan.key)).toEqual([
      'FREEMIUM',
      'ESSENTIAL',
      'TEAM',
    ]);
    expect((await call('GET', '/payments/tax')).status).toBe(200);
  });
});
