// Self-signup through createTenantAnonymous: what a visitor creates, what the server refuses (and
// then writes nothing), that a known e-mail gets the same answer without its identity changing, and
// the per-address limit.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import type { Database } from '../../../server/db/client.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import { apps, auditEvents, outbox, tenants, tenantUsers, users, userTokens } from '../../../server/db/schema.ts';
import { findLiveToken } from '../../../server/auth/tokens/service.ts';
import { verifyPassword } from '../../../server/auth/passwords.ts';
import { SIGNUP_LIMIT } from '../../../server/graphql/signup/throttle.ts';

const SIGNUPS_PER_WINDOW = SIGNUP_LIMIT.max;
import { passwordProblemTexts } from '../../../common/password-policy.ts';
import { bearer, errorCodes, postGraphQL, type GraphQLAnswer } from '../support/graphql.ts';
import { mintAccessToken } from '../support/tokens.ts';
import { Browser } from '../oidc/browser.ts';
import { call } from '../password/helpers.ts';
import { insertApp } from '../support/apps.ts';

const SIGNUP = `mutation CreateTenantAnonymous($tenant: CreateTenantInput!) {
  createTenantAnonymous(tenant: $tenant) {
    id name locale logo plan mfa createdAt onboarded trial
    paymentStatus { shouldSelectPlan shouldSetupPayments paymentsEnabled provider }
  }
}`;

const STRONG_PASSWORD = 'Correct-horse-42';

const CUSTOM_FIELDS: AppSettings['customSignupFields'] = [
  { label: 'orgNumber', type: 'regex', userLabel: 'Organisation number', regex: '\\d{6}-\\d{4}' },
  { label: 'employees', type: 'integer', userLabel: 'Employees' },
  { label: 'phone', type: 'phone', userLabel: 'Phone' },
  { label: 'billingEmail', type: 'email', userLabel: 'Billing e-mail' },
  { label: 'newsletter', type: 'boolean', userLabel: 'Send me news' },
];

let foyer: TestFoyer;
let originalSettings: AppSettings;

type Owner = { email: string; firstName?: string; lastName?: string; password?: string; customParams?: { label: string; value: string }[] };
type SignupInput = { owner: Owner; name?: string; logo?: string | null; plan?: string; priceOffer?: Record<string, string> };

type SignedUpTenant = Record<string, unknown> & { id: string };

const uniqueEmail = () => `signup-${randomUUID()}@example.com`;

function signup(tenant: SignupInput, headers: Record<string, string> = {}, target: TestFoyer = foyer) {
  return postGraphQL<{ createTenantAnonymous: SignedUpTenant }>(
    target.urls.api,
    { query: SIGNUP, variables: { tenant }, operationName: 'CreateTenantAnonymous' },
    { 'x-app-id': target.demo.appId, ...headers },
  );
}

type FieldErrorAnswer = { errors?: { extensions?: { code?: string; fields?: Record<string, string | string[]> } }[] };
const fieldsOf = (answer: GraphQLAnswer) => (answer.body as FieldErrorAnswer).errors?.[0]?.extensions?.fields;

async function setSettings(change: Partial<AppSettings>) {
  await foyer.db
    .update(apps)
    .set({ settings: { ...originalSettings, ...change } })
    .where(eq(apps.id, foyer.demo.appId));
}

/** Rows of every table a signup writes to, so a refusal can be shown to write nothing. */
async function rowCounts(db: Database) {
  const total = async (table: typeof users | typeof tenants | typeof tenantUsers | typeof userTokens | typeof outbox) =>
    (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    users: await total(users),
    tenants: await total(tenants),
    tenantUsers: await total(tenantUsers),
    userTokens: await total(userTokens),
    outbox: await total(outbox),
  };
}

async function latestMailTo(db: Database, recipient: string) {
  const [mail] = await db.select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(desc(outbox.createdAt)).limit(1);
  return mail;
}

function linkTokenOf(text: string, uiUrl: string): string {
  const match = new RegExp(`${uiUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/auth/set-password/([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no set-password link in: ${text}`);
  return match[1]!;
}

async function membershipOf(tenantId: string) {
  const [row] = await foyer.db
    .select({ membership: tenantUsers, user: users })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(eq(tenantUsers.tenantId, tenantId));
  return row!;
}

beforeAll(async () => {
  foyer = await startFoyer();
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  originalSettings = { ...app!.settings, customSignupFields: CUSTOM_FIELDS };
  await setSettings({});
});
afterAll(() => foyer?.close());

// Every test signs up from the same loopback address; each starts with that address's allowance.
beforeEach(async () => {
  await foyer.db.delete(auditEvents).where(eq(auditEvents.type, 'tenant.signup'));
  await setSettings({});
});

describe('a new e-mail', () => {
  it('creates the user, a workspace waiting for the checkout of the chosen paid plan, a disabled OWNER membership, a signup token and the mail', async () => {
    const email = uniqueEmail();
    const answer = await signup({
      owner: {
        email: `  ${email.toUpperCase()} `,
        firstName: ' Ada ',
        lastName: 'Lovelace',
        password: STRONG_PASSWORD,
        customParams: [
          { label: 'orgNumber', value: '556677-8899' },
          { label: 'employees', value: '12' },
          { label: 'phone', value: '+46 70 123 45 67' },
          { label: 'newsletter', value: 'true' },
        ],
      },
      name: '',
      plan: 'ESSENTIAL',
      priceOffer: { currency: 'USD', recurrenceInterval: 'month' },
    });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.status).toBe(200);
    const created = answer.body.data!.createTenantAnonymous;
    expect(created).toEqual({
      id: expect.any(String),
      name: '',
      locale: 'en',
      logo: null,
      // A paid plan is the workspace's only once the provider says the checkout went through.
      plan: null,
      mfa: false,
      createdAt: expect.any(String),
      onboarded: false,
      trial: false,
      paymentStatus: { shouldSelectPlan: false, shouldSetupPayments: true, paymentsEnabled: false, provider: 'TEST' },
    });

    const [tenant] = await foyer.db.select().from(tenants).where(eq(tenants.id, created.id));
    expect(tenant).toMatchObject({
      appId: foyer.demo.appId,
      plan: null,
      pendingPlan: 'ESSENTIAL',
      pendingCurrency: 'USD',
      pendingInterval: 'month',
      onboarded: false,
    });

    const { membership, user } = await membershipOf(created.id);
    // Custom values belong to the membership that collected them, not to the identity other workspaces share.
    expect(membership).toMatchObject({
      role: 'OWNER',
      enabled: false,
      onboarded: false,
      customParams: { orgNumber: '556677-8899', employees: '12', phone: '+46 70 123 45 67', newsletter: 'true' },
    });
    expect(user).toMatchObject({
      appId: foyer.demo.appId,
      email: email.toUpperCase(),
      firstName: 'Ada',
      lastName: 'Lovelace',
      passwordHash: null,
      onboarded: false,
    });

    const mail = await latestMailTo(foyer.db, email.toUpperCase());
    expect(mail?.kind).toBe('signup');
    expect(mail!.text).toContain('The link works once and expires in 7 days.');
    const token = await findLiveToken(foyer.db, linkTokenOf(mail!.text, foyer.urls.ui), ['signup']);
    expect(token).toMatchObject({ userId: user.id, tenantUserId: membership.id, purpose: 'signup' });
    expect(await verifyPassword(token!.pendingPasswordHash!, STRONG_PASSWORD)).toBe(true);
  });

  it('cannot use the workspace before the link is used: a token for the membership is refused', async () => {
    const created = (await signup({ owner: { email: uniqueEmail() } })).body.data!.createTenantAnonymous;
    const { membership, user } = await membershipOf(created.id);
    const token = await mintAccessToken(
      foyer.db,
      { tenantUserId: membership.id, tenantId: created.id, appId: foyer.demo.appId, role: 'OWNER', email: user.email, plan: null },
      { issuer: foyer.urls.auth },
    );
    const answer = await postGraphQL(foyer.urls.api, { query: '{ getTenant { id } }' }, bearer(token));
    expect(answer.status).toBe(401);
  });

  it('without a plan, the workspace should select one (the app has plans), and no pending password without one', async () => {
    const email = uniqueEmail();
    const answer = await signup({ owner: { email }, name: '  Initech  ' });
    const created = answer.body.data!.createTenantAnonymous;
    expect(created).toMatchObject({ name: 'Initech', plan: null, paymentStatus: { shouldSelectPlan: true } });
    const mail = await latestMailTo(foyer.db, email);
    const token = await findLiveToken(foyer.db, linkTokenOf(mail!.text, foyer.urls.ui), ['signup']);
    expect(token?.pendingPasswordHash).toBeNull();
  });

  it('an app without plans: nothing to select', async () => {
    await setSettings({ payments: { plans: [] } });
    const answer = await signup({ owner: { email: uniqueEmail() } });
    expect(answer.body.data?.createTenantAnonymous.paymentStatus).toMatchObject({ shouldSelectPlan: false });
  });

  it('a free price is the plan at once', async () => {
    const answer = await signup({
      owner: { email: uniqueEmail() },
      plan: 'FREEMIUM',
      priceOffer: { currency: 'eur', recurrenceInterval: 'year' },
    });
    const created = answer.body.data!.createTenantAnonymous;
    expect(created).toMatchObject({ plan: 'FREEMIUM', paymentStatus: { shouldSelectPlan: false, shouldSetupPayments: false } });
    const [tenant] = await foyer.db.select().from(tenants).where(eq(tenants.id, created.id));
    expect(tenant).toMatchObject({ plan: 'FREEMIUM', planCurrency: 'EUR', planInterval: 'year', pendingPlan: null });
  });

  it('a plan named without a price, of several prices: the owner picks one on the plan page', async () => {
    const answer = await signup({ owner: { email: uniqueEmail() }, plan: 'TEAM' });
    expect(answer.body.data!.createTenantAnonymous).toMatchObject({
      plan: null,
      paymentStatus: { shouldSelectPlan: true, shouldSetupPayments: false },
    });
  });
});

describe('refusals write nothing', () => {
  async function expectRefused(tenant: SignupInput, status: number, code: string) {
    const before = await rowCounts(foyer.db);
    const answer = await signup(tenant);
    expect(answer.status).toBe(status);
    expect(answer.body.data ?? null).toBeNull();
    expect(errorCodes(answer)).toEqual([code]);
    expect(await rowCounts(foyer.db)).toEqual(before);
    return answer;
  }

  it('self-signup off: 403 SELF_SIGNUP_DISABLED', async () => {
    await setSettings({ tenantSelfSignup: false });
    await expectRefused({ owner: { email: uniqueEmail(), password: STRONG_PASSWORD } }, 403, 'SELF_SIGNUP_DISABLED');
  });

  it('a logo that is not an upload of the app (a tracking address would reach every token): 400 with fields.logo', async () => {
    const answer = await expectRefused(
      { owner: { email: uniqueEmail(), password: STRONG_PASSWORD }, logo: 'https://tracker.example/pixel.png?who=signup' },
      400,
      'BAD_USER_INPUT',
    );
    expect(Object.keys(fieldsOf(answer) ?? {})).toEqual(['logo']);
  });

  it('a plan key the app does not have: 400 with fields.plan', async () => {
    const answer = await expectRefused({ owner: { email: uniqueEmail() }, plan: 'PLATINUM' }, 400, 'BAD_USER_INPUT');
    expect(fieldsOf(answer)).toEqual({ plan: expect.any(String) });
  });

  it("another app's plan key: 400", async () => {
    await insertApp(foyer, {
      settings: {
        payments: {
          plans: [{ key: 'ENTERPRISE', name: 'Enterprise', prices: [{ amount: 0, currency: 'USD', recurrenceInterval: 'month' }] }],
        },
      },
    });
    const answer = await expectRefused({ owner: { email: uniqueEmail() }, plan: 'ENTERPRISE' }, 400, 'BAD_USER_INPUT');
    expect(fieldsOf(answer)).toEqual({ plan: expect.any(String) });
  });

  it.each([
    ['a currency the plan has no price in', { currency: 'JPY', recurrenceInterval: 'month' }],
    ['an interval the plan has no price for', { currency: 'USD', recurrenceInterval: 'week' }],
  ])('%s: 400 with fields.priceOffer', async (_label, priceOffer) => {
    const answer = await expectRefused({ owner: { email: uniqueEmail() }, plan: 'ESSENTIAL', priceOffer }, 400, 'BAD_USER_INPUT');
    expect(fieldsOf(answer)).toEqual({ priceOffer: expect.any(String) });
  });

  it('a price offer without a plan: 400', async () => {
    const answer = await expectRefused(
      { owner: { email: uniqueEmail() }, priceOffer: { currency: 'USD', recurrenceInterval: 'month' } },
      400,
      'BAD_USER_INPUT',
    );
    expect(fieldsOf(answer)).toEqual({ priceOffer: expect.any(String) });
  });

  it('a price offer with only a currency is not a price offer: 400', async () => {
    await expectRefused({ owner: { email: uniqueEmail() }, plan: 'ESSENTIAL', priceOffer: { currency: 'USD' } }, 400, 'BAD_USER_INPUT');
  });

  it.each([
    ['orgNumber', '5566778899', 'regex'],
    ['orgNumber', '556677-8899 and more', 'regex (whole value)'],
    ['employees', '12.5', 'integer'],
    ['phone', '070-123 45 67', 'phone without country code'],
    ['billingEmail', 'billing at example.com', 'email'],
    ['newsletter', 'yes', 'boolean'],
  ])('custom field %s = %j (%s): 400 with fields[label]', async (label, value) => {
    const answer = await expectRefused({ owner: { email: uniqueEmail(), customParams: [{ label, value }] } }, 400, 'BAD_USER_INPUT');
    expect(fieldsOf(answer)).toEqual({ [label]: expect.any(String) });
  });

  it('a required custom field left out: 400 with fields[label]', async () => {
    await setSettings({ customSignupFields: [{ label: 'orgNumber', type: 'text', userLabel: 'Org', required: true }] });
    const answer = await expectRefused({ owner: { email: uniqueEmail() } }, 400, 'BAD_USER_INPUT');
    expect(fieldsOf(answer)).toEqual({ orgNumber: 'This field is required' });
  });

  it('a value for a field the form does not have: 400', async () => {
    const answer = await expectRefused(
      { owner: { email: uniqueEmail(), customParams: [{ label: '__proto__', value: 'x' }] } },
      400,
      'BAD_USER_INPUT',
    );
    expect(fieldsOf(answer)).toEqual({ customParams: expect.any(String) });
  });

  it('a weak password: 400 with the policy’s texts in fields.password', async () => {
    const answer = await expectRefused({ owner: { email: uniqueEmail(), password: 'short' } }, 400, 'BAD_USER_INPUT');
    expect(fieldsOf(answer)).toEqual({
      password: [
        passwordProblemTexts['password.policy.minLength'],
        passwordProblemTexts['password.policy.uppercase'],
        passwordProblemTexts['password.policy.digit'],
        passwordProblemTexts['password.policy.special'],
      ],
    });
  });

  it("a password not matching the app's complexity regex: 'The password must be hard to guess!'", async () => {
    await setSettings({ passwordPolicy: { complexityRegex: '.{20,}' } });
    const answer = await expectRefused({ owner: { email: uniqueEmail(), password: STRONG_PASSWORD } }, 400, 'BAD_USER_INPUT');
    expect(fieldsOf(answer)).toEqual({ password: ['The password must be hard to guess!'] });
  });

  it('an owner pattern with nested quantifiers, on a 1,000-character password and custom value (RE2: linear time)', async () => {
    // A backtracking engine takes 2^1000 steps here and never answers; RE2 answers at once.
    const redos = '(a+)+b';
    await setSettings({
      passwordPolicy: { complexityRegex: redos },
      customSignupFields: [{ label: 'code', type: 'regex', userLabel: 'Code', regex: redos }],
    });
    const long = 'a'.repeat(1000);
    const answer = await expectRefused(
      { owner: { email: uniqueEmail(), password: long, customParams: [{ label: 'code', value: long }] } },
      400,
      'BAD_USER_INPUT',
    );
    expect(fieldsOf(answer)).toEqual({
      password: ['The password must be hard to guess!'],
      code: 'The value does not have the expected format',
    });
  });

  it('an empty password, even with the checks off', async () => {
    await setSettings({ passwordPolicy: { enabled: false } });
    const answer = await expectRefused({ owner: { email: uniqueEmail(), password: '' } }, 400, 'BAD_USER_INPUT');
    expect(fieldsOf(answer)).toEqual({ password: ['Password field can not be empty.'] });
  });

  it('every problem at once, each under its field', async () => {
    const answer = await expectRefused(
      {
        owner: {
          email: 'not an address',
          firstName: 'x'.repeat(101),
          password: 'short',
          customParams: [{ label: 'employees', value: 'many' }],
        },
        name: 'y'.repeat(101),
        logo: 'javascript:alert(1)',
        plan: 'PLATINUM',
      },
      400,
      'BAD_USER_INPUT',
    );
    expect(Object.keys(fieldsOf(answer) ?? {}).sort()).toEqual(['email', 'employees', 'firstName', 'logo', 'name', 'password', 'plan']);
  });

  it('a mail that cannot be sent takes the signup back: 503, nothing kept', async () => {
    const before = await rowCounts(foyer.db);
    await foyer.db.execute(sql`ALTER TABLE outbox RENAME TO outbox_away`);
    try {
      const answer = await signup({ owner: { email: uniqueEmail(), password: STRONG_PASSWORD } });
      expect(answer.status).toBe(503);
      expect(errorCodes(answer)).toEqual(['SERVICE_UNAVAILABLE']);
    } finally {
      await foyer.db.execute(sql`ALTER TABLE outbox_away RENAME TO outbox`);
    }
    expect(await rowCounts(foyer.db)).toEqual(before);
  });
});

describe('an e-mail that already has an identity', () => {
  const KNOWN = 'owner@demo.foyer.test';

  it('gets the same answer, a disabled OWNER membership in a new workspace, and the signup-existing mail; the identity is untouched', async () => {
    const [before] = await foyer.db
      .select()
      .from(users)
      .where(and(eq(users.email, KNOWN), eq(users.appId, foyer.demo.appId)));
    const fresh = await signup({ owner: { email: uniqueEmail(), password: STRONG_PASSWORD }, plan: 'TEAM' });
    const known = await signup({
      owner: {
        email: ' Owner@Demo.Foyer.test ',
        firstName: 'Mallory',
        lastName: 'X',
        password: STRONG_PASSWORD,
        customParams: [{ label: 'employees', value: '3' }],
      },
      plan: 'TEAM',
    });
    expect(known.status).toBe(fresh.status);
    const shape = (answer: typeof fresh) => ({ ...answer.body.data!.createTenantAnonymous, id: 'id', createdAt: 'at' });
    expect(shape(known)).toEqual(shape(fresh));
    expect(Object.keys(known.body)).toEqual(Object.keys(fresh.body));

    const [after] = await foyer.db
      .select()
      .from(users)
      .where(and(eq(users.email, KNOWN), eq(users.appId, foyer.demo.appId)));
    expect(after).toEqual(before);
    expect(await verifyPassword(after!.passwordHash!, 'Foyer-demo-2026!')).toBe(true);

    const { membership } = await membershipOf(known.body.data!.createTenantAnonymous.id);
    expect(membership).toMatchObject({ userId: before!.id, role: 'OWNER', enabled: false, onboarded: false });

    const mail = await latestMailTo(foyer.db, ' Owner@Demo.Foyer.test '.trim());
    expect(mail?.kind).toBe('signup-existing');
    const token = await findLiveToken(foyer.db, linkTokenOf(mail!.text, foyer.urls.ui), ['signup']);
    expect(token).toMatchObject({ userId: before!.id, tenantUserId: membership.id, pendingPasswordHash: null });
  });
});

describe('an app with passwords off', () => {
  const appId = `passwordless-${randomUUID().slice(0, 8)}`;
  const signupHere = (tenant: SignupInput) => signup(tenant, { 'x-app-id': appId });

  beforeAll(async () => {
    await insertApp(foyer, {
      id: appId,
      name: 'Passwordless',
      settings: { passwordEnabled: false, magicLinkEnabled: true, tenantSelfSignup: true },
    });
  });

  it('refuses a password, even an empty one: 403 PASSWORD_SIGN_IN_DISABLED, nothing written', async () => {
    for (const password of [STRONG_PASSWORD, '']) {
      const before = await rowCounts(foyer.db);
      const answer = await signupHere({ owner: { email: uniqueEmail(), password } });
      expect(answer.status).toBe(403);
      expect(answer.body.data ?? null).toBeNull();
      expect(answer.body.errors?.[0]).toMatchObject({
        message: 'This app does not use passwords; sign up without one',
        extensions: { code: 'PASSWORD_SIGN_IN_DISABLED', response: { statusCode: 403 } },
      });
      expect(await rowCounts(foyer.db)).toEqual(before);
    }
  });

  it('accepts a signup without one; the mailed link confirms the account and signs in, and no password exists', async () => {
    const email = uniqueEmail();
    const answer = await signupHere({ owner: { email }, name: 'Passkey people' });
    expect(answer.body.errors).toBeUndefined();
    const created = answer.body.data!.createTenantAnonymous;
    const { membership, user } = await membershipOf(created.id);
    expect(user).toMatchObject({ appId, email, passwordHash: null });
    expect(membership).toMatchObject({ role: 'OWNER', enabled: false });

    const mail = await latestMailTo(foyer.db, email);
    expect(mail?.kind).toBe('signup');
    const secret = linkTokenOf(mail!.text, foyer.urls.ui);
    expect(await findLiveToken(foyer.db, secret, ['signup'])).toMatchObject({ appId, pendingPasswordHash: null });

    const link = await call(foyer, new Browser(), 'GET', `/auth/password/${secret}`, undefined, { appId: null });
    expect(await link.json()).toEqual({ email, purpose: 'signup', passwordChosen: true });
    const confirmed = await call(foyer, new Browser(), 'PUT', '/auth/password', { token: secret }, { appId: null });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ session: true, expiresIn: 86400, mfaState: 'DISABLED', tenantUserId: membership.id });

    const after = await membershipOf(created.id);
    expect(after.membership.enabled).toBe(true);
    expect(after.user.passwordHash).toBeNull();
    expect(after.user.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('an address that already has an identity gets the same answer and a confirming link', async () => {
    const email = uniqueEmail();
    const first = await signupHere({ owner: { email } });
    const again = await signupHere({ owner: { email } });
    expect(again.status).toBe(first.status);
    expect({ ...again.body.data!.createTenantAnonymous, id: 'id', createdAt: 'at' }).toEqual({
      ...first.body.data!.createTenantAnonymous,
      id: 'id',
      createdAt: 'at',
    });
    const mail = await latestMailTo(foyer.db, email);
    expect(mail?.kind).toBe('signup-existing');
    const link = await call(foyer, new Browser(), 'GET', `/auth/password/${linkTokenOf(mail!.text, foyer.urls.ui)}`, undefined, {
      appId: null,
    });
    expect(await link.json()).toMatchObject({ purpose: 'signup', passwordChosen: true });
  });
});

describe('the per-address limit', () => {
  it(`allows ${SIGNUPS_PER_WINDOW} signups an hour from one address, then 429 TOO_MANY_REQUESTS; X-Forwarded-For from an untrusted peer changes nothing`, async () => {
    for (let index = 0; index < SIGNUPS_PER_WINDOW; index++) {
      const answer = await signup({ owner: { email: uniqueEmail() } }, { 'x-forwarded-for': `203.0.113.${index}` });
      expect(answer.status).toBe(200);
    }
    const before = await rowCounts(foyer.db);
    const limited = await signup({ owner: { email: uniqueEmail() } }, { 'x-forwarded-for': '198.51.100.7' });
    expect(limited.status).toBe(429);
    expect(errorCodes(limited)).toEqual(['TOO_MANY_REQUESTS']);
    expect(limited.body.errors?.[0]?.extensions).toEqual({ code: 'TOO_MANY_REQUESTS', response: { statusCode: 429 } });
    expect(limited.headers.get('retry-after')).toBe('3600');
    expect(await rowCounts(foyer.db)).toEqual(before);
  });

  it("counts refused signups too: a flood of values refused by a field's pattern gets 429, each run of the pattern counted", async () => {
    const before = await rowCounts(foyer.db);
    for (let index = 0; index < SIGNUPS_PER_WINDOW; index++) {
      const refused = await signup({ owner: { email: uniqueEmail(), customParams: [{ label: 'orgNumber', value: 'x'.repeat(1000) }] } });
      expect(refused.status).toBe(400);
      expect(fieldsOf(refused)).toEqual({ orgNumber: 'The value does not have the expected format' });
    }
    const limited = await signup({ owner: { email: uniqueEmail(), customParams: [{ label: 'orgNumber', value: '556677-8899' }] } });
    expect(limited.status).toBe(429);
    expect(errorCodes(limited)).toEqual(['TOO_MANY_REQUESTS']);
    expect(await rowCounts(foyer.db)).toEqual(before);
    // Each refusal is one signup event of the address, saying it was refused.
    const recorded = await foyer.db.select({ detail: auditEvents.detail }).from(auditEvents).where(eq(auditEvents.type, 'tenant.signup'));
    expect(recorded).toHaveLength(SIGNUPS_PER_WINDOW);
    expect(recorded.every(({ detail }) => (detail as { refused?: string[] }).refused?.includes('orgNumber'))).toBe(true);
  });

  it('does not count signups to an app closed for them: refused before any input is read', async () => {
    await setSettings({ tenantSelfSignup: false });
    for (let index = 0; index < SIGNUPS_PER_WINDOW + 1; index++) {
      expect(errorCodes(await signup({ owner: { email: 'not an address' } }))).toEqual(['SELF_SIGNUP_DISABLED']);
    }
    await setSettings({});
    expect((await signup({ owner: { email: uniqueEmail() } })).status).toBe(200);
  });
});

describe('behind a trusted proxy', () => {
  let proxied: TestFoyer;
  beforeAll(async () => {
    proxied = await startFoyer({ trustProxy: ['127.0.0.1'] });
  });
  afterAll(() => proxied?.close());

  it("limits each client address the proxy names, not the proxy's", async () => {
    for (let index = 0; index < SIGNUPS_PER_WINDOW; index++) {
      expect((await signup({ owner: { email: uniqueEmail() } }, { 'x-forwarded-for': '203.0.113.9' }, proxied)).status).toBe(200);
    }
    expect((await signup({ owner: { email: uniqueEmail() } }, { 'x-forwarded-for': '203.0.113.9' }, proxied)).status).toBe(429);
    expect((await signup({ owner: { email: uniqueEmail() } }, { 'x-forwarded-for': '203.0.113.10' }, proxied)).status).toBe(200);
    const [recorded] = await proxied.db
      .select({ n: count() })
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'tenant.signup'), eq(auditEvents.ip, '203.0.113.9')));
    expect(recorded?.n).toBe(SIGNUPS_PER_WINDOW);
  });
});

describe('what the signup form reads', () => {
  it('getTenantUserCustomParamsConfigAnonymous answers the fields, regex empty when none', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getTenantUserCustomParamsConfigAnonymous { params { label type userLabel regex } } }' },
      { 'x-app-id': foyer.demo.appId },
    );
    expect(answer.body.data?.getTenantUserCustomParamsConfigAnonymous).toEqual({
      params: [
        { label: 'orgNumber', type: 'regex', userLabel: 'Organisation number', regex: '\\d{6}-\\d{4}' },
        { label: 'employees', type: 'integer', userLabel: 'Employees', regex: '' },
        { label: 'phone', type: 'phone', userLabel: 'Phone', regex: '' },
        { label: 'billingEmail', type: 'email', userLabel: 'Billing e-mail', regex: '' },
        { label: 'newsletter', type: 'boolean', userLabel: 'Send me news', regex: '' },
      ],
    });
  });

  it('getAppAnonymous answers the password policy: on by default, then as configured', async () => {
    const query = { query: '{ getAppAnonymous { passwordValidation passwordComplexityRegex } }' };
    const headers = { 'x-app-id': foyer.demo.appId };
    expect((await postGraphQL(foyer.urls.api, query, headers)).body.data?.getAppAnonymous).toEqual({
      passwordValidation: true,
      passwordComplexityRegex: null,
    });
    await setSettings({ passwordPolicy: { enabled: false, complexityRegex: '.{12,}' } });
    expect((await postGraphQL(foyer.urls.api, query, headers)).body.data?.getAppAnonymous).toEqual({
      passwordValidation: false,
      passwordComplexityRegex: '.{12,}',
    });
  });
});
