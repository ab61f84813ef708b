// myActivity: the signed-in person's own security events in this app, newest first, and nobody else's:
// not another user's, not the same person's in another app, not the workspace's administrative events.
// workspaceLog: a workspace's administration events for its OWNERs and ADMINs only, never another
// workspace's, filtered and paged on the server.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { tenantUsers } from '../../../server/db/schema.ts';
import { recordAudit } from '../../../server/audit/service.ts';
import { insertApp } from '../support/apps.ts';
import { bearer, errorCodes, postGraphQL } from '../support/graphql.ts';
import { findMembership, mintAccessToken, type Membership } from '../support/tokens.ts';

let foyer: TestFoyer;
let admin: Membership;
let owner: Membership;
let viewer: Membership;
let manager: Membership;

const QUERY = 'query ($limit: Int) { myActivity(limit: $limit) { type at ip method } }';

async function activityOf(membership: Membership, limit?: number) {
  const token = await mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth });
  return postGraphQL(foyer.urls.api, { query: QUERY, variables: { limit } }, bearer(token));
}

async function userIdOf(membership: Membership): Promise<string> {
  const [row] = await foyer.db.select({ userId: tenantUsers.userId }).from(tenantUsers).where(eq(tenantUsers.id, membership.tenantUserId));
  return row!.userId;
}

beforeAll(async () => {
  foyer = await startFoyer();
  admin = await findMembership(foyer.db, 'admin@acme.demo.foyer.test', 'Acme');
  owner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
  viewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
  manager = { ...admin, role: 'MANAGER' };
  const adminId = await userIdOf(admin);
  const ownerId = await userIdOf(owner);
  const appId = foyer.demo.appId;
  const otherApp = await insertApp(foyer);
  await recordAudit(foyer.db, { type: 'login.failure', appId, userId: adminId, ip: '198.51.100.7', detail: {} });
  await recordAudit(foyer.db, { type: 'login.success', appId, userId: adminId, ip: '198.51.100.7', detail: { method: 'passkey' } });
  await recordAudit(foyer.db, { type: 'user.invited', appId, userId: adminId, ip: '198.51.100.7', detail: {} });
  await recordAudit(foyer.db, { type: 'login.success', appId, userId: ownerId, ip: '203.0.113.9', detail: { method: 'password' } });
  await recordAudit(foyer.db, { type: 'login.success', appId: otherApp, userId: adminId, ip: '192.0.2.1', detail: { method: 'password' } });
  const acme = admin.tenantId;
  const target = { tenantUserId: 'tu-x', userId: 'u-x', email: 'invited@acme.test' };
  await recordAudit(foyer.db, {
    type: 'user.invited',
    appId,
    userId: ownerId,
    tenantUserId: owner.tenantUserId,
    detail: { tenantId: acme, target },
  });
  await recordAudit(foyer.db, {
    type: 'user.updated',
    appId,
    userId: adminId,
    tenantUserId: admin.tenantUserId,
    detail: { tenantId: acme, target },
  });
  await recordAudit(foyer.db, {
    type: 'tenant.updated',
    appId,
    userId: adminId,
    tenantUserId: admin.tenantUserId,
    detail: { tenantId: acme },
  });
  await recordAudit(foyer.db, {
    type: 'user.deleted',
    appId,
    userId: ownerId,
    tenantUserId: 'tu-globex',
    detail: { tenantId: viewer.tenantId, target },
  });
});

const LOG = `query ($actor: String, $type: String, $offset: Int, $limit: Int) {
  workspaceLog(actorTenantUserId: $actor, type: $type, offset: $offset, limit: $limit) { total entries { type actorEmail targetEmail } }
}`;

async function logOf(membership: Membership, variables: Record<string, unknown> = {}) {
  const token = await mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth });
  return postGraphQL(foyer.urls.api, { query: LOG, variables }, bearer(token));
}
afterAll(() => foyer?.close());

describe('myActivity', () => {
  it("answers the caller's own security events in this app, newest first", async () => {
    const answer = await activityOf(admin);
    expect(answer.status).toBe(200);
    expect(answer.body.data?.myActivity).toEqual([
      { type: 'login.success', at: expect.any(String), ip: '198.51.100.7', method: 'passkey' },
      { type: 'login.failure', at: expect.any(String), ip: '198.51.100.7', method: null },
    ]);
  });

  it("never shows another person's events, the same person's in another app, or administrative ones", async () => {
    const events = (await activityOf(owner)).body.data?.myActivity as { ip: string }[];
    expect(events.map((event) => event.ip)).toEqual(['203.0.113.9']);
  });

  it('answers at most the limit asked, within 1 to 50', async () => {
    expect((await activityOf(admin, 1)).body.data?.myActivity).toHaveLength(1);
    expect((await activityOf(admin, -5)).body.data?.myActivity).toHaveLength(1);
    expect((await activityOf(admin, 10_000)).body.data?.myActivity).toHaveLength(2);
  });

  it('needs a signed-in caller', async () => {
    const answer = await postGraphQL(foyer.urls.api, { query: QUERY }, { 'x-app-id': foyer.demo.appId });
    expect(answer.status).toBe(401);
    expect(errorCodes(answer)).toEqual(['UNAUTHENTICATED']);
  });
});

describe('workspaceLog', () => {
  it("answers the workspace's administration events, newest first, with who acted and on whom", async () => {
    const answer = await logOf(admin);
    expect(answer.status).toBe(200);
    expect(answer.body.data?.workspaceLog).toEqual({
      total: 3,
      entries: [
        { type: 'tenant.updated', actorEmail: 'admin@acme.demo.foyer.test', targetEmail: null },
        { type: 'user.updated', actorEmail: 'admin@acme.demo.foyer.test', targetEmail: 'invited@acme.test' },
        { type: 'user.invited', actorEmail: 'owner@demo.foyer.test', targetEmail: 'invited@acme.test' },
      ],
    });
  });

  it('filters by who acted and by type, and pages on the server', async () => {
    const byOwner = (await logOf(admin, { actor: owner.tenantUserId })).body.data?.workspaceLog as { total: number };
    expect(byOwner.total).toBe(1);
    const updates = (await logOf(admin, { type: 'user.updated' })).body.data?.workspaceLog as { total: number };
    expect(updates.total).toBe(1);
    const unknownType = (await logOf(admin, { type: 'login.success' })).body.data?.workspaceLog as { total: number };
    expect(unknownType.total).toBe(0);
    const second = (await logOf(admin, { offset: 1, limit: 1 })).body.data?.workspaceLog as { total: number; entries: { type: string }[] };
    expect(second).toMatchObject({ total: 3, entries: [{ type: 'user.updated' }] });
  });

  it("shows another workspace nothing of this one's, and is refused to managers and viewers", async () => {
    for (const refused of [viewer, manager]) {
      const answer = await logOf(refused);
      expect(answer.status).toBe(403);
      expect(errorCodes(answer)).toEqual(['FORBIDDEN']);
    }
    const ownerAtGlobex = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Globex');
    const other = (await logOf(ownerAtGlobex)).body.data?.workspaceLog as { entries: { type: string }[] };
    expect(other.entries.map((entry) => entry.type)).toEqual(['user.deleted']);
  });
});
