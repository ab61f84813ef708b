// Webhooks end to end: endpoints added through the admin API receive the tenant and member events
// of changes made through GraphQL, signed as Standard Webhooks (checked with the standardwebhooks
// library's own verify), in the body {events:[{type, timestamp, data}]}; a receiver that is down
// gets the event later; a change that rolls back sends nothing; another app's events never reach
// this app's endpoint. The worker's timings come from configuration, short here.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { tenants, tenantUsers, webhookDeliveries } from '../../../server/db/schema.ts';
import { createApiKey } from '../../../server/apps/api-keys.ts';
import { emitTenantEvent } from '../../../server/outbox/outbox.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../common/webhooks.ts';
import { postGraphQL } from '../support/graphql.ts';
import { findMembership, type Membership } from '../support/tokens.ts';
import { accessTokenFor, admin, consoleOwnerToken } from '../support/console.ts';
import { callbackUri } from '../oidc/sign-in.ts';
import { DEMO_PASSWORD } from '../../../server/seed/demo.ts';
import { ask } from '../graphql/users-workspace.ts';
import { addEndpoint, startReceiver, type Receiver, type WebhookEvent } from './receiver.ts';

let foyer: TestFoyer;
let ownerToken: string;
let owner: Membership;
let receiver: Receiver;
let endpoint: { id: string; secret: string };

const WAIT = { timeout: 20_000, interval: 50 };

beforeAll(async () => {
  foyer = await startFoyer({ webhooks: { pollIntervalMs: 50, retryBaseMs: 200, retryForMs: 24 * 60 * 60_000, timeoutMs: 2000 } });
  ownerToken = await consoleOwnerToken(foyer);
  owner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
  receiver = await startReceiver();
  endpoint = await addEndpoint(foyer, foyer.demo.appId, { token: ownerToken }, { url: receiver.url, eventTypes: [...WEBHOOK_EVENT_TYPES] });
});

afterAll(async () => {
  await foyer?.close();
  await receiver?.close();
});

/** The verified events that arrived so far of `type` whose data has `id`. */
const arrived = (type: string, id: string): WebhookEvent[] =>
  receiver.verifiedEvents(endpoint.secret).filter((event) => event.type === type && event.data.id === id);

describe('events of GraphQL changes', () => {
  it('a workspace created by signup arrives as TENANT_CREATED and TENANT_USER_CREATED, signed and with the original models', async () => {
    const email = `hooks-${randomUUID().slice(0, 8)}@example.com`;
    const answer = await postGraphQL<{ createTenantAnonymous: { id: string } }>(
      foyer.urls.api,
      {
        query: 'mutation ($tenant: CreateTenantInput!) { createTenantAnonymous(tenant: $tenant) { id } }',
        variables: { tenant: { name: 'Hooked Ltd', owner: { email, firstName: 'Hook', lastName: 'Owner', password: 'Correct-horse-42' } } },
      },
      { 'x-app-id': foyer.demo.appId },
    );
    expect(answer.body.errors).toBeUndefined();
    const tenantId = answer.body.data!.createTenantAnonymous.id;

    await vi.waitFor(() => expect(arrived('TENANT_CREATED', tenantId)).toHaveLength(1), WAIT);
    const [created] = arrived('TENANT_CREATED', tenantId);
    expect(created!.data).toMatchObject({
      id: tenantId,
      name: 'Hooked Ltd',
      locale: 'en',
      mfa: false,
      onboarded: false,
      metadata: {},
      paymentStatus: { paymentsEnabled: false, shouldSetupPayments: false },
    });
    expect(Date.parse(created!.timestamp)).not.toBeNaN();

    const ownerEvents = () =>
      receiver
        .verifiedEvents(endpoint.secret)
        .filter((event) => event.type === 'TENANT_USER_CREATED' && (event.data.tenant as { id: string }).id === tenantId);
    await vi.waitFor(() => expect(ownerEvents()).toHaveLength(1), WAIT);
    expect(ownerEvents()[0]!.data).toMatchObject({
      role: 'OWNER',
      email,
      username: email,
      firstName: 'Hook',
      lastName: 'Owner',
      fullName: 'Hook Owner',
      // Until the mailed link confirms the signup.
      enabled: false,
      teams: [],
      tenant: { id: tenantId, name: 'Hooked Ltd' },
    });

    // Every request carries the Standard Webhooks headers and one event in the documented body.
    const request = receiver.received.find((entry) => JSON.parse(entry.body).events[0].data.id === tenantId)!;
    expect(request.headers['webhook-id']).toMatch(/^msg_/);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    expect(Object.keys(JSON.parse(request.body))).toEqual(['events']);
  });

  it('a member invited, changed and removed arrives as TENANT_USER_CREATED, _UPDATED and _DELETED', async () => {
    const email = `invitee-${randomUUID().slice(0, 8)}@example.com`;
    const invited = await ask(foyer, owner, 'mutation ($names: [String!]!) { createUsers(userNames: $names) { id } }', { names: [email] });
    expect(invited.body.errors).toBeUndefined();
    const [{ id }] = invited.body.data!.createUsers as { id: string }[];
    await vi.waitFor(() => expect(arrived('TENANT_USER_CREATED', id!)).toHaveLength(1), WAIT);
    expect(arrived('TENANT_USER_CREATED', id!)[0]!.data).toMatchObject({
      id,
      email,
      role: 'VIEWER',
      enabled: false,
      tenant: { id: owner.tenantId },
    });

    const updated = await ask(foyer, owner, 'mutation ($user: UserInput!) { updateUser(user: $user) { id } }', {
      user: { id, role: 'MANAGER' },
    });
    expect(updated.body.errors).toBeUndefined();
    await vi.waitFor(() => expect(arrived('TENANT_USER_UPDATED', id!)).toHaveLength(1), WAIT);
    expect(arrived('TENANT_USER_UPDATED', id!)[0]!.data).toMatchObject({ id, email, role: 'MANAGER' });

    const removed = await ask(foyer, owner, 'mutation ($id: String!) { deleteUser(userId: $id) }', { id });
    expect(removed.body.data).toEqual({ deleteUser: true });
    await vi.waitFor(() => expect(arrived('TENANT_USER_DELETED', id!)).toHaveLength(1), WAIT);
    expect(arrived('TENANT_USER_DELETED', id!)[0]!.data).toMatchObject({ id, email, role: 'MANAGER', tenant: { id: owner.tenantId } });
  });

  it('a workspace renamed arrives as TENANT_UPDATED with the new name', async () => {
    const renamed = await ask(foyer, owner, 'mutation { updateTenant(tenant: { name: "Acme Renamed" }) { id } }');
    expect(renamed.body.errors).toBeUndefined();
    await vi.waitFor(
      () => expect(arrived('TENANT_UPDATED', owner.tenantId).map((event) => event.data.name)).toContain('Acme Renamed'),
      WAIT,
    );
  });
});

describe('the models', () => {
  /**
   * Equal but for the payment provider: the event names the one the workspace last paid through, the
   * API the one the app uses now (server/outbox/models.ts).
   */
  const withoutProvider = (model: Record<string, unknown>): unknown =>
    JSON.parse(JSON.stringify(model, (key, value: unknown) => (key === 'provider' ? undefined : value)));
  const expectSameModel = (event: Record<string, unknown>, answer: Record<string, unknown>) =>
    expect(withoutProvider(event)).toEqual(withoutProvider(answer));

  // An app's back end reads the same workspace and member from an event as from the management API.
  it("an event's workspace and member are the management API's answers for them, attributes included", async () => {
    const viewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
    await foyer.db
      .update(tenants)
      .set({ attributes: { companySize: '51-200' } })
      .where(eq(tenants.id, viewer.tenantId));
    await foyer.db
      .update(tenantUsers)
      .set({ attributes: { jobTitle: 'Analyst' } })
      .where(eq(tenantUsers.id, viewer.tenantUserId));
    const { key } = await createApiKey(foyer.db, foyer.demo.appId, 'Webhook models');
    const management = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${foyer.urls.api}/management${path}`, {
        method,
        headers: { 'x-api-key': key, 'x-tenant-id': viewer.tenantId, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(response.status, path).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };

    await management('PUT', `/tenant/${viewer.tenantId}`, { name: 'Globex Modelled' });
    await vi.waitFor(
      () => expect(arrived('TENANT_UPDATED', viewer.tenantId).map((event) => event.data.name)).toContain('Globex Modelled'),
      WAIT,
    );
    const workspaceEvent = arrived('TENANT_UPDATED', viewer.tenantId).find((event) => event.data.name === 'Globex Modelled')!;
    expectSameModel(workspaceEvent.data, await management('GET', `/tenant/byId/${viewer.tenantId}`));

    await management('PUT', `/tenant/user/${viewer.tenantUserId}`, { firstName: 'Modelled' });
    await vi.waitFor(
      () => expect(arrived('TENANT_USER_UPDATED', viewer.tenantUserId).map((event) => event.data.firstName)).toContain('Modelled'),
      WAIT,
    );
    const memberEvent = arrived('TENANT_USER_UPDATED', viewer.tenantUserId).find((event) => event.data.firstName === 'Modelled')!;
    const member = await management('GET', `/tenant/user/${viewer.tenantUserId}`);
    expect(member).toMatchObject({ attributes: { jobTitle: 'Analyst' }, tenant: { attributes: { companySize: '51-200' }, metadata: {} } });
    expectSameModel(memberEvent.data, member);
  });
});

describe('events of sign-ins', () => {
  it('a member signing in to the app arrives as USER_SIGNED_IN with the membership', async () => {
    await accessTokenFor(foyer, {
      email: owner.email,
      password: DEMO_PASSWORD,
      workspace: 'Acme Renamed',
      appId: foyer.demo.appId,
      redirectUri: callbackUri(foyer),
    });
    await vi.waitFor(() => expect(arrived('USER_SIGNED_IN', owner.tenantUserId)).toHaveLength(1), WAIT);
    expect(arrived('USER_SIGNED_IN', owner.tenantUserId)[0]!.data).toMatchObject({
      id: owner.tenantUserId,
      email: owner.email,
      role: 'OWNER',
      enabled: true,
      tenant: { id: owner.tenantId, name: 'Acme Renamed' },
    });
  });
});

describe('retries', () => {
  it('a receiver that refuses connections, then answers 500, gets the event later, with the same webhook-id', async () => {
    const port = await freePort();
    const down = await addEndpoint(
      foyer,
      foyer.demo.appId,
      { token: ownerToken },
      { url: `http://127.0.0.1:${port}/later`, eventTypes: ['TENANT_UPDATED'] },
    );
    const renamed = await ask(foyer, owner, 'mutation { updateTenant(tenant: { name: "Acme Later" }) { id } }');
    expect(renamed.body.errors).toBeUndefined();

    const log = async () =>
      (
        await admin<{ deliveries: Record<string, unknown>[] }>(foyer, 'GET', `/apps/${foyer.demo.appId}/webhooks/${down.id}/deliveries`, {
          token: ownerToken,
        })
      ).body.deliveries;
    // Nothing listens yet: the first attempt fails and the delivery waits for its next one.
    await vi.waitFor(async () => {
      const [delivery] = await log();
      expect(delivery).toMatchObject({ eventType: 'TENANT_UPDATED', status: 'pending', responseCode: null });
      expect(delivery!.attempts).toBeGreaterThanOrEqual(1);
      expect(delivery!.error).toMatch(/ECONNREFUSED/);
    }, WAIT);

    const late = await startReceiver({ port, answer: (index) => (index === 0 ? 500 : 204) });
    try {
      await vi.waitFor(async () => {
        const [delivery] = await log();
        expect(delivery).toMatchObject({ status: 'succeeded', responseCode: 204, error: null });
        expect(delivery!.attempts).toBeGreaterThanOrEqual(3);
      }, WAIT);
      const events = late.verifiedEvents(down.secret);
      expect(events.map((event) => [event.type, event.data.name])).toEqual([
        ['TENANT_UPDATED', 'Acme Later'],
        ['TENANT_UPDATED', 'Acme Later'],
      ]);
      expect(new Set(late.received.map((entry) => entry.headers['webhook-id'])).size).toBe(1);

      // Resend posts the event again, as a new delivery with the same webhook-id.
      const [done] = await log();
      const resent = await admin(foyer, 'POST', `/apps/${foyer.demo.appId}/webhooks/${down.id}/deliveries/${done!.id}/resend`, {
        token: ownerToken,
      });
      expect(resent.status).toBe(201);
      await vi.waitFor(() => expect(late.received).toHaveLength(3), WAIT);
      expect(late.received[2]!.headers['webhook-id']).toBe(late.received[0]!.headers['webhook-id']);
    } finally {
      await late.close();
    }
  });
});

describe('what is never sent', () => {
  it('a change that rolls back leaves no event, while the next committed one arrives', async () => {
    const failed = new Error('rolled back on purpose');
    await expect(
      foyer.db.transaction(async (tx) => {
        await tx.update(tenants).set({ name: 'Never Committed' }).where(eq(tenants.id, owner.tenantId));
        await emitTenantEvent(tx, foyer.demo.appId, 'TENANT_UPDATED', owner.tenantId);
        throw failed;
      }),
    ).rejects.toBe(failed);
    const rows = await foyer.db.select({ body: webhookDeliveries.body }).from(webhookDeliveries);
    expect(rows.filter((row) => JSON.stringify(row.body).includes('Never Committed'))).toEqual([]);

    const renamed = await ask(foyer, owner, 'mutation { updateTenant(tenant: { name: "Acme Committed" }) { id } }');
    expect(renamed.body.errors).toBeUndefined();
    await vi.waitFor(
      () => expect(arrived('TENANT_UPDATED', owner.tenantId).map((event) => event.data.name)).toContain('Acme Committed'),
      WAIT,
    );
    expect(arrived('TENANT_UPDATED', owner.tenantId).map((event) => event.data.name)).not.toContain('Never Committed');
  });

  it("another app's events reach only that app's endpoint", async () => {
    const created = await admin<{ app: { id: string }; apiKey: string }>(foyer, 'POST', '/apps', {
      token: ownerToken,
      body: { name: 'Hooks B' },
    });
    expect(created.status).toBe(201);
    const other = created.body;
    const otherReceiver = await startReceiver();
    try {
      const otherEndpoint = await addEndpoint(
        foyer,
        other.app.id,
        { apiKey: other.apiKey },
        { url: otherReceiver.url, eventTypes: [...WEBHOOK_EVENT_TYPES] },
      );
      const workspace = await admin<{ workspace: { id: string } }>(foyer, 'POST', `/apps/${other.app.id}/workspaces`, {
        apiKey: other.apiKey,
        body: { name: 'B workspace', ownerEmail: `b-owner-${randomUUID().slice(0, 8)}@example.com` },
      });
      expect(workspace.status).toBe(201);
      const otherTenantId = workspace.body.workspace.id;
      await vi.waitFor(
        () =>
          // Posted side by side: the order of arrival is not promised (docs/webhooks.md).
          expect(
            otherReceiver
              .verifiedEvents(otherEndpoint.secret)
              .map((event) => event.type)
              .toSorted(),
          ).toEqual(['TENANT_CREATED', 'TENANT_USER_CREATED']),
        WAIT,
      );

      // A change in the demo app, after B's: once it arrived here, B's would have too.
      const renamed = await ask(foyer, owner, 'mutation { updateTenant(tenant: { name: "Acme After B" }) { id } }');
      expect(renamed.body.errors).toBeUndefined();
      await vi.waitFor(
        () => expect(arrived('TENANT_UPDATED', owner.tenantId).map((event) => event.data.name)).toContain('Acme After B'),
        WAIT,
      );
      expect(receiver.received.filter((entry) => entry.body.includes(otherTenantId))).toEqual([]);
      expect(otherReceiver.received.filter((entry) => entry.body.includes(owner.tenantId))).toEqual([]);
    } finally {
      await otherReceiver.close();
    }
  });
});
