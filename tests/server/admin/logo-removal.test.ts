// Replaced logos are removed: an app's upload the draft no longer names, and a workspace's logo
// replaced by a new upload, answer 404 and their rows are gone. A logo something still shows stays:
// the live settings, a version a restore brings back, another workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { appAssets, tenants } from '../../../server/db/schema.ts';
import type { AppConfig } from '../../../common/app-config.ts';
import { admin, consoleOwnerToken } from '../support/console.ts';
import { findMembership, mintAccessToken } from '../support/tokens.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

let foyer: TestFoyer;
let token: string;

beforeAll(async () => {
  foyer = await startFoyer();
  token = await consoleOwnerToken(foyer);
});
afterAll(() => foyer?.close());

const idOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

async function isStored(url: string): Promise<boolean> {
  const [row] = await foyer.db
    .select({ n: count() })
    .from(appAssets)
    .where(eq(appAssets.id, idOf(url)));
  return row!.n === 1;
}

/** Whether the address serves the upload, and its row is there: both or neither. */
async function served(url: string): Promise<boolean> {
  const status = (await fetch(url)).status;
  expect([200, 404]).toContain(status);
  expect(await isStored(url)).toBe(status === 200);
  return status === 200;
}

describe("an app's logo", () => {
  const appPath = () => `/apps/${foyer.demo.appId}`;
  const uploadAppLogo = async () =>
    (await admin<{ url: string }>(foyer, 'POST', `${appPath()}/logo`, { token, body: PNG, contentType: 'image/png' })).body.url;
  const live = async () => (await admin<{ live: AppConfig }>(foyer, 'GET', appPath(), { token })).body.live;
  const saveDraft = async (config: AppConfig) =>
    expect((await admin(foyer, 'PUT', `${appPath()}/draft`, { token, body: { config } })).status).toBe(200);

  it('goes when the draft names another; a published one stays while a version shows it', async () => {
    const settings = await live();
    const first = await uploadAppLogo();
    await saveDraft({ ...settings, logo: first });
    const second = await uploadAppLogo();
    await saveDraft({ ...settings, logo: second });
    expect(await served(first)).toBe(false);
    expect(await served(second)).toBe(true);

    // Published, it is live and in a version: a later draft's logo does not remove it.
    expect((await admin(foyer, 'POST', `${appPath()}/publish`, { token, body: { note: 'New logo' } })).status).toBe(201);
    const third = await uploadAppLogo();
    await saveDraft({ ...(await live()), logo: third });
    expect(await served(second)).toBe(true);

    // A discarded draft's logo goes with it.
    expect((await admin(foyer, 'DELETE', `${appPath()}/draft`, { token })).status).toBe(204);
    expect(await served(third)).toBe(false);
    expect(await served(second)).toBe(true);
  });
});

describe("a workspace's logo", () => {
  async function upload(email: string, workspace: string): Promise<string> {
    const member = await findMembership(foyer.db, email, workspace);
    const bearer = await mintAccessToken(foyer.db, member, { issuer: foyer.urls.auth });
    const response = await fetch(`${foyer.urls.api}/workspace/logo`, {
      method: 'POST',
      headers: { 'content-type': 'image/png', authorization: `Bearer ${bearer}` },
      body: new Uint8Array(PNG),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { logo: string }).logo;
  }

  it('goes when a new upload replaces it', async () => {
    const first = await upload('owner@demo.foyer.test', 'Acme');
    const second = await upload('owner@demo.foyer.test', 'Acme');
    expect(await served(first)).toBe(false);
    expect(await served(second)).toBe(true);
  });

  it('stays while another workspace shows it', async () => {
    const shared = await upload('owner@demo.foyer.test', 'Acme');
    const globex = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Globex');
    await foyer.db.update(tenants).set({ logo: shared }).where(eq(tenants.id, globex.tenantId));
    await upload('owner@demo.foyer.test', 'Acme');
    expect(await served(shared)).toBe(true);
  });
});
