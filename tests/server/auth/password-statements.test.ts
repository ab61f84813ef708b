// What a password sign-in asks of the database (bench/password-login.bench.ts measures what it
// costs): one statement reading the app, the identity and its workspaces and reserving the attempt
// under the login limits (alone on the embedded database, which needs no lock; after the limits' locks
// on PostgreSQL), and one write making the reservation the sign-in's audit event, opening the login
// session and ending the previous one (server/auth/session/routes.ts, server/db/write-batch.ts). On
// the embedded database each statement is a commit: two per sign-in. What that write did is checked
// too: the session works, the previous one does not, and the limits count what they counted before.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { POSTGRES_ENV, type TestFoyer } from '../../../server/testing.ts';
import { startRecordedFoyer, type RecordedFoyer } from '../support/statements.ts';
import { isEmbedded } from '../../../server/db/client.ts';
import { auditEvents, loginSessions } from '../../../server/db/schema.ts';
import { hashId, LOGIN_SESSION_COOKIE } from '../../../server/auth/login-session.ts';
import { createMember, type Member } from '../password/helpers.ts';
import { insertApp } from '../support/apps.ts';

let foyer: TestFoyer;
let statements: string[];
let recording: RecordedFoyer['recording'];

beforeAll(async () => {
  ({ foyer, statements, recording } = await startRecordedFoyer());
});
afterAll(() => foyer?.close());

/** POST /auth/authenticate as the hosted login screen sends it, recording the statements it sends. */
async function signIn(member: Member, password: string, cookie?: string, appId = foyer.demo.appId) {
  const response = await recording(() =>
    foyer.foyer.auth.inject({
      method: 'POST',
      url: '/auth/authenticate',
      headers: {
        'content-type': 'application/json',
        'x-app-id': appId,
        origin: foyer.urls.ui,
        ...(cookie ? { cookie: `${LOGIN_SESSION_COOKIE}=${cookie}` } : {}),
      },
      payload: JSON.stringify({ username: member.email, password }),
    }),
  );
  const session = response.cookies.find((set) => set.name === LOGIN_SESSION_COOKIE)?.value;
  return { status: response.statusCode, body: response.json() as Record<string, unknown>, session };
}

const events = (member: Member) =>
  foyer.db
    .select({ type: auditEvents.type, detail: auditEvents.detail })
    .from(auditEvents)
    .where(and(eq(auditEvents.appId, foyer.demo.appId), eq(auditEvents.userId, member.userId)))
    .orderBy(auditEvents.id);

const sessionRow = async (cookie: string) =>
  (
    await foyer.db
      .select()
      .from(loginSessions)
      .where(eq(loginSessions.idHash, hashId(cookie)))
  )[0];

/** The sign-in's first statement: the app, the identity and its workspaces read, and the attempt reserved; its index. */
function expectReadAndReservation() {
  // PostgreSQL takes the limits' advisory locks first, in a transaction; the embedded database needs none.
  const index = isEmbedded(foyer.db) ? 0 : 1;
  if (index === 1) expect(statements[0]).toMatch(/^select pg_advisory_xact_lock/);
  const statement = statements[index]!;
  expect(statement).toMatch(/^\s*with target as \(\s*select .* from "apps" where "apps"."id" = \$\d+/s);
  expect(statement).toMatch(/account as \(\s*select .* from "users" where .*lower\("users"."email"\) = \$\d+/s);
  expect(statement).toMatch(/reservation as \(\s*insert into "audit_events" .* where .*\(select count\(\*\) from "audit_events"/s);
  expect(statement).toMatch(/json_agg\(.* from "tenant_users" inner join "tenants"/s);
  return index;
}

describe('a password sign-in', () => {
  it('reads and reserves in one statement, and writes the rest in one more', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const answer = await signIn(member, member.password!);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ session: true, mfaState: 'DISABLED', tenantUserId: member.memberships.Acme });

    const read = expectReadAndReservation();
    expect(statements).toHaveLength(read + 2);
    const batch = statements[read + 1]!;
    expect(batch).toMatch(/^with write_0 as \(insert into "login_sessions"/);
    expect(batch).toMatch(
      /write_1 as \(update "audit_events" set "type" = \$\d+, "detail" = \$\d+::text::jsonb where "audit_events"."id" = \$\d+\)/,
    );
    expect(batch).not.toContain('delete from "audit_events"');
    expect(batch).not.toContain('insert into "audit_events"');

    // The reservation became the sign-in's event, with who and where it was reserved for; the session
    // is stored as the answer says.
    expect(await events(member)).toEqual([{ type: 'login.success', detail: { username: member.email, method: 'password' } }]);
    const [event] = await foyer.db.select().from(auditEvents).where(eq(auditEvents.userId, member.userId));
    expect(event).toMatchObject({ appId: foyer.demo.appId, ip: '127.0.0.1', tenantUserId: null });
    const stored = await sessionRow(answer.session!);
    expect(stored).toMatchObject({ appId: foyer.demo.appId, userId: member.userId, chosenTenantUserId: null });
    expect(stored?.authenticatedAt).toBeInstanceOf(Date);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);
    const workspaces = await foyer.foyer.auth.inject({
      method: 'GET',
      url: '/auth/tenantUsers',
      headers: { cookie: `${LOGIN_SESSION_COOKIE}=${answer.session}`, origin: foyer.urls.ui },
    });
    expect(workspaces.statusCode).toBe(200);
    expect((workspaces.json() as { id: string }[]).map((workspace) => workspace.id)).toEqual([member.memberships.Acme]);
  });

  it('ends the previous login session in the same write', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const first = await signIn(member, member.password!);
    const second = await signIn(member, member.password!, first.session);
    expect(second.status).toBe(200);
    const batch = statements.at(-1)!;
    expect(batch).toContain('delete from "login_sessions"');
    expect(await sessionRow(first.session!)).toBeUndefined();
    expect(await sessionRow(second.session!)).toBeDefined();
  });

  it('keeps a wrong password counted, with no session and nothing else written', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const answer = await signIn(member, 'not-the-password');
    expect(answer.status).toBe(401);
    expect(answer.session).toBeUndefined();
    expect(statements).toHaveLength(expectReadAndReservation() + 1);
    expect(await events(member)).toEqual([{ type: 'login.failure', detail: { username: member.email } }]);
  });

  it('sends an unknown e-mail the same statements as a known one with a wrong password', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    expect((await signIn(member, 'not-the-password')).status).toBe(401);
    const known = [...statements];
    expect((await signIn({ ...member, email: `nobody-${member.email}` }, 'not-the-password')).status).toBe(401);
    expect(statements).toEqual(known);
  });

  it('builds no statement per sign-in on the embedded database (each is built once)', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const first = await signIn(member, member.password!);
    expect(first.status).toBe(200);
    const built = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
    try {
      // With a previous session to end, so that write is one of them.
      expect((await signIn(member, member.password!, first.session)).status).toBe(200);
      expect(statements.at(-1)).toContain('delete from "login_sessions"');
      // PostgreSQL's limits' locks are one statement built per sign-in, with the attempt's keys.
      expect(built).toHaveBeenCalledTimes(isEmbedded(foyer.db) ? 0 : 1);
    } finally {
      built.mockRestore();
    }
  });

  it.skipIf(Boolean(process.env[POSTGRES_ENV]))('is two exchanges with the embedded database, each one commit', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    expect((await signIn(member, member.password!)).status).toBe(200);
    const exchanges = vi.spyOn(PGlite.prototype, 'execProtocol');
    try {
      expect((await signIn(member, member.password!)).status).toBe(200);
      // Bind and execute a prepared statement, then sync: no parse, and PGlite commits at each sync.
      expect(exchanges).toHaveBeenCalledTimes(2);
      expect(exchanges.mock.calls.map(([, options]) => options?.syncToFs)).toEqual([true, true]);
    } finally {
      exchanges.mockRestore();
    }
  });

  it('records no attempt for an app with passwords off or an unknown app, in the same statement', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    expect((await signIn(member, 'not-the-password')).status).toBe(401);
    const wrongPassword = [...statements];
    const appId = `passwordless-${randomUUID().slice(0, 8)}`;
    await insertApp(foyer, { id: appId, name: 'Passwordless', settings: { passwordEnabled: false } });
    const recordedBefore = await foyer.db.select({ id: auditEvents.id }).from(auditEvents);

    const off = await signIn(member, member.password!, undefined, appId);
    expect(off).toMatchObject({ status: 403, body: { error: 'PASSWORD_SIGN_IN_DISABLED' } });
    expect(statements).toEqual(wrongPassword);
    const unknown = await signIn(member, member.password!, undefined, `${appId}-unknown`);
    expect(unknown.status).toBe(404);
    expect(statements).toEqual(wrongPassword);
    expect(await foyer.db.select({ id: auditEvents.id }).from(auditEvents)).toHaveLength(recordedBefore.length);
  });

  it('refuses the eleventh wrong password in a row, then a right one, and counts nothing for the refusals', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const answers = [];
    for (let attempt = 0; attempt < 11; attempt += 1) answers.push((await signIn(member, 'not-the-password')).status);
    expect(answers).toEqual([...Array<number>(10).fill(401), 429]);
    expect((await signIn(member, member.password!)).status).toBe(429);
    expect((await events(member)).map((event) => event.type)).toEqual(Array<string>(10).fill('login.failure'));
  });
});
