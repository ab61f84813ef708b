// The management API's writes to the app's settings (server/management/app-settings.ts): PUT /app,
// the credentials, the custom signup fields, plans and taxes, each published as a new version through
// the admin service; and the refusals: unknown and read-only fields, invalid values and wrong types
// (coded details, the database as it was), another app's key, a revoked key, and role writes.
import { exportPKCS8, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, appVersions, auditEvents, tenants } from '../../../server/db/schema.ts';
import { createApiKey, revokeApiKey } from '../../../server/apps/api-keys.ts';
import { insertApp } from '../support/apps.ts';

let foyer: TestFoyer;
let key: string;
let otherKey: string;
let otherAppId: string;

interface Answer<Body> {
  status: number;
  body: Body;
}

type Refusal = {
  error: string;
  code?: string;
  details: { path: string; code: string; params: Record<string, unknown>; message: string }[];
};

async function call<Body = Record<string, unknown>>(method: string, path: string, body?: unknown, usedKey = key): Promise<Answer<Body>> {
  const headers: Record<string, string> = { 'x-api-key': usedKey };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${foyer.urls.api}/management${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Body };
}

async function appRow(appId = foyer.demo.appId) {
  const [row] = await foyer.db.select().from(apps).where(eq(apps.id, appId));
  return row!;
}

beforeAll(async () => {
  foyer = await startFoyer();
  ({ key } = await createApiKey(foyer.db, foyer.demo.appId, 'Back end'));
  otherAppId = await insertApp(foyer, { name: 'Other app' });
  ({ key: otherKey } = await createApiKey(foyer.db, otherAppId, 'Other back end'));
});
afterAll(() => foyer?.close());

describe('PUT /app', () => {
  it('publishes the changed settings as a new version, audited, and answers the app', async () => {
    const before = await appRow();
    const callback = 'https://app.example/callback';
    const answer = await call('PUT', '/app', {
      name: 'Renamed app',
      magicLinkEnabled: true,
      websiteUrl: 'https://app.example',
      accessTokenTTL: 900,
      redirectUris: [...before.redirectUris, callback],
      defaultCallbackUri: callback,
      onboardingFlow: 'B2C',
      id: foyer.demo.appId,
    });
    expect(answer).toMatchObject({
      status: 200,
      body: {
        name: 'Renamed app',
        magicLinkEnabled: true,
        websiteUrl: 'https://app.example',
        accessTokenTTL: 900,
        defaultCallbackUri: callback,
        onboardingFlow: 'B2C',
        redirectUris: [callback, ...before.redirectUris],
      },
    });
    const after = await appRow();
    expect(after).toMatchObject({ name: 'Renamed app', accessTokenTtl: 900, defaultCallbackUri: callback });
    expect(after.publishedVersion).toBeGreaterThan(before.publishedVersion);
    const [version] = await foyer.db
      .select()
      .from(appVersions)
      .where(eq(appVersions.appId, foyer.demo.appId))
      .orderBy(desc(appVersions.version))
      .limit(1);
    expect(version).toMatchObject({ version: after.publishedVersion, author: 'API key', note: 'Changed through the management API' });
    const audits = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.appId, foyer.demo.appId), eq(auditEvents.type, 'app.published')));
    expect(audits.some((event) => (event.detail as { version?: number }).version === after.publishedVersion)).toBe(true);
    expect((await call('GET', '/app')).body).toMatchObject({ name: 'Renamed app', accessTokenTTL: 900 });
  });

  it('refuses unknown, unsupported and changed read-only fields by name, changing nothing', async () => {
    const before = await appRow();
    const answer = await call<Refusal>('PUT', '/app', {
      name: 'Not this',
      colour: 'blue',
      emailSenderEmail: 'news@app.example',
      stripeEnabled: true,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('BAD_USER_INPUT');
    expect(answer.body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/colour', code: 'unknownSetting' }),
        expect.objectContaining({ path: '/emailSenderEmail', code: 'noAppMailSender' }),
        expect.objectContaining({ path: '/stripeEnabled', code: 'readOnly' }),
      ]),
    );
    expect(await appRow()).toEqual(before);
  });

  it('refuses invalid values and wrong types with coded details, changing nothing', async () => {
    const before = await appRow();
    const short = await call<Refusal>('PUT', '/app', { accessTokenTTL: 5, websiteUrl: 'javascript:alert(1)' });
    expect(short).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect(short.body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/accessTokenTTL', code: 'minimum', params: { comparison: '>=', limit: 60 } }),
        expect.objectContaining({ path: '/websiteUrl', code: 'pattern' }),
      ]),
    );
    const wrongType = await call<Refusal>('PUT', '/app', { passkeysEnabled: { yes: true }, redirectUris: 'https://one.example' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: '/passkeysEnabled', code: 'type', params: { type: 'boolean' } })]),
    );
    const foreignLogo = await call<Refusal>('PUT', '/app', { logo: 'https://evil.example/logo.png' });
    expect(foreignLogo.body.details).toEqual([expect.objectContaining({ path: '/logo', code: 'foreignLogo' })]);
    expect(await call('PUT', '/app', 'not an object')).toMatchObject({ status: 400 });
    expect(await appRow()).toEqual(before);
  });

  it("changes only the key's own app; a revoked key changes nothing", async () => {
    const demoBefore = await appRow();
    expect(await call('PUT', '/app', { name: 'Other renamed' }, otherKey)).toMatchObject({ status: 200, body: { id: otherAppId } });
    expect((await appRow(otherAppId)).name).toBe('Other renamed');
    expect((await appRow()).name).toBe(demoBefore.name);
    const revoked = await createApiKey(foyer.db, foyer.demo.appId, 'Revoked');
    await revokeApiKey(foyer.db, foyer.demo.appId, revoked.id);
    expect(await call('PUT', '/app', { name: 'Taken over' }, revoked.key)).toMatchObject({
      status: 401,
      body: { code: 'NBLOCKS_UNAUTHORIZED_EXCEPTION' },
    });
    expect((await appRow()).name).toBe(demoBefore.name);
  });
});

describe('PUT /app/credentials', () => {
  it('seals the secrets, never answers them, and the credentials state says they are there', async () => {
    const answer = await call('PUT', '/app/credentials', {
      googleClientId: 'google-id',
      googleClientSecret: 'google-secret-value',
      stripePublicKey: 'pk_test_abc',
      stripeSecretKey: 'sk_test_abc123',
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { googleCredentialsAdded: true, stripeCredentialsAdded: true, githubCredentialsAdded: false },
    });
    expect(await call('GET', '/app/credentialsState')).toMatchObject({
      body: { googleCredentialsAdded: true, stripeCredentialsAdded: true },
    });
    const row = await appRow();
    expect(JSON.stringify(row.settings)).not.toContain('google-secret-value');
    expect(JSON.stringify(row.settings)).not.toContain('sk_test_abc123');
    expect(row.settings.socialProviders?.google).toMatchObject({ clientId: 'google-id', clientSecretSealed: expect.any(String) });
    // A later write that sends no secret keeps it; an empty one removes it.
    await call('PUT', '/app/credentials', { githubClientId: 'github-id', githubClientSecret: 'gh-secret' });
    expect((await call('GET', '/app/credentialsState')).body).toMatchObject({ googleCredentialsAdded: true, githubCredentialsAdded: true });
    await call('PUT', '/app/credentials', { googleClientSecret: '' });
    expect((await call('GET', '/app/credentialsState')).body).toMatchObject({
      googleCredentialsAdded: false,
      githubCredentialsAdded: true,
    });
  });

  it("takes Apple's .p8 key with its team and key ids, as the original client names them", async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const answer = await call('PUT', '/app/credentials', {
      appleClientId: 'com.example.web',
      appleTeamId: 'TEAM123456',
      appleKeyId: 'KEY1234567',
      applePrivateKey: pem,
    });
    expect(answer).toMatchObject({ status: 200, body: { appleCredentialsAdded: true } });
    const row = await appRow();
    expect(JSON.stringify(row.settings)).not.toContain(pem.split('\n')[1]);
    expect(row.settings.socialProviders?.apple).toMatchObject({
      clientId: 'com.example.web',
      teamId: 'TEAM123456',
      keyId: 'KEY1234567',
      clientSecretSealed: expect.any(String),
    });
  });

  it('refuses malformed keys, fields Foyer has no use for and wrong types, changing nothing', async () => {
    const before = await appRow();
    const badKey = await call<Refusal>('PUT', '/app/credentials', { stripeSecretKey: 'not-a-stripe-key' });
    expect(badKey).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ path: '/stripeSecretKey', code: 'pattern' })] },
    });
    const apple = await call<Refusal>('PUT', '/app/credentials', {
      appleClientSecret: 'a.signed.jwt',
      microsoftAzureMarketplaceClientId: 'x',
      nonsense: 1,
    });
    expect(apple.body.details.map((detail) => [detail.path, detail.code])).toEqual([
      ['/appleClientSecret', 'applePrivateKey'],
      ['/microsoftAzureMarketplaceClientId', 'noAzureMarketplace'],
      ['/nonsense', 'unknownSetting'],
    ]);
    expect((await call('PUT', '/app/credentials', { googleClientSecret: { value: 'a' } })).status).toBe(400);
    // A key Apple's ES256 client secret cannot be signed with, at its field.
    const badAppleKey = await call<Refusal>('PUT', '/app/credentials', { appleClientId: 'com.example', applePrivateKey: 'not a key' });
    expect(badAppleKey.body.details.map((detail) => [detail.path, detail.code])).toEqual([['/applePrivateKey', 'applePrivateKey']]);
    expect(await appRow()).toEqual(before);
  });
});

describe('PUT /app/custom-tenant-user-params-config', () => {
  it('replaces the custom signup fields, and GET answers them', async () => {
    const fields = [
      { label: 'department', type: 'text', userLabel: 'Department', regex: '', required: true },
      { label: 'employees', type: 'integer', userLabel: 'Employees', regex: '^[0-9]{1,6}$' },
    ];
    const answer = await call('PUT', '/app/custom-tenant-user-params-config', fields);
    const expected = [
      { label: 'department', type: 'text', userLabel: 'Department', regex: '', required: true },
      { label: 'employees', type: 'integer', userLabel: 'Employees', regex: '^[0-9]{1,6}$', required: false },
    ];
    expect(answer).toMatchObject({ status: 200, body: expected });
    expect((await call('GET', '/app/custom-tenant-user-params-config')).body).toEqual(expected);
  });

  it("refuses a type Foyer has no field for, a bad label and a duplicate, naming each item's field", async () => {
    const before = await appRow();
    const file = await call<Refusal>('PUT', '/app/custom-tenant-user-params-config', [{ label: 'cv', type: 'file', userLabel: 'CV' }]);
    expect(file).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ path: '/0/type', code: 'unsupportedFieldType' })] },
    });
    const twice = await call<Refusal>('PUT', '/app/custom-tenant-user-params-config', [
      { label: 'team', type: 'text', userLabel: 'Team' },
      { label: 'Team', type: 'text', userLabel: 'Team again' },
      { label: '1bad label', type: 'text', userLabel: 'Bad' },
    ]);
    expect(twice.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/2/label', code: 'pattern' })]));
    const duplicate = await call<Refusal>('PUT', '/app/custom-tenant-user-params-config', [
      { label: 'team', type: 'text', userLabel: 'Team' },
      { label: 'Team', type: 'text', userLabel: 'Team again' },
    ]);
    expect(duplicate.body.details).toEqual([expect.objectContaining({ path: '/1/label', code: 'duplicate' })]);
    expect((await call('PUT', '/app/custom-tenant-user-params-config', { label: 'x' })).status).toBe(400);
    expect(await appRow()).toEqual(before);
  });
});

describe('plans and taxes', () => {
  const plan = {
    key: 'SCALE',
    name: 'Scale',
    description: 'For many',
    trial: true,
    trialDays: 14,
    prices: [{ amount: 99, currency: 'eur', recurrenceInterval: 'month' }],
  };

  it('adds, changes and removes a plan', async () => {
    expect(await call('POST', '/payments/plan', plan)).toMatchObject({
      status: 201,
      body: {
        id: 'SCALE',
        key: 'SCALE',
        trial: true,
        trialDays: 14,
        prices: [{ amount: 99, currency: 'EUR', recurrenceInterval: 'month' }],
      },
    });
    expect(await call('POST', '/payments/plan', plan)).toMatchObject({ status: 409, body: { code: 'NBLOCKS_CONFLICT' } });
    expect(await call('PUT', '/payments/plan/SCALE', { ...plan, name: 'Scale up', trial: false })).toMatchObject({
      status: 200,
      body: { name: 'Scale up', trial: false, trialDays: 0 },
    });
    expect((await call<{ key: string }[]>('GET', '/payments/plan')).body.map((each) => each.key)).toContain('SCALE');
    expect(await call('DELETE', '/payments/plan/SCALE')).toMatchObject({ status: 204 });
    expect((await call<{ key: string }[]>('GET', '/payments/plan')).body.map((each) => each.key)).not.toContain('SCALE');
    expect(await call('DELETE', '/payments/plan/SCALE')).toMatchObject({ status: 404 });
  });

  it("refuses a bad plan, a changed key, removing a plan workspaces hold, and another app's plan", async () => {
    const bad = await call<Refusal>('POST', '/payments/plan', {
      ...plan,
      key: 'lower case',
      prices: [{ amount: -1, currency: 'EUR', recurrenceInterval: 'fortnight' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/key', code: 'pattern' }),
        expect.objectContaining({ path: '/prices/0/amount', code: 'minimum' }),
      ]),
    );
    expect(await call<Refusal>('PUT', '/payments/plan/TEAM', { ...plan, key: 'OTHER' })).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ path: '/key', code: 'planKeyFixed' })] },
    });
    const [held] = await foyer.db.select({ plan: tenants.plan }).from(tenants).where(eq(tenants.appId, foyer.demo.appId));
    await foyer.db.update(tenants).set({ plan: 'TEAM' }).where(eq(tenants.appId, foyer.demo.appId));
    expect(await call('DELETE', '/payments/plan/TEAM')).toMatchObject({ status: 409, body: { error: 'PLAN_IN_USE' } });
    await foyer.db
      .update(tenants)
      .set({ plan: held?.plan ?? null })
      .where(eq(tenants.appId, foyer.demo.appId));
    expect(await call('DELETE', '/payments/plan/TEAM', undefined, otherKey)).toMatchObject({ status: 404 });
    expect(await call('PUT', '/payments/plan/TEAM', { ...plan, key: 'TEAM' }, otherKey)).toMatchObject({ status: 404 });
  });

  it('keeps every one of concurrent writes: each publishes on top of the one before', async () => {
    const keys = ['ALPHA', 'BRAVO', 'CHARLIE', 'DELTA'];
    const answers = await Promise.all(
      keys.map((key) =>
        call('POST', '/payments/plan', { ...plan, key, prices: [{ amount: 5, currency: 'USD', recurrenceInterval: 'month' }] }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    expect((await call<{ key: string }[]>('GET', '/payments/plan')).body.map((each) => each.key)).toEqual(expect.arrayContaining(keys));
    const versions = await foyer.db
      .select({ version: appVersions.version })
      .from(appVersions)
      .where(eq(appVersions.appId, foyer.demo.appId));
    expect(new Set(versions.map((row) => row.version)).size).toBe(versions.length);
    await Promise.all(keys.map((key) => call('DELETE', `/payments/plan/${key}`)));
  });

  it('adds, changes and removes a tax, refusing a duplicate and a bad one', async () => {
    const added = await call('POST', '/payments/tax', { countryCode: 'se', name: 'Moms', percentage: 25 });
    expect(added).toMatchObject({ status: 201, body: { id: 'SE:Moms', countryCode: 'SE', name: 'Moms', percentage: 25 } });
    expect(await call('POST', '/payments/tax', { countryCode: 'SE', name: 'Moms', percentage: 12 })).toMatchObject({ status: 409 });
    expect(await call<Refusal>('POST', '/payments/tax', { countryCode: 'SE', name: 'Too much', percentage: 120 })).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ path: '/percentage', code: 'maximum' })] },
    });
    expect(await call('PUT', '/payments/tax/SE:Moms', { countryCode: 'SE', name: 'Moms', percentage: 12 })).toMatchObject({
      status: 200,
      body: { percentage: 12 },
    });
    expect(await call('DELETE', '/payments/tax/SE:Moms', undefined, otherKey)).toMatchObject({ status: 404 });
    expect(await call('DELETE', '/payments/tax/SE:Moms')).toMatchObject({ status: 204 });
    expect((await call<unknown[]>('GET', '/payments/tax')).body).not.toContainEqual(expect.objectContaining({ id: 'SE:Moms' }));
  });
});

describe('roles', () => {
  it('refuses role and privilege writes: the table is fixed', async () => {
    const writes: [string, string, unknown?][] = [
      ['POST', '/role', { key: 'AUDITOR', name: 'Auditor', privileges: [] }],
      ['PUT', '/role/VIEWER', { name: 'Watcher' }],
      ['DELETE', '/role/VIEWER'],
      ['POST', '/role/privilege', { key: 'EXPORT' }],
      ['DELETE', '/role/privilege/USER_READ'],
    ];
    for (const [method, path, body] of writes) {
      expect(await call(method, path, body)).toMatchObject({
        status: 403,
        body: { error: 'ROLES_FIXED', code: 'NBLOCKS_FORBIDDEN_EXCEPTION' },
      });
    }
    expect((await call<unknown[]>('GET', '/role')).body).toHaveLength(4);
  });
});

describe('coded field problems', () => {
  it("answers a service's, a schema's and the management API's own bad input as coded details beside the English fields", async () => {
    const service = await call<Refusal & { fields: Record<string, string> }>('POST', '/tenant', {
      owner: { email: 'not an address' },
      locale: 'xx',
    });
    expect(service).toMatchObject({
      status: 400,
      body: {
        error: 'BAD_USER_INPUT',
        fields: { 'owner.email': 'Enter a valid e-mail address', locale: expect.stringContaining('Choose one of') },
      },
    });
    expect(service.body.details).toEqual(
      expect.arrayContaining([
        { path: '/owner/email', code: 'enterEmail', params: {}, message: 'Enter a valid e-mail address' },
        expect.objectContaining({
          path: '/locale',
          code: 'allowedValues',
          params: { allowedValues: expect.arrayContaining(['en', 'sv']) },
        }),
      ]),
    );
    // Fastify's schema check stops at the first problem.
    const missing = await call<Refusal>('POST', '/tenant', { owner: { firstName: 'No address' } });
    expect(missing).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
    expect(missing.body.details).toEqual([{ path: '/owner/email', code: 'required', params: {}, message: 'This field is required' }]);
    const long = await call<Refusal>('POST', '/tenant', { owner: { email: 'long@name.example' }, name: 'x'.repeat(500) });
    expect(long.body.details).toEqual([
      expect.objectContaining({ path: '/name', code: 'maxLength', params: { limit: expect.any(Number) } }),
    ]);
    const query = await call<Refusal>('GET', '/tenant?limit=0');
    expect(query.body.details).toEqual([
      expect.objectContaining({ path: '/limit', code: 'minimum', params: { comparison: '>=', limit: 1 } }),
    ]);
  });
});
