// Values a flow collects (a step's `collect`), end to end on the server: signup checks them with the
// collecting step's form and stores each where the flow says; the owner reads them back through
// GraphQL, and nobody else reads the person's own. Hostile values are refused with a field error and
// nothing is stored. The flows are a copy with the Company size step (support/company-size-flows.ts).
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { loadAttributeCatalog } from '../../../server/graphql/attributes/catalog.ts';
import { checkAttributes } from '../../../server/graphql/attributes/check.ts';
import { InputProblems } from '../../../server/graphql/input.ts';
import { checkFlows } from '../../../scripts/flows-check.ts';
import { bearer, postGraphQL, type GraphQLAnswer } from '../support/graphql.ts';
import { findMembership, mintAccessToken } from '../support/tokens.ts';
import { companySizeFlows, type FlowsCopy } from '../support/company-size-flows.ts';

const SIGNUP = `mutation CreateTenantAnonymous($tenant: CreateTenantInput!) {
  createTenantAnonymous(tenant: $tenant) { id }
}`;

let copy: FlowsCopy;
let foyer: TestFoyer;

beforeAll(async () => {
  copy = companySizeFlows({ alsoCollect: true });
  foyer = await startFoyer({ flowsDir: copy.flowsDir, formsDir: copy.formsDir });
});

afterAll(async () => {
  await foyer?.close();
  copy?.remove();
});

const uniqueEmail = () => `attributes-${randomUUID()}@example.com`;

function signup(email: string, attributes: unknown) {
  return postGraphQL<{ createTenantAnonymous: { id: string } }>(
    foyer.urls.api,
    {
      query: SIGNUP,
      variables: { tenant: { owner: { email, password: 'Correct-horse-42' }, attributes } },
      operationName: 'CreateTenantAnonymous',
    },
    { 'x-app-id': foyer.demo.appId },
  );
}

type FieldErrorAnswer = {
  errors?: { extensions?: { code?: string; fields?: Record<string, string | string[]>; fieldIssues?: Record<string, unknown[]> } }[];
};
const errorOf = (answer: GraphQLAnswer) => (answer.body as FieldErrorAnswer).errors?.[0]?.extensions;

async function identityCount(email: string): Promise<number> {
  const [row] = await foyer.db.select({ total: count() }).from(users).where(eq(users.email, email));
  return row!.total;
}

async function tenantCount(): Promise<number> {
  const [row] = await foyer.db.select({ total: count() }).from(tenants);
  return row!.total;
}

/** An access token of the new owner, as if the mailed link had been used. */
async function ownerToken(email: string): Promise<string> {
  await foyer.db
    .update(tenantUsers)
    .set({ enabled: true })
    .where(eq(tenantUsers.userId, foyer.db.select({ id: users.id }).from(users).where(eq(users.email, email))));
  return mintAccessToken(foyer.db, await findMembership(foyer.db, email, ''), { issuer: foyer.urls.auth });
}

describe('flow-declared attributes', () => {
  it('passes flows:check with the Company size edit', () => {
    const { problems } = checkFlows({
      flowsDir: copy.flowsDir,
      formsDir: copy.formsDir,
      translationsFile: `${copy.localesDir}/en.json`,
    });
    expect(problems).toEqual([]);
  });

  it('stores each value where the flow says, and the owner reads them back through GraphQL', async () => {
    const email = uniqueEmail();
    const answer = await signup(email, { companySize: '11-50', jobTitle: 'CTO', team: 'sales' });
    expect(answer.status).toBe(200);
    const tenantId = answer.body.data!.createTenantAnonymous.id;

    const [stored] = await foyer.db
      .select({ tenant: tenants.attributes, membership: tenantUsers.attributes, user: users.attributes })
      .from(tenants)
      .innerJoin(tenantUsers, eq(tenantUsers.tenantId, tenants.id))
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(eq(tenants.id, tenantId));
    expect(stored).toEqual({ tenant: { companySize: '11-50' }, membership: { team: 'sales' }, user: { jobTitle: 'CTO' } });

    const token = await ownerToken(email);
    const read = await postGraphQL(
      foyer.urls.api,
      { query: '{ getTenant { attributes } getMe { attributes identityAttributes } listUsers { email attributes identityAttributes } }' },
      bearer(token),
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data).toEqual({
      getTenant: { attributes: { companySize: '11-50' } },
      getMe: { attributes: { team: 'sales' }, identityAttributes: { jobTitle: 'CTO' } },
      listUsers: [{ email, attributes: { team: 'sales' }, identityAttributes: { jobTitle: 'CTO' } }],
    });
  });

  it("shows another workspace only its own attributes, and never the person's", async () => {
    const email = uniqueEmail();
    expect((await signup(email, { companySize: '200+', jobTitle: 'Founder', team: 'engineering' })).status).toBe(200);
    await ownerToken(email);
    // The demo owner of Acme: a member of another workspace of the same app.
    const acme = await findMembership(foyer.db, foyer.demo.users[0]!.email, 'Acme');
    const token = await mintAccessToken(foyer.db, acme, { issuer: foyer.urls.auth });
    const read = await postGraphQL<{
      getTenant: unknown;
      listUsers: { email: string; attributes: unknown; identityAttributes: unknown }[];
    }>(foyer.urls.api, { query: '{ getTenant { attributes } listUsers { email attributes identityAttributes } }' }, bearer(token));
    expect(read.body.data!.getTenant).toEqual({ attributes: {} });
    expect(read.body.data!.listUsers.map((user) => user.email)).not.toContain(email);
    const others = read.body.data!.listUsers.filter((user) => user.email !== acme.email);
    expect(others.length).toBeGreaterThan(0);
    for (const user of others) expect(user.identityAttributes).toBeNull();
  });

  it.each([
    [
      'a value outside the options',
      { companySize: '5000+' },
      'companySize',
      ['Choose one of the options'],
      [{ code: 'enum', params: { allowedValues: ['1-10', '11-50', '51-200', '200+'] } }],
    ],
    [
      'a value of the wrong type',
      { companySize: 12 },
      'companySize',
      ['The value has the wrong type', 'Choose one of the options'],
      [{ code: 'type', params: { type: 'string' } }, { code: 'enum' }],
    ],
    ['a missing required value', { jobTitle: 'CTO' }, 'companySize', 'This field is required', [{ code: 'required', params: {} }]],
    [
      'a value over its maximum length',
      { companySize: '1-10', jobTitle: 'x'.repeat(51) },
      'jobTitle',
      ['At most 50 characters'],
      [{ code: 'maxLength', params: { limit: 50 } }],
    ],
    [
      'a field the flow does not collect',
      { companySize: '1-10', plan: 'ENTERPRISE' },
      'attributes',
      'A value names a field this flow does not collect',
      [{ code: 'uncollectedField', params: {} }],
    ],
  ])('refuses %s with a field error (its code and values too) and stores nothing', async (_case, attributes, field, message, issues) => {
    const email = uniqueEmail();
    const tenantsBefore = await tenantCount();
    const answer = await signup(email, attributes);
    expect(answer.status).toBe(400);
    expect(errorOf(answer)?.code).toBe('BAD_USER_INPUT');
    expect(errorOf(answer)?.fields).toEqual({ [field]: message });
    expect(errorOf(answer)?.fieldIssues).toMatchObject({ [field]: issues });
    expect(await identityCount(email)).toBe(0);
    expect(await tenantCount()).toBe(tenantsBefore);
  });

  it('refuses attributes that are not a JSON object before anything runs', async () => {
    for (const attributes of [['1-10'], 'companySize=1-10', 42]) {
      const email = uniqueEmail();
      const answer = await signup(email, attributes);
      expect(answer.status).toBe(400);
      expect(errorOf(answer)?.code).toBe('BAD_USER_INPUT');
      expect(await identityCount(email)).toBe(0);
    }
  });

  it('accepts no attributes from the shipped flows, which collect none', () => {
    const catalog = loadAttributeCatalog('flows', 'schema/forms');
    const problems = new InputProblems();
    expect(checkAttributes(catalog, 'signup', {}, problems)).toEqual({ user: {}, membership: {}, tenant: {} });
    expect(problems.fields).toEqual({});
    checkAttributes(catalog, 'signup', { companySize: '1-10' }, problems);
    expect({ ...problems.fields }).toEqual({
      attributes: { code: 'uncollectedField', params: {}, message: 'A value names a field this flow does not collect' },
    });
  });

  it('refuses to start from a flow that collects a field its form does not define', () => {
    const broken = companySizeFlows();
    try {
      const file = `${broken.formsDir}/company-size.json`;
      const form = JSON.parse(readFileSync(file, 'utf8')) as { schema: { properties: Record<string, unknown> } };
      delete form.schema.properties.companySize;
      writeFileSync(file, JSON.stringify(form));
      expect(() => loadAttributeCatalog(broken.flowsDir, broken.formsDir)).toThrow(
        'signup.json step COMPANY collects companySize, which its form company-size does not define',
      );
    } finally {
      broken.remove();
    }
  });
});
