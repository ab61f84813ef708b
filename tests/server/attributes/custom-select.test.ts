// Custom signup fields of the select type, and custom fields stored on the person or the workspace:
// the config document accepts choices only on a select, signup refuses a value outside the choices
// with a field error and stores each value where its field says (the flow's attributes columns).
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { checkAppConfig } from '../../../server/admin/validation.ts';
import { AdminError } from '../../../server/admin/errors.ts';
import type { CustomSignupField } from '../../../common/app-config.ts';
import { postGraphQL, type GraphQLAnswer } from '../support/graphql.ts';

const FIELDS: CustomSignupField[] = [
  {
    label: 'size',
    type: 'select',
    userLabel: 'Company size',
    required: true,
    target: 'tenant',
    options: [
      { value: '1-10', label: '1 to 10' },
      { value: '200+', label: 'More than 200' },
    ],
  },
  { label: 'title', type: 'text', userLabel: 'Job title', target: 'user' },
  { label: 'team', type: 'select', userLabel: 'Team', options: [{ value: 'sales', label: 'Sales' }] },
];

let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer();
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({ settings: { ...app!.settings, customSignupFields: FIELDS } })
    .where(eq(apps.id, foyer.demo.appId));
});

afterAll(async () => {
  await foyer?.close();
});

function signup(email: string, customParams: { label: string; value: string }[]) {
  return postGraphQL<{ createTenantAnonymous: { id: string } }>(
    foyer.urls.api,
    {
      query: 'mutation S($tenant: CreateTenantInput!) { createTenantAnonymous(tenant: $tenant) { id } }',
      variables: { tenant: { owner: { email, password: 'Correct-horse-42', customParams } } },
    },
    { 'x-app-id': foyer.demo.appId },
  );
}

const fieldsOf = (answer: GraphQLAnswer) =>
  (answer.body.errors?.[0]?.extensions as { fields?: Record<string, unknown> } | undefined)?.fields;

describe('custom select fields and targets', () => {
  it('offers the choices through getTenantUserCustomParamsConfigAnonymous', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getTenantUserCustomParamsConfigAnonymous { params { label type options { value label } } } }' },
      { 'x-app-id': foyer.demo.appId },
    );
    expect(answer.body.data).toEqual({
      getTenantUserCustomParamsConfigAnonymous: {
        params: [
          { label: 'size', type: 'select', options: FIELDS[0]!.options },
          { label: 'title', type: 'text', options: [] },
          { label: 'team', type: 'select', options: FIELDS[2]!.options },
        ],
      },
    });
  });

  it('stores each value where its field says', async () => {
    const email = `select-${randomUUID()}@example.com`;
    const answer = await signup(email, [
      { label: 'size', value: '200+' },
      { label: 'title', value: 'CTO' },
      { label: 'team', value: 'sales' },
    ]);
    expect(answer.status).toBe(200);
    const [stored] = await foyer.db
      .select({ tenant: tenants.attributes, custom: tenantUsers.customParams, user: users.attributes })
      .from(tenants)
      .innerJoin(tenantUsers, eq(tenantUsers.tenantId, tenants.id))
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(eq(tenants.id, answer.body.data!.createTenantAnonymous.id));
    expect(stored).toEqual({ tenant: { size: '200+' }, custom: { team: 'sales' }, user: { title: 'CTO' } });
  });

  it('refuses a value outside the choices with a field error, and stores nothing', async () => {
    const email = `select-${randomUUID()}@example.com`;
    const answer = await signup(email, [
      { label: 'size', value: '5000+' },
      { label: 'team', value: 'Sales' },
    ]);
    expect(answer.status).toBe(400);
    expect(fieldsOf(answer)).toEqual({ size: 'Choose one of the options', team: 'Choose one of the options' });
    const [identities] = await foyer.db.select({ total: count() }).from(users).where(eq(users.email, email));
    expect(identities!.total).toBe(0);
  });

  it('accepts choices only on a select field, and one choice at least', () => {
    const problemsOf = (field: object) => {
      try {
        checkAppConfig({ customSignupFields: [field] }, foyer.demo.appId, foyer.urls.api);
        return [];
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        // Only the signup fields' problems: the rest of this bare document is not what is tested.
        return (error.details ?? []).map((detail) => detail.path).filter((path) => path.startsWith('/customSignupFields'));
      }
    };
    expect(problemsOf(FIELDS[0]!)).toEqual([]);
    expect(problemsOf({ label: 'size', type: 'select', userLabel: 'Size' })).toContain('/customSignupFields/0');
    expect(problemsOf({ label: 'size', type: 'select', userLabel: 'Size', options: [] })).toContain('/customSignupFields/0/options');
    expect(problemsOf({ label: 'size', type: 'text', userLabel: 'Size', options: [{ value: 'a', label: 'A' }] })).toContain(
      '/customSignupFields/0',
    );
    expect(problemsOf({ label: 'size', type: 'select', userLabel: 'Size', options: [{ value: 'a.b', label: 'A' }] })).toContain(
      '/customSignupFields/0/options/0/value',
    );
    expect(problemsOf({ label: 'size', type: 'text', userLabel: 'Size', target: 'somewhere' })).toContain('/customSignupFields/0/target');
  });
});
