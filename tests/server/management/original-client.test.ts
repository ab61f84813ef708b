// The original product's Node client (@nebulr-group/nblocks-ts-client) pointed at Foyer's management
// API through its own setting (NBLOCKS_ACCOUNT_API_URL) and an app's API key: the calls a back end
// written against the original makes for the app, workspaces and their members.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { NblocksClient, NotFoundError } from '@nebulr-group/nblocks-ts-client';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { createApiKey } from '../../../server/apps/api-keys.ts';
import { outbox, tenants, userTokens } from '../../../server/db/schema.ts';

let foyer: TestFoyer;
let nblocks: NblocksClient;
const previousUrl = process.env.NBLOCKS_ACCOUNT_API_URL;

beforeAll(async () => {
  foyer = await startFoyer();
  const { key } = await createApiKey(foyer.db, foyer.demo.appId, 'Original client');
  process.env.NBLOCKS_ACCOUNT_API_URL = `${foyer.urls.api}/management`;
  nblocks = new NblocksClient({ appId: foyer.demo.appId, apiKey: key, stage: 'DEV' });
});
afterAll(async () => {
  if (previousUrl === undefined) delete process.env.NBLOCKS_ACCOUNT_API_URL;
  else process.env.NBLOCKS_ACCOUNT_API_URL = previousUrl;
  await foyer?.close();
});

describe('the original Node client against the management API', () => {
  it('reads the app, its roles and its plans', async () => {
    const app = await nblocks.config.getAppProfile();
    expect(app).toMatchObject({ id: foyer.demo.appId, name: expect.any(String) });
    const roles = await nblocks.config.access.roles.list();
    expect(roles.map((role: { key: string }) => role.key)).toEqual(['OWNER', 'ADMIN', 'MANAGER', 'VIEWER']);
    const plans = await nblocks.config.payments.listPlans();
    expect(plans.map((plan: { key: string }) => plan.key).length).toBeGreaterThan(0);
  });

  it('changes the app, its credentials and its plans', async () => {
    const changed = await nblocks.config.updateAppProfile({ name: 'Renamed by the client', mfaEnabled: false, accessTokenTTL: 1800 });
    expect(changed).toMatchObject({ id: foyer.demo.appId, name: 'Renamed by the client', mfaEnabled: false, accessTokenTTL: 1800 });
    expect(await nblocks.config.getAppProfile()).toMatchObject({ name: 'Renamed by the client' });
    const state = await nblocks.config.updateCredentials({ githubClientId: 'gh-client', githubClientSecret: 'gh-secret' });
    expect(state).toMatchObject({ githubCredentialsAdded: true });
    expect(await nblocks.config.getCredentialsState()).toMatchObject({ githubCredentialsAdded: true });

    const payments = nblocks.config.payments;
    const plan = await payments.createPlan({
      key: 'SCALE',
      name: 'Scale',
      trial: false,
      trialDays: 0,
      prices: [{ amount: 99, currency: 'USD', recurrenceInterval: 'month' }],
    });
    expect(plan).toMatchObject({ id: 'SCALE', key: 'SCALE', name: 'Scale' });
    expect(await payments.getPlan('SCALE')).toMatchObject({ key: 'SCALE' });
    await payments.deletePlan('SCALE');
    await expect(payments.getPlan('SCALE')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates a workspace with its owner, lists, gets, updates and deletes it', async () => {
    const created = await nblocks.tenants.create({
      name: 'Initech',
      owner: { email: 'peter@initech.example', firstName: 'Peter', lastName: 'Gibbons' },
    });
    expect(created).toMatchObject({ name: 'Initech', locale: 'en', onboarded: true, mfa: false, metadata: {} });
    expect(created.paymentStatus).toMatchObject({ paymentsEnabled: false });
    // The owner was invited by mail, as the configurator's first workspace does.
    const mails = await foyer.db.select().from(outbox).where(eq(outbox.recipient, 'peter@initech.example'));
    expect(mails.map((mail) => mail.kind)).toEqual(['invite']);

    const listed = await nblocks.tenants.list();
    expect(listed.map((tenant) => tenant.name)).toEqual(expect.arrayContaining(['Acme', 'Globex', 'Initech']));

    const tenant = nblocks.tenant(created.id);
    expect((await tenant.get()).id).toBe(created.id);
    const updated = await tenant.update({ name: 'Initech Ltd', locale: 'sv' });
    expect(updated).toMatchObject({ id: created.id, name: 'Initech Ltd', locale: 'sv' });

    const owners = await tenant.users.list();
    expect(owners).toHaveLength(1);
    expect(owners[0]).toMatchObject({ email: 'peter@initech.example', role: 'OWNER', firstName: null, tenant: { id: created.id } });

    await tenant.delete();
    await expect(tenant.get()).rejects.toBeInstanceOf(NotFoundError);
    expect(await foyer.db.select().from(tenants).where(eq(tenants.id, created.id))).toEqual([]);
  });

  it('creates, lists, gets, updates and deletes members, and answers a password link', async () => {
    const created = await nblocks.tenants.create({ name: 'Hooli', owner: { email: 'gavin@hooli.example', muteNotifications: true } });
    const tenant = nblocks.tenant(created.id);

    const richard = await tenant.users.create({
      username: 'richard@hooli.example',
      role: 'ADMIN',
      firstName: 'Richard',
      lastName: 'Hendricks',
    });
    expect(richard).toMatchObject({
      email: 'richard@hooli.example',
      username: 'richard@hooli.example',
      role: 'ADMIN',
      enabled: true,
      teams: [],
      tenant: { id: created.id, name: 'Hooli' },
    });
    expect((await tenant.users.list()).map((user) => user.email).sort()).toEqual(['gavin@hooli.example', 'richard@hooli.example']);

    const user = tenant.user(richard.id);
    expect((await user.get()).id).toBe(richard.id);
    const changed = await user.update({ role: 'MANAGER', firstName: 'Rich' });
    expect(changed).toMatchObject({ role: 'MANAGER' });

    const link = await user.getResetPasswordLink();
    expect(link).toMatch(new RegExp(`^${foyer.urls.ui}/auth/set-password/[\\w-]+$`));
    const token = link.split('/').pop()!;
    expect(token.length).toBeGreaterThan(20);
    // Richard has not accepted yet: his link is the invitation's, which sets his password and accepts it.
    const issued = await foyer.db
      .select({ purpose: userTokens.purpose })
      .from(userTokens)
      .where(and(eq(userTokens.tenantUserId, richard.id)));
    expect(issued.map((row) => row.purpose)).toContain('invite');

    await user.delete();
    await expect(user.get()).rejects.toBeInstanceOf(NotFoundError);
  });
});
