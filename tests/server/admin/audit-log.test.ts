// An app's audit log in the admin API: its owners (TENANT_READ on the owning console workspace) and
// its API key read the app's events, filtered by type and person and paged on the server; every other
// caller gets the answer of an unknown app, and bad filters a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestFoyer } from '../../../server/testing.ts';
import type { AuditLogEntry } from '../../../common/api/admin.ts';
import { startFoyer } from '../../../server/testing.ts';
import { accessTokenFor, admin, consoleOwnerToken, CONSOLE_WORKSPACE, newConsoleUser } from '../support/console.ts';
import { createMember, type Member } from '../password/helpers.ts';
import { findMembership, mintAccessToken } from '../support/tokens.ts';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

interface Page {
  total: number;
  entries: AuditLogEntry[];
}

let foyer: TestFoyer;
let ownerToken: string;
let viewerToken: string;
let otherToken: string;
let member: Member;

async function attempt(email: string, password: string) {
  return fetch(`${foyer.urls.auth}/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId, 'user-agent': FIREFOX_WINDOWS, origin: foyer.urls.ui },
    body: JSON.stringify({ username: email, password }),
  });
}

const log = (token: string, query = '', appId = foyer.demo.appId) =>
  admin<Page>(foyer, 'GET', `/apps/${appId}/audit-log${query}`, { token });

beforeAll(async () => {
  foyer = await startFoyer();
  const viewer = await newConsoleUser(foyer, { workspace: CONSOLE_WORKSPACE, role: 'VIEWER' });
  const other = await newConsoleUser(foyer, { workspace: 'Other company', role: 'OWNER' });
  [ownerToken, viewerToken, otherToken] = await Promise.all([
    consoleOwnerToken(foyer),
    accessTokenFor(foyer, viewer),
    accessTokenFor(foyer, other),
  ]);
  member = await createMember(foyer);
  expect((await attempt(member.email, 'Wrong-password-1!')).status).toBe(401);
  expect((await attempt(member.email, member.password!)).status).toBe(200);
  expect((await attempt('nobody@nowhere.test', 'Wrong-password-1!')).status).toBe(401);
});

afterAll(async () => {
  await foyer?.close();
});

describe("an app's audit log", () => {
  it('lists sign-ins and failures, newest first, with the person and the device', async () => {
    const answer = await log(ownerToken, `?person=${encodeURIComponent(member.email.toUpperCase())}`);
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(2);
    expect(answer.body.entries.map((entry) => entry.type)).toEqual(['login.success', 'login.failure']);
    expect(answer.body.entries[0]).toMatchObject({
      person: member.email,
      browser: 'Firefox',
      os: 'Windows',
      ip: '127.0.0.1',
      viaApiKey: false,
    });
    // A failure for an unknown address names the address it tried.
    const unknown = await log(ownerToken, '?person=nobody%40nowhere.test');
    expect(unknown.body.entries).toEqual([expect.objectContaining({ type: 'login.failure', person: 'nobody@nowhere.test' })]);
  });

  it('filters by event type and pages on the server', async () => {
    const failures = await log(ownerToken, '?type=login.failure');
    expect(failures.body.entries.every((entry) => entry.type === 'login.failure')).toBe(true);
    expect(failures.body.total).toBeGreaterThanOrEqual(2);
    const all = await log(ownerToken, '?limit=100');
    const second = await log(ownerToken, '?limit=1&offset=1');
    expect(second.body.total).toBe(all.body.total);
    expect(second.body.entries).toEqual([all.body.entries[1]]);
    // Counters of the attempt limits are not shown.
    expect(all.body.entries.map((entry) => entry.type)).not.toContain('token.issued');
  });

  it('shows config changes with who made them, and the API key reads it too', async () => {
    const created = await admin<{ app: { id: string }; apiKey: string }>(foyer, 'POST', '/apps', {
      token: ownerToken,
      body: { name: 'Logged app' },
    });
    const appId = created.body.app.id;
    const regenerated = await admin<{ apiKey: string }>(foyer, 'POST', `/apps/${appId}/api-key`, { apiKey: created.body.apiKey });
    expect(regenerated.status).toBe(201);
    const entries = (await log(ownerToken, '', appId)).body.entries;
    expect(entries.map((entry) => [entry.type, entry.viaApiKey])).toEqual([
      ['app.api_key_regenerated', true],
      ['app.created', false],
    ]);
    expect(entries[1]!.person).toBe('owner@demo.foyer.test');
    // The replaced key reads nothing; the new one reads its own app's log only.
    expect((await admin(foyer, 'GET', `/apps/${appId}/audit-log`, { apiKey: created.body.apiKey })).status).toBe(401);
    expect((await admin(foyer, 'GET', `/apps/${appId}/audit-log`, { apiKey: regenerated.body.apiKey })).status).toBe(200);
    expect((await admin(foyer, 'GET', `/apps/${foyer.demo.appId}/audit-log`, { apiKey: regenerated.body.apiKey })).status).toBe(404);
    expect((await log(viewerToken, '', appId)).status).toBe(200);
  });

  it('shows API keys made and revoked, with who did it', async () => {
    const created = await admin<{ app: { id: string } }>(foyer, 'POST', '/apps', { token: ownerToken, body: { name: 'Keyed app' } });
    const appId = created.body.app.id;
    const key = await admin<{ apiKey: { id: string } }>(foyer, 'POST', `/apps/${appId}/api-keys`, {
      token: ownerToken,
      body: { name: 'Billing back end' },
    });
    expect(key.status).toBe(201);
    const revoked = await admin(foyer, 'DELETE', `/apps/${appId}/api-keys/${key.body.apiKey.id}`, { token: ownerToken });
    expect(revoked.status).toBeLessThan(300);
    const entries = (await log(ownerToken, '', appId)).body.entries;
    expect(entries.slice(0, 2).map((entry) => [entry.type, entry.person])).toEqual([
      ['app.api_key_revoked', 'owner@demo.foyer.test'],
      ['app.api_key_created', 'owner@demo.foyer.test'],
    ]);
  });
});

describe('hostile requests', () => {
  it("another owner's app answers like an unknown app, for the owner and for an app user's token", async () => {
    const theirs = await log(otherToken);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ statusCode: 404, error: 'UNKNOWN_APP' });
    expect((await log(otherToken, '', 'no-such-app')).body).toEqual(theirs.body);
    const appUser = await mintAccessToken(foyer.db, await findMembership(foyer.db, foyer.demo.users[0]!.email, 'Acme'), {
      issuer: foyer.urls.auth,
    });
    expect((await log(appUser)).status).toBeGreaterThanOrEqual(400);
    expect((await log(appUser)).status).toBeLessThan(500);
    expect((await admin(foyer, 'GET', `/apps/${foyer.demo.appId}/audit-log`)).status).toBe(401);
  });

  it('refuses unknown event types and out-of-range pages with a 400', async () => {
    for (const query of [
      '?type=token.issued',
      '?type=',
      '?limit=0',
      '?limit=101',
      '?offset=-1',
      '?offset=abc',
      `?person=${'x'.repeat(400)}`,
    ]) {
      const answer = await log(ownerToken, query);
      expect(answer.status, query).toBe(400);
      expect(answer.body, query).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
    }
  });
});
