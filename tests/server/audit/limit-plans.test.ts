// The attempt limits count recent audit events of one address or username on every sign-in and
// mailed link (server/audit/limits.ts). Each count must be a range of an index on that address or
// username, so a busy app's thousands of other events never slow a sign-in: checked here on the
// database's own query plans, after many events of many people (no timing).
import { count, max, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../server/testing.ts';
import type { DatabaseHandle } from '../../../server/db/client.ts';
import { auditEvents } from '../../../server/db/schema.ts';
import {
  LOGIN_FAILURES,
  LOGIN_FAILURES_PER_ADDRESS,
  MAILED_LINK_LIMITS,
  recordWithinLimitsStatement,
  sameAttempt,
  type Attempt,
  type RequestLimit,
} from '../../../server/audit/limits.ts';
import type { AuditType } from '../../../server/audit/service.ts';
import { WEBHOOK_REFUSALS } from '../../../server/payments/webhook.ts';
import { FEDERATION_STARTS } from '../../../server/auth/federation/service.ts';

let handle: DatabaseHandle;
const APP = 'busy-app';
const attempt: Attempt = { appId: APP, ip: '10.0.0.7', username: 'person7@limits.test' };

beforeAll(async () => {
  handle = await openTestDatabase();
  // 20,000 recent events of one app: 400 addresses and 500 usernames, every kind the limits count.
  await handle.db.execute(sql`
    insert into audit_events (app_id, type, ip, detail, created_at)
    select ${APP}, (array['login.failure', 'login.success', 'password.reset_requested', 'magic_link.requested', 'payment.event_refused', 'federation.started'])[1 + n % 6],
      '10.0.' || (n % 400 / 256) || '.' || (n % 400 % 256), jsonb_build_object('username', 'person' || (n % 500) || '@limits.test'),
      now() - make_interval(secs => n % 800)
    from generate_series(1, 20000) as n`);
  await handle.db.execute(sql`analyze audit_events`);
});
afterAll(() => handle?.close());

async function plan(query: SQL): Promise<string> {
  const result = (await handle.db.execute(sql`explain `.append(query))) as unknown as { rows?: Record<string, string>[] } & Record<
    string,
    string
  >[];
  return (result.rows ?? result).map((row) => Object.values(row)[0]).join('\n');
}

/** The plan reads an attempt index whose condition names what the limit counts per, and no whole table or app. */
function expectAttemptIndex(text: string, limit: RequestLimit) {
  expect(text).not.toMatch(/Seq Scan|audit_events_app_idx/);
  expect(text).toMatch(
    /Index (Only )?Scan (Backward )?using audit_events_attempt_(ip|username)_idx|Bitmap Index Scan on audit_events_attempt_(ip|username)_idx/,
  );
  const condition = /Index Cond: (.*)/.exec(text)?.[1] ?? '';
  expect(condition).toMatch(limit.per.includes('ip') ? /ip|username/ : /username/);
  expect(condition).toContain('type');
}

const cases: [string, RequestLimit, AuditType][] = [
  ['wrong passwords per app, address and username', LOGIN_FAILURES, 'login.failure'],
  ['wrong passwords per app and address', LOGIN_FAILURES_PER_ADDRESS, 'login.failure'],
  ['mailed links per app and e-mail', MAILED_LINK_LIMITS[0]!, 'password.reset_requested'],
  ['mailed links per app and address', MAILED_LINK_LIMITS[1]!, 'magic_link.requested'],
  ['refused payment webhooks per app and address', WEBHOOK_REFUSALS[0]!, 'payment.event_refused'],
  ['sign-ins started with a provider per app and address', FEDERATION_STARTS[0]!, 'federation.started'],
];

describe('attempt limits on a busy app', () => {
  for (const [name, limit, type] of cases) {
    it(`counts ${name} on an index`, async () => {
      expectAttemptIndex(
        await plan(
          handle.db
            .select({ total: count() })
            .from(auditEvents)
            .where(sameAttempt(limit, attempt, type))
            .getSQL(),
        ),
        limit,
      );
    });
  }

  it('finds the latest successful sign-in that clears the failures on an index', async () => {
    const latest = handle.db
      .select({ at: max(auditEvents.createdAt) })
      .from(auditEvents)
      .where(sameAttempt(LOGIN_FAILURES, attempt, 'login.success'));
    expectAttemptIndex(await plan(latest.getSQL()), LOGIN_FAILURES);
  });

  it('counts both login limits and records the attempt in one statement, on the attempt indexes only', async () => {
    const text = await plan(recordWithinLimitsStatement('login.failure', attempt, [LOGIN_FAILURES, LOGIN_FAILURES_PER_ADDRESS]));
    expect(text).toMatch(/^Insert on audit_events/);
    expect(text).not.toMatch(/Seq Scan|audit_events_app_idx/);
    // Three ranges: the failures per address and username since the latest success, that success, the failures per address.
    expect(text.match(/(Index (Only )?Scan (Backward )?using|Bitmap Index Scan on) audit_events_attempt_(ip|username)_idx/g)?.length).toBe(
      3,
    );
  });
});
