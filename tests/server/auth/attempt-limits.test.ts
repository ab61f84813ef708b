// Attempt limits under concurrent bursts: every attempt is reserved atomically before the password
// or code is checked (server/audit/limits.ts), so a burst of simultaneous requests gets exactly as
// many checks as the limit allows, and spraying many usernames from one address is limited too.
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents } from '../../../server/db/schema.ts';
import { LOGIN_FAILURES, LOGIN_FAILURES_PER_ADDRESS } from '../../../server/audit/limits.ts';
import { SIGNUP_LIMIT } from '../../../server/graphql/signup/throttle.ts';
import { postGraphQL } from '../support/graphql.ts';

let foyer: TestFoyer;

beforeAll(async () => {
  // Behind a trusted proxy, so each test names its own client address.
  foyer = await startFoyer({ trustProxy: ['127.0.0.1'] });
});
afterAll(() => foyer?.close());

function authenticate(username: string, password: string, ip: string) {
  return fetch(`${foyer.urls.auth}/auth/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId, 'x-forwarded-for': ip },
    body: JSON.stringify({ username, password }),
  });
}

async function failuresRecorded(condition: ReturnType<typeof sql>) {
  const [row] = await foyer.db
    .select({ n: count() })
    .from(auditEvents)
    .where(and(eq(auditEvents.type, 'login.failure'), condition));
  return row!.n;
}

describe('wrong passwords in a concurrent burst', () => {
  it(`checks exactly ${LOGIN_FAILURES.max} of 60 simultaneous guesses, and then refuses even the right password`, async () => {
    const viewer = foyer.demo.users[2]!;
    const ip = '198.51.100.21';
    const answers = await Promise.all(Array.from({ length: 60 }, (_, index) => authenticate(viewer.email, `guess-${index}`, ip)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_FAILURES.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - LOGIN_FAILURES.max);
    expect(await failuresRecorded(sql`${auditEvents.detail}->>'username' = ${viewer.email.toLowerCase()}`)).toBe(LOGIN_FAILURES.max);
    expect((await authenticate(viewer.email, viewer.password, ip)).status).toBe(429);
  });

  it('a burst of nine wrong guesses and the right password: the right one signs in and does not count as a failure', async () => {
    const admin = foyer.demo.users[1]!;
    const ip = '198.51.100.22';
    const answers = await Promise.all([
      ...Array.from({ length: 9 }, (_, index) => authenticate(admin.email, `guess-${index}`, ip)),
      authenticate(admin.email, admin.password, ip),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array(9).fill(401)]);
    expect(await failuresRecorded(sql`${auditEvents.ip} = ${ip}`)).toBe(9);
  });
});

describe('password spraying from one address', () => {
  it(`checks ${LOGIN_FAILURES_PER_ADDRESS.max} usernames, then refuses every other username from that address only`, async () => {
    const ip = '198.51.100.23';
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) => authenticate(`sprayed-${index}@demo.foyer.test`, 'Spring2026!', ip)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_FAILURES_PER_ADDRESS.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - LOGIN_FAILURES_PER_ADDRESS.max);
    // A real user from that address is refused too; from another address the same user signs in.
    const owner = foyer.demo.users[0]!;
    expect((await authenticate(owner.email, owner.password, ip)).status).toBe(429);
    expect((await authenticate(owner.email, owner.password, '198.51.100.24')).status).toBe(200);
  });
});

describe('signups in a concurrent burst', () => {
  it(`creates exactly ${SIGNUP_LIMIT.max} workspaces from 30 simultaneous signups of one address`, async () => {
    const ip = '198.51.100.25';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        postGraphQL(
          foyer.urls.api,
          {
            query: 'mutation S($tenant: CreateTenantInput!) { createTenantAnonymous(tenant: $tenant) { id } }',
            variables: { tenant: { owner: { email: `burst-${index}@example.com` } } },
          },
          { 'x-app-id': foyer.demo.appId, 'x-forwarded-for': ip },
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(SIGNUP_LIMIT.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - SIGNUP_LIMIT.max);
    const [signups] = await foyer.db
      .select({ n: count() })
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'tenant.signup'), eq(auditEvents.ip, ip)));
    expect(signups!.n).toBe(SIGNUP_LIMIT.max);
  });
});
