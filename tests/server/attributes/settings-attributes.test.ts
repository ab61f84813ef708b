// Collected attributes edited where a settings flow shows them (issue 15): the profile edits the
// person's values its steps collect (updateMe), the workspace settings the workspace's (updateTenant,
// OWNER and ADMIN only), each value checked with the same form and ajv as at collection. Hostile:
// a viewer editing workspace attributes, a name the flow does not collect (or collects elsewhere),
// invalid values; nothing is stored then.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents, tenants, users } from '../../../server/db/schema.ts';
import { bearer, postGraphQL, type GraphQLAnswer } from '../support/graphql.ts';
import { findMembership, mintAccessToken } from '../support/tokens.ts';
import { settingsAttributeFlows, type FlowsCopy } from '../support/company-size-flows.ts';

const UPDATE_ME = `mutation UpdateMe($user: MeInput!) { updateMe(user: $user) { id identityAttributes } }`;
const UPDATE_TENANT = `mutation UpdateTenant($tenant: TenantInput!) { updateTenant(tenant: $tenant) { id attributes } }`;
const UPDATE_ME_MEMBERSHIP = `mutation UpdateMe($user: MeInput!) { updateMe(user: $user) { id attributes } }`;
const GET_TENANT = `query GetTenant { getTenant { attributes } }`;

let copy: FlowsCopy;
let foyer: TestFoyer;

beforeAll(async () => {
  copy = settingsAttributeFlows();
  foyer = await startFoyer({ flowsDir: copy.flowsDir, formsDir: copy.formsDir });
});

afterAll(async () => {
  await foyer?.close();
  copy?.remove();
});

async function tokenOf(email: string, workspace: string): Promise<string> {
  return mintAccessToken(foyer.db, await findMembership(foyer.db, email, workspace), { issuer: foyer.urls.auth });
}

function call<Data = Record<string, unknown>>(token: string, query: string, variables: Record<string, unknown>, operationName: string) {
  return postGraphQL<Data>(foyer.urls.api, { query, variables, operationName }, bearer(token));
}

type ErrorAnswer = {
  errors?: { extensions?: { code?: string; fields?: Record<string, unknown>; fieldIssues?: Record<string, unknown[]> } }[];
};
const errorOf = (answer: GraphQLAnswer) => (answer.body as ErrorAnswer).errors?.[0]?.extensions;

const owner = () => foyer.demo.users[0]!.email;
const admin = () => 'admin@acme.demo.foyer.test';
const viewer = () => 'viewer@globex.demo.foyer.test';

async function storedUserAttributes(email: string) {
  const [row] = await foyer.db.select({ attributes: users.attributes }).from(users).where(eq(users.email, email));
  return row!.attributes;
}

async function storedTenantAttributes(name: string) {
  const [row] = await foyer.db.select({ attributes: tenants.attributes }).from(tenants).where(eq(tenants.name, name));
  return row!.attributes;
}

describe('attributes in the profile', () => {
  it("stores the person's value the profile flow collects, answers it, and removes it when blank", async () => {
    const token = await tokenOf(admin(), 'Acme');
    const saved = await call<{ updateMe: { identityAttributes: unknown } }>(
      token,
      UPDATE_ME,
      { user: { attributes: { jobTitle: 'CTO' } } },
      'UpdateMe',
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data?.updateMe.identityAttributes).toEqual({ jobTitle: 'CTO' });
    expect(await storedUserAttributes(admin())).toEqual({ jobTitle: 'CTO' });

    // Names only: the stored value stays when attributes are not given.
    await call(token, UPDATE_ME, { user: { firstName: 'Adam' } }, 'UpdateMe');
    expect(await storedUserAttributes(admin())).toEqual({ jobTitle: 'CTO' });

    const cleared = await call(token, UPDATE_ME, { user: { attributes: { jobTitle: '' } } }, 'UpdateMe');
    expect(cleared.status).toBe(200);
    expect(await storedUserAttributes(admin())).toEqual({});
  });

  it("stores the membership's value on its own, answers it, and records the change in the audit trail", async () => {
    const token = await tokenOf(admin(), 'Acme');
    const saved = await call<{ updateMe: { attributes: unknown } }>(
      token,
      UPDATE_ME_MEMBERSHIP,
      { user: { attributes: { team: 'Platform' } } },
      'UpdateMe',
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data?.updateMe.attributes).toEqual({ team: 'Platform' });
    const membership = await findMembership(foyer.db, admin(), 'Acme');
    const audited = await foyer.db
      .select({ detail: auditEvents.detail })
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'user.profile_updated'), eq(auditEvents.tenantUserId, membership.tenantUserId)));
    expect(audited.map((row) => row.detail)).toContainEqual(expect.objectContaining({ fields: ['membership.attributes'] }));
  });

  it.each([
    [
      'an invalid value',
      { jobTitle: 'x'.repeat(51) },
      'jobTitle',
      [{ code: 'maxLength', params: { limit: 50 }, message: 'At most 50 characters' }],
    ],
    ['a value of the wrong type', { jobTitle: 42 }, 'jobTitle', [{ code: 'type', params: { type: 'string' } }]],
    ['a name no flow collects', { salary: 1 }, 'attributes', [{ code: 'uncollectedField' }]],
    ["a workspace attribute (the workspace flow's)", { companySize: '1-10' }, 'attributes', [{ code: 'uncollectedField' }]],
  ])('refuses %s with a field error and stores nothing', async (_case, attributes, field, issues) => {
    const token = await tokenOf(owner(), 'Acme');
    const before = await storedUserAttributes(owner());
    const answer = await call(token, UPDATE_ME, { user: { firstName: 'Changed', attributes } }, 'UpdateMe');
    expect(answer.status).toBe(400);
    expect(errorOf(answer)?.code).toBe('BAD_USER_INPUT');
    expect(errorOf(answer)?.fieldIssues).toMatchObject({ [field]: issues });
    expect(await storedUserAttributes(owner())).toEqual(before);
    const [row] = await foyer.db.select({ firstName: users.firstName }).from(users).where(eq(users.email, owner()));
    expect(row!.firstName).not.toBe('Changed');
  });
});

describe('attributes in the workspace settings', () => {
  it("stores the workspace's value for an ADMIN, answers it through getTenant, checks it with the form, and removes it when blank", async () => {
    const token = await tokenOf(admin(), 'Acme');
    const saved = await call<{ updateTenant: { attributes: unknown } }>(
      token,
      UPDATE_TENANT,
      { tenant: { attributes: { companySize: '51-200' } } },
      'UpdateTenant',
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data?.updateTenant.attributes).toMatchObject({ companySize: '51-200' });
    const read = await call<{ getTenant: { attributes: unknown } }>(token, GET_TENANT, {}, 'GetTenant');
    expect(read.body.data?.getTenant.attributes).toMatchObject({ companySize: '51-200' });

    const invalid = await call(token, UPDATE_TENANT, { tenant: { attributes: { companySize: '5000+' } } }, 'UpdateTenant');
    expect(invalid.status).toBe(400);
    expect(errorOf(invalid)?.fieldIssues).toMatchObject({
      companySize: [{ code: 'enum', params: { allowedValues: ['1-10', '11-50', '51-200', '200+'] } }],
    });
    const personal = await call(token, UPDATE_TENANT, { tenant: { attributes: { jobTitle: 'CTO' } } }, 'UpdateTenant');
    expect(errorOf(personal)?.fieldIssues).toMatchObject({ attributes: [{ code: 'uncollectedField' }] });
    expect(await storedTenantAttributes('Acme')).toMatchObject({ companySize: '51-200' });
    expect(await storedTenantAttributes('Acme')).not.toHaveProperty('jobTitle');

    const cleared = await call(token, UPDATE_TENANT, { tenant: { attributes: { companySize: '' } } }, 'UpdateTenant');
    expect(cleared.status).toBe(200);
    expect(await storedTenantAttributes('Acme')).not.toHaveProperty('companySize');
  });

  it("refuses a VIEWER's edit of the workspace's attributes (403) and stores nothing", async () => {
    const before = await storedTenantAttributes('Globex');
    const token = await tokenOf(viewer(), 'Globex');
    const answer = await call(token, UPDATE_TENANT, { tenant: { attributes: { companySize: '1-10' } } }, 'UpdateTenant');
    expect(answer.status).toBe(403);
    expect(errorOf(answer)?.code).toBe('FORBIDDEN');
    expect(await storedTenantAttributes('Globex')).toEqual(before);
  });
});
