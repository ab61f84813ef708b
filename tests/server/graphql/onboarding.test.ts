// Onboarding's two writes: updateMe (the caller's own profile; marks identity and membership
// onboarded) and updateTenant (the token's workspace only; marks it onboarded once named).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import type { Role } from '../../../common/roles.ts';
import { apps, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { SUPPORTED_LOCALES } from '../../../common/locales.ts';
import { bearer, errorCodes, postGraphQL, type GraphQLAnswer } from '../support/graphql.ts';
import { findMembership, mintAccessToken, type Membership } from '../support/tokens.ts';

let foyer: TestFoyer;
let originalSettings: AppSettings;

const UPDATE_ME = `mutation UpdateMe($user: MeInput!) {
  updateMe(user: $user) { id firstName lastName fullName onboarded consentsToPrivacyPolicy email role }
}`;
const UPDATE_TENANT = `mutation UpdateTenant($tenant: TenantInput!) {
  updateTenant(tenant: $tenant) { id name locale logo mfa onboarded plan }
}`;

type FieldErrorAnswer = { errors?: { extensions?: { fields?: Record<string, string | string[]> } }[] };
const fieldsOf = (answer: GraphQLAnswer) => (answer.body as FieldErrorAnswer).errors?.[0]?.extensions?.fields;

/** A workspace and a member who has done no onboarding yet, as a signup link leaves them. */
async function newcomer(role: Role = 'OWNER', tenantId?: string): Promise<Membership & { userId: string }> {
  const workspace = tenantId ?? randomUUID();
  if (!tenantId) await foyer.db.insert(tenants).values({ id: workspace, appId: foyer.demo.appId, name: '', onboarded: false });
  const userId = randomUUID();
  const tenantUserId = randomUUID();
  const email = `newcomer-${userId}@example.com`;
  await foyer.db.insert(users).values({ id: userId, appId: foyer.demo.appId, email });
  await foyer.db.insert(tenantUsers).values({ id: tenantUserId, tenantId: workspace, userId, role, onboarded: false });
  return { tenantUserId, tenantId: workspace, appId: foyer.demo.appId, role, email, plan: null, userId };
}

async function ask(membership: Membership, query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) {
  const token = await mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth });
  return postGraphQL(foyer.urls.api, { query, variables }, { ...bearer(token), ...headers });
}

const tenantRow = async (id: string) => (await foyer.db.select().from(tenants).where(eq(tenants.id, id)))[0]!;
const userRow = async (id: string) => (await foyer.db.select().from(users).where(eq(users.id, id)))[0]!;
const membershipRow = async (id: string) => (await foyer.db.select().from(tenantUsers).where(eq(tenantUsers.id, id)))[0]!;

async function setSettings(change: Partial<AppSettings>) {
  await foyer.db
    .update(apps)
    .set({ settings: { ...originalSettings, ...change } })
    .where(eq(apps.id, foyer.demo.appId));
}

beforeAll(async () => {
  foyer = await startFoyer();
  originalSettings = (await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId)))[0]!.settings;
});
afterAll(() => foyer?.close());
beforeEach(() => setSettings({}));

describe('updateMe', () => {
  it('sets the trimmed names and consent, and marks identity and membership onboarded', async () => {
    const me = await newcomer();
    const answer = await ask(me, UPDATE_ME, { user: { firstName: '  Grace ', lastName: ' Hopper', consentsToPrivacyPolicy: true } });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.updateMe).toEqual({
      id: me.tenantUserId,
      firstName: 'Grace',
      lastName: 'Hopper',
      fullName: 'Grace Hopper',
      onboarded: true,
      consentsToPrivacyPolicy: true,
      email: me.email,
      role: 'OWNER',
    });
    expect(await userRow(me.userId)).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      onboarded: true,
      consentsToPrivacyPolicy: true,
    });
    expect((await membershipRow(me.tenantUserId)).onboarded).toBe(true);
  });

  it('onboarded: true marks onboarded without names; consent alone does not', async () => {
    const consenting = await newcomer();
    await ask(consenting, UPDATE_ME, { user: { consentsToPrivacyPolicy: true } });
    expect((await userRow(consenting.userId)).onboarded).toBe(false);
    expect((await membershipRow(consenting.tenantUserId)).onboarded).toBe(false);

    const answer = await ask(consenting, UPDATE_ME, { user: { onboarded: true } });
    expect(answer.body.data?.updateMe).toMatchObject({ onboarded: true, firstName: null });
    expect((await userRow(consenting.userId)).onboarded).toBe(true);
  });

  it("marks only the caller's membership: the same identity elsewhere still onboards there", async () => {
    const me = await newcomer();
    const elsewhereId = randomUUID();
    const otherTenant = randomUUID();
    await foyer.db.insert(tenants).values({ id: otherTenant, appId: foyer.demo.appId, name: 'Elsewhere' });
    await foyer.db.insert(tenantUsers).values({ id: elsewhereId, tenantId: otherTenant, userId: me.userId, role: 'VIEWER' });
    await ask(me, UPDATE_ME, { user: { firstName: 'Solo' } });
    expect((await membershipRow(me.tenantUserId)).onboarded).toBe(true);
    expect((await membershipRow(elsewhereId)).onboarded).toBe(false);
  });

  it.each([
    ['a first name over 100 characters', { firstName: 'x'.repeat(101) }, 'firstName'],
    ['a last name over 100 characters', { lastName: `  ${'y'.repeat(101)}` }, 'lastName'],
  ])('refuses %s with 400 and changes nothing', async (_label, user, field) => {
    const me = await newcomer();
    const before = await userRow(me.userId);
    const answer = await ask(me, UPDATE_ME, { user: { ...user, consentsToPrivacyPolicy: true, onboarded: true } });
    expect(answer.status).toBe(400);
    expect(errorCodes(answer)).toEqual(['BAD_USER_INPUT']);
    expect(fieldsOf(answer)).toEqual({ [field]: 'At most 100 characters' });
    expect(await userRow(me.userId)).toEqual(before);
    expect((await membershipRow(me.tenantUserId)).onboarded).toBe(false);
  });

  it('accepts exactly 100 characters', async () => {
    const me = await newcomer();
    const answer = await ask(me, UPDATE_ME, { user: { firstName: 'z'.repeat(100) } });
    expect(answer.status).toBe(200);
  });

  it('needs a signed-in caller', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: UPDATE_ME, variables: { user: { onboarded: true } } },
      { 'x-app-id': foyer.demo.appId },
    );
    expect(answer.status).toBe(401);
  });
});

describe('updateTenant', () => {
  it('by an OWNER: sets the trimmed name (marking the workspace onboarded), locale and logo (an upload of the app)', async () => {
    const owner = await newcomer('OWNER');
    const uploaded = `${foyer.urls.api}/${foyer.demo.appId}/assets/${randomUUID()}`;
    const answer = await ask(owner, UPDATE_TENANT, {
      tenant: { name: '  Hooli  ', locale: 'sv', logo: uploaded },
    });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.updateTenant).toEqual({
      id: owner.tenantId,
      name: 'Hooli',
      locale: 'sv',
      logo: uploaded,
      mfa: false,
      onboarded: true,
      plan: null,
    });
    expect(await tenantRow(owner.tenantId)).toMatchObject({ name: 'Hooli', locale: 'sv', onboarded: true });

    const cleared = await ask(owner, UPDATE_TENANT, { tenant: { logo: null } });
    expect(cleared.body.data?.updateTenant).toMatchObject({ name: 'Hooli', logo: null });
  });

  it('leaves fields that are not given as they are, and a workspace without a new name not onboarded', async () => {
    const owner = await newcomer('OWNER');
    await ask(owner, UPDATE_TENANT, { tenant: { locale: 'sv' } });
    expect(await tenantRow(owner.tenantId)).toMatchObject({ name: '', locale: 'sv', onboarded: false });
  });

  it.each([
    ['an empty name', { name: '   ' }, 'name'],
    ['a name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
    ['an unsupported locale', { locale: 'xx' }, 'locale'],
    ['a logo that is not a web address', { logo: 'javascript:alert(1)' }, 'logo'],
    ['a logo on another scheme', { logo: 'ftp://example.com/logo.png' }, 'logo'],
    ['a logo elsewhere than the uploads (a tracking address in every token)', { logo: 'https://tracker.example/pixel.png' }, 'logo'],
    ['a federation connection (none exist yet)', { federationConnection: 'okta' }, 'federationConnection'],
  ])('refuses %s with 400 and changes nothing', async (_label, tenant, field) => {
    const owner = await newcomer('OWNER');
    const before = await tenantRow(owner.tenantId);
    const answer = await ask(owner, UPDATE_TENANT, { tenant: { ...tenant, mfa: true } });
    expect(answer.status).toBe(400);
    expect(Object.keys(fieldsOf(answer) ?? {})).toEqual([field]);
    expect(await tenantRow(owner.tenantId)).toEqual(before);
  });

  it("refuses a logo among another app's uploads", async () => {
    const owner = await newcomer('OWNER');
    const answer = await ask(owner, UPDATE_TENANT, { tenant: { logo: `${foyer.urls.api}/${randomUUID()}/assets/${randomUUID()}` } });
    expect(answer.status).toBe(400);
    expect(Object.keys(fieldsOf(answer) ?? {})).toEqual(['logo']);
    expect((await tenantRow(owner.tenantId)).logo).toBeNull();
  });

  it('offers exactly the supported locales', async () => {
    const owner = await newcomer('OWNER');
    for (const locale of SUPPORTED_LOCALES) {
      expect((await ask(owner, UPDATE_TENANT, { tenant: { locale } })).body.data?.updateTenant).toMatchObject({ locale });
    }
  });

  it.each(['VIEWER', 'MANAGER'] as const)('by a %s: FORBIDDEN (403), nothing changes', async (role) => {
    const owner = await newcomer('OWNER');
    const member = await newcomer(role, owner.tenantId);
    const answer = await ask(member, UPDATE_TENANT, { tenant: { name: 'Taken over' } });
    expect(answer.status).toBe(403);
    expect(errorCodes(answer)).toEqual(['FORBIDDEN']);
    expect((await tenantRow(owner.tenantId)).name).toBe('');
  });

  it('changes only the workspace the token names, whatever x-tenant-id or x-app-id say', async () => {
    const owner = await newcomer('OWNER');
    const acme = await findMembership(foyer.db, 'admin@acme.demo.foyer.test', 'Acme');
    const answer = await ask(
      owner,
      UPDATE_TENANT,
      { tenant: { name: 'Mine' } },
      {
        'x-tenant-id': acme.tenantId,
        'x-tenant-user-id': acme.tenantUserId,
        'x-app-id': randomUUID(),
      },
    );
    expect(answer.body.data?.updateTenant).toMatchObject({ id: owner.tenantId, name: 'Mine' });
    expect((await tenantRow(acme.tenantId)).name).toBe('Acme');
  });

  it('switches two-factor when the app offers it, and refuses (400) when it does not', async () => {
    const owner = await newcomer('OWNER');
    const on = await ask(owner, UPDATE_TENANT, { tenant: { mfa: true } });
    expect(on.body.data?.updateTenant).toMatchObject({ mfa: true });

    await setSettings({ mfaEnabled: false });
    const refused = await ask(owner, UPDATE_TENANT, { tenant: { mfa: false } });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused)).toEqual({ mfa: expect.any(String) });
    expect((await tenantRow(owner.tenantId)).mfa).toBe(true);
  });
});
