// The management API's changes (server/management/) send the same webhook events as the screens'
// changes: its writes go through the services that write the outbox, including the member profile
// update only an app's back end makes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { createApiKey } from '../../../server/apps/api-keys.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../common/webhooks.ts';
import { consoleOwnerToken } from '../support/console.ts';
import { addEndpoint, startReceiver, type Receiver } from './receiver.ts';

let foyer: TestFoyer;
let key: string;
let receiver: Receiver;
let endpoint: { id: string; secret: string };

const WAIT = { timeout: 20_000, interval: 50 };

beforeAll(async () => {
  foyer = await startFoyer({ webhooks: { pollIntervalMs: 50, retryBaseMs: 200, retryForMs: 24 * 60 * 60_000, timeoutMs: 2000 } });
  ({ key } = await createApiKey(foyer.db, foyer.demo.appId, 'Back end'));
  receiver = await startReceiver();
  const token = await consoleOwnerToken(foyer);
  endpoint = await addEndpoint(foyer, foyer.demo.appId, { token }, { url: receiver.url, eventTypes: [...WEBHOOK_EVENT_TYPES] });
});

afterAll(async () => {
  await foyer?.close();
  await receiver?.close();
});

async function call(method: string, path: string, body?: unknown, tenant?: string) {
  const headers: Record<string, string> = { 'x-api-key': key };
  if (tenant) headers['x-tenant-id'] = tenant;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${foyer.urls.api}/management${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> };
}

const arrived = (type: string, id: string) =>
  receiver.verifiedEvents(endpoint.secret).filter((event) => event.type === type && event.data.id === id);

describe('webhook events of management API changes', () => {
  it('sends the tenant and member events of a workspace and member made, changed and removed by an app back end', async () => {
    const tag = randomUUID().slice(0, 8);
    const created = await call('POST', '/tenant', {
      name: `Managed ${tag}`,
      owner: { email: `owner-${tag}@example.com`, muteNotifications: true },
    });
    expect(created.status).toBe(201);
    const tenantId = String(created.body.id);
    await vi.waitFor(() => expect(arrived('TENANT_CREATED', tenantId)).toHaveLength(1), WAIT);

    const renamed = await call('PUT', `/tenant/${tenantId}`, { name: `Renamed ${tag}` });
    expect(renamed.status).toBe(200);
    await vi.waitFor(() => expect(arrived('TENANT_UPDATED', tenantId).at(-1)?.data).toMatchObject({ name: `Renamed ${tag}` }), WAIT);

    const member = await call('POST', '/tenant/user', { username: `member-${tag}@example.com`, muteNotifications: true }, tenantId);
    expect(member.status).toBe(201);
    const memberId = String(member.body.id);
    await vi.waitFor(() => expect(arrived('TENANT_USER_CREATED', memberId)).toHaveLength(1), WAIT);

    const updated = await call('PUT', `/tenant/user/${memberId}`, { firstName: 'Ada', onboarded: true }, tenantId);
    expect(updated.status).toBe(200);
    await vi.waitFor(() => expect(arrived('TENANT_USER_UPDATED', memberId).at(-1)?.data).toMatchObject({ onboarded: true }), WAIT);

    const removed = await call('DELETE', `/tenant/user/${memberId}`, undefined, tenantId);
    expect(removed.status).toBeLessThan(300);
    await vi.waitFor(() => expect(arrived('TENANT_USER_DELETED', memberId)).toHaveLength(1), WAIT);
  });
});
