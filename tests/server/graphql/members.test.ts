// Signed-in members: their own user and workspace, privileges from the token's scope narrowed by the
// membership's current role, and memberships that stop counting the moment they change.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_ENV, startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { tenants, tenantUsers } from '../../../server/db/schema.ts';
import { bearer, errorCodes, postGraphQL } from '../support/graphql.ts';
import { findMembership, mintAccessToken, type Membership } from '../support/tokens.ts';
import { MAX_DATABASE_COST, MAX_ROOT_FIELDS } from '../../../server/graphql/limits.ts';
import { STATEMENT_TIMEOUT_MS } from '../../../server/db/client.ts';

let foyer: TestFoyer;
let admin: Membership;
let viewer: Membership;
let ownerAtAcme: Membership;

beforeAll(async () => {
  foyer = await startFoyer();
  admin = await findMembership(foyer.db, 'admin@acme.demo.foyer.test', 'Acme');
  viewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
  ownerAtAcme = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
});
afterAll(() => foyer?.close());

const tokenFor = (membership: Membership, claims = {}) => mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth, claims });

async function ask(membership: Membership, query: string, variables?: Record<string, unknown>) {
  return postGraphQL(foyer.urls.api, { query, variables }, bearer(await tokenFor(membership)));
}

const TENANT_FIELDS = `id name locale logo plan createdAt federationConnection mfa onboarded trial
  paymentStatus { paymentsEnabled shouldSelectPlan shouldSetupPayments provider }`;

describe('reading', () => {
  it('getMe answers the caller as a member of the workspace', async () => {
    const answer = await ask(
      admin,
      `{ getMe { id email username firstName lastName fullName role createdAt lastSeen
      enabled onboarded consentsToPrivacyPolicy teams } }`,
    );
    expect(answer.status).toBe(200);
    const me = answer.body.data?.getMe as Record<string, unknown>;
    expect(me).toEqual({
      id: admin.tenantUserId,
      email: 'admin@acme.demo.foyer.test',
      username: 'admin@acme.demo.foyer.test',
      firstName: 'Adam',
      lastName: 'Admin',
      fullName: 'Adam Admin',
      role: 'ADMIN',
      createdAt: expect.any(String),
      lastSeen: null,
      enabled: true,
      onboarded: true,
      consentsToPrivacyPolicy: true,
      teams: [],
    });
    expect(Number.isNaN(Date.parse(me.createdAt as string))).toBe(false);
  });

  it("getTenant answers the token's workspace with its payment status", async () => {
    const answer = await ask(admin, `{ getTenant { ${TENANT_FIELDS} } }`);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.getTenant).toEqual({
      id: admin.tenantId,
      name: 'Acme',
      locale: 'en',
      logo: null,
      plan: 'FREEMIUM',
      createdAt: expect.any(String),
      federationConnection: null,
      mfa: false,
      onboarded: true,
      trial: false,
      paymentStatus: { paymentsEnabled: false, shouldSelectPlan: false, shouldSetupPayments: false, provider: 'TEST' },
    });
  });

  it('getTenant reports a trial while the subscription’s trial lasts', async () => {
    const inThreeDays = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
    await foyer.db
      .update(tenants)
      .set({ plan: 'TEAM', subscriptionStatus: 'trialing', trialEndsAt: inThreeDays })
      .where(eq(tenants.id, admin.tenantId));
    try {
      expect((await ask(admin, '{ getTenant { plan trial } }')).body.data?.getTenant).toEqual({ plan: 'TEAM', trial: true });
      await foyer.db
        .update(tenants)
        .set({ trialEndsAt: new Date(Date.now() - 1000) })
        .where(eq(tenants.id, admin.tenantId));
      expect((await ask(admin, '{ getTenant { trial } }')).body.data?.getTenant).toEqual({ trial: false });
    } finally {
      await foyer.db
        .update(tenants)
        .set({ plan: 'FREEMIUM', subscriptionStatus: 'none', trialEndsAt: null })
        .where(eq(tenants.id, admin.tenantId));
    }
  });

  it('getTenantAnonymous answers id, name and locale of the caller’s workspace', async () => {
    const answer = await ask(viewer, '{ getTenantAnonymous { id name locale } }');
    expect(answer.body.data?.getTenantAnonymous).toEqual({ id: viewer.tenantId, name: 'Globex', locale: 'en' });
  });

  it('listUserRoles answers the role keys', async () => {
    const answer = await ask(viewer, '{ listUserRoles }');
    expect(answer.body.data?.listUserRoles).toEqual(['OWNER', 'ADMIN', 'MANAGER', 'VIEWER']);
  });

  it("getAppAnonymous with a token answers the token's app", async () => {
    const answer = await ask(viewer, '{ getAppAnonymous { id name } }');
    expect(answer.body.data?.getAppAnonymous).toEqual({ id: foyer.demo.appId, name: 'Demo app' });
  });
});

describe('privileges', () => {
  const UPDATE_TENANT = 'mutation { updateTenant(tenant: { name: "Taken over" }) { id name } }';

  it('a VIEWER is FORBIDDEN (403) to update the workspace, before any resolver runs', async () => {
    const answer = await ask(viewer, UPDATE_TENANT);
    expect(answer.status).toBe(403);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ path: ['updateTenant'], extensions: { code: 'FORBIDDEN', response: { statusCode: 403 } } }),
    ]);
    const [tenant] = await foyer.db.select().from(tenants).where(eq(tenants.id, viewer.tenantId));
    expect(tenant?.name).toBe('Globex');
  });

  it('the payment fields answer (they were NOT_IMPLEMENTED before the payments capability)', async () => {
    const viewerAnswer = await ask(
      viewer,
      '{ getTenantPaymentDetails { details { trial } } getPaymentOptionsAnonymous { plans { key } } }',
    );
    expect(viewerAnswer.status).toBe(200);
    expect(viewerAnswer.body.data).toEqual({
      getTenantPaymentDetails: { details: { trial: false } },
      getPaymentOptionsAnonymous: { plans: [{ key: 'FREEMIUM' }, { key: 'ESSENTIAL' }, { key: 'TEAM' }] },
    });
  });

  it('one denied field stops the whole mutation', async () => {
    const answer = await ask(viewer, 'mutation { updateMe(user: { firstName: "V" }) { id } updateTenant(tenant: { name: "X" }) { id } }');
    expect(answer.body.data ?? null).toBeNull();
    expect(answer.body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([[['updateTenant'], 'FORBIDDEN']]);
  });

  it('variables that do not fit their types answer BAD_USER_INPUT (400)', async () => {
    const answer = await ask(ownerAtAcme, 'mutation ($tenant: TenantInput!) { updateTenant(tenant: $tenant) { id } }', {
      tenant: { mfa: 'sometimes' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', response: { statusCode: 400 } });
  });

  it("a token's narrower scope limits what its role would allow", async () => {
    const token = await tokenFor(admin, { scope: 'AUTHENTICATED' });
    const me = await postGraphQL(foyer.urls.api, { query: '{ getMe { role } }' }, bearer(token));
    expect(me.body.data?.getMe).toEqual({ role: 'ADMIN' });
    const tenant = await postGraphQL(foyer.urls.api, { query: '{ getTenant { id } }' }, bearer(token));
    expect(errorCodes(tenant)).toEqual(['FORBIDDEN']);
  });

  it('a role lowered after the token was issued counts at once', async () => {
    const token = await tokenFor(ownerAtAcme);
    await foyer.db.update(tenantUsers).set({ role: 'VIEWER' }).where(eq(tenantUsers.id, ownerAtAcme.tenantUserId));
    try {
      const update = await postGraphQL(foyer.urls.api, { query: UPDATE_TENANT }, bearer(token));
      expect(errorCodes(update)).toEqual(['FORBIDDEN']);
      const me = await postGraphQL(foyer.urls.api, { query: '{ getMe { role } }' }, bearer(token));
      expect(me.body.data?.getMe).toEqual({ role: 'VIEWER' });
    } finally {
      await foyer.db.update(tenantUsers).set({ role: 'OWNER' }).where(eq(tenantUsers.id, ownerAtAcme.tenantUserId));
    }
  });
});

describe('memberships that stop counting', () => {
  it("a disabled membership's token stops working, and works again once re-enabled", async () => {
    const token = await tokenFor(viewer);
    await foyer.db.update(tenantUsers).set({ enabled: false }).where(eq(tenantUsers.id, viewer.tenantUserId));
    try {
      const answer = await postGraphQL(foyer.urls.api, { query: '{ getMe { id } }' }, bearer(token));
      expect(answer.status).toBe(401);
      // Said apart from an invalid token, so the screens can tell the person why they were signed out.
      expect(errorCodes(answer)).toEqual(['MEMBERSHIP_ENDED']);
    } finally {
      await foyer.db.update(tenantUsers).set({ enabled: true }).where(eq(tenantUsers.id, viewer.tenantUserId));
    }
    const again = await postGraphQL(foyer.urls.api, { query: '{ getMe { id } }' }, bearer(token));
    expect(again.body.data?.getMe).toEqual({ id: viewer.tenantUserId });
  });

  it("a deleted membership's token stops working", async () => {
    const [user] = await foyer.db.select({ userId: tenantUsers.userId }).from(tenantUsers).where(eq(tenantUsers.id, admin.tenantUserId));
    const id = randomUUID();
    await foyer.db.insert(tenantUsers).values({ id, tenantId: viewer.tenantId, userId: user!.userId, role: 'MANAGER' });
    const manager: Membership = { ...admin, tenantUserId: id, tenantId: viewer.tenantId, role: 'MANAGER' };
    const token = await tokenFor(manager);
    const before = await postGraphQL(foyer.urls.api, { query: '{ getTenant { name } }' }, bearer(token));
    expect(before.body.data?.getTenant).toEqual({ name: 'Globex' });
    await foyer.db.delete(tenantUsers).where(eq(tenantUsers.id, id));
    const after = await postGraphQL(foyer.urls.api, { query: '{ getTenant { name } }' }, bearer(token));
    expect(after.status).toBe(401);
    expect(errorCodes(after)).toEqual(['MEMBERSHIP_ENDED']);
  });
});

describe('unexpected failures', () => {
  it('are masked: no SQL, no stack, status 500', async () => {
    await foyer.db.execute(sql`ALTER TABLE audit_events RENAME TO audit_events_away`);
    try {
      const response = await fetch(`${foyer.urls.api}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(await tokenFor(admin)) },
        body: JSON.stringify({ query: '{ myActivity { type } }' }),
      });
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(text).errors).toEqual([
        expect.objectContaining({
          message: 'Unexpected error.',
          extensions: { code: 'INTERNAL_SERVER_ERROR', response: { statusCode: 500 } },
        }),
      ]);
      expect(text).not.toMatch(/audit|relation|select|stack|\.ts:/i);
    } finally {
      await foyer.db.execute(sql`ALTER TABLE audit_events_away RENAME TO audit_events`);
    }
  });
});

describe('root fields per operation', () => {
  it(`refuses more than ${MAX_ROOT_FIELDS} root fields, by alias or through fragments, with 400 before any resolver runs`, async () => {
    const aliased = Array.from({ length: 570 }, (_, index) => `c${index}: countUsers(search: "a b")`).join(' ');
    const bomb = await ask(viewer, `{ ${aliased} }`);
    expect(bomb.status).toBe(400);
    expect(bomb.body.data ?? null).toBeNull();
    expect(errorCodes(bomb)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(bomb.body.errors?.[0]?.message).toBe(`At most ${MAX_ROOT_FIELDS} fields at the top of an operation; this one asks for 570`);

    const spread = Array.from({ length: MAX_ROOT_FIELDS + 1 }, (_, index) => `c${index}: countUsers`).join(' ');
    const hidden = await ask(viewer, `query { ...A ... on Query { ...A } } fragment A on Query { ${spread} }`);
    expect(hidden.status).toBe(400);
    expect(errorCodes(hidden)).toEqual(['GRAPHQL_VALIDATION_FAILED']);

    const allowed = Array.from({ length: MAX_ROOT_FIELDS }, (_, index) => `r${index}: listUserRoles`).join(' ');
    const answer = await ask(viewer, `{ ${allowed} }`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.data ?? {})).toHaveLength(MAX_ROOT_FIELDS);
  });
});

describe('database cost per operation', () => {
  const scan = (field: string) =>
    field === 'countUsers' ? 'countUsers(search: "a b")' : `${field}(search: "a b", limit: 100) { id email }`;

  it(`refuses (400) whole-workspace scans beyond ${MAX_DATABASE_COST} cost, however few root fields carry them`, async () => {
    const cases = [
      // Three scans: well under the root-field cap.
      `{ a: ${scan('countUsers')} b: ${scan('countUsers')} c: ${scan('listUsers')} }`,
      // Hidden in nested inline fragments and spreads of one fragment used twice.
      `{ ... on Query { ... on Query { a: ${scan('countUsers')} ... on Query { b: ${scan('listUsers')} } } } ...S ...S }
       fragment S on Query { s: ${scan('countUsers')} }`,
      // One operation of a document with several: the chosen one is measured, not only the first.
      `query Small { getMe { id } } query Big { a: ${scan('listUsers')} b: ${scan('listUsers')} c: ${scan('countUsers')} }`,
    ];
    for (const [index, query] of cases.entries()) {
      const answer = await postGraphQL(
        foyer.urls.api,
        { query, operationName: index === 2 ? 'Big' : undefined },
        bearer(await tokenFor(viewer)),
      );
      expect(answer.status, query).toBe(400);
      expect(answer.body.data ?? null).toBeNull();
      expect(errorCodes(answer)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(answer.body.errors?.[0]?.message).toMatch(new RegExp(`database cost of at most ${MAX_DATABASE_COST}`));
    }
  });

  it("answers the runtime's users page (a list, a count and the workspace) in one request", async () => {
    const answer = await ask(viewer, `{ ${scan('listUsers')} ${scan('countUsers')} getTenant { mfa } }`);
    expect(answer.status).toBe(200);
    expect(answer.body.data?.countUsers).toEqual(expect.any(Number));
  });

  it('20 concurrent requests of ten aliased counts are each refused', async () => {
    const bomb = `{ ${Array.from({ length: 10 }, (_, index) => `c${index}: ${scan('countUsers')}`).join(' ')} }`;
    const token = await tokenFor(viewer);
    const answers = await Promise.all(Array.from({ length: 20 }, () => postGraphQL(foyer.urls.api, { query: bomb }, bearer(token))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(400));
  });
});

describe.runIf(process.env[POSTGRES_ENV])('on PostgreSQL', () => {
  it('every connection has the statement timeout', async () => {
    const rows = await Promise.all(Array.from({ length: 12 }, () => foyer.db.execute(sql`show statement_timeout`)));
    for (const row of rows)
      expect(Array.from(row as unknown as Iterable<unknown>)).toEqual([{ statement_timeout: `${STATEMENT_TIMEOUT_MS / 1000}s` }]);
  });
});
