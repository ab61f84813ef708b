// What a password sign-in asks of the database (bench/password-login.bench.ts measures what it
// costs): one read of the app, the identity and its workspaces, the attempt reserved under the login
// limits (one statement on the embedded database, which needs no lock; the lock and the statement on
// PostgreSQL), and one write taking the reservation back, opening the login session, ending the
// previous one and recording the sign-in (server/auth/session/routes.ts, server/db/write-batch.ts).
// What that write did is checked too: the session works, the previous one does not, and the limits
// count what they counted before.
import { and, eq } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestFoyer } from '../../../server/testing.ts';
import { startRecordedFoyer, type RecordedFoyer } from '../support/statements.ts';
import { isEmbedded } from '../../../server/db/client.ts';
import { auditEvents, loginSessions } from '../../../server/db/schema.ts';
import { hashId, LOGIN_SESSION_COOKIE } from '../../../server/auth/login-session.ts';
import { createMember, type Member } from '../password/helpers.ts';

let foyer: TestFoyer;
let statements: string[];
let recording: RecordedFoyer['recording'];

beforeAll(async () => {
  ({ foyer, statements, recording } = await startRecordedFoyer());
});
afterAll(() => foyer?.close());

/** POST /auth/authenticate as the hosted login screen sends it, recording the statements it sends. */
async function signIn(member: Member, password: string, cookie?: string) {
  const response = await recording(() =>
    foyer.foyer.auth.inject({
      method: 'POST',
      url: '/auth/authenticate',
      headers: {
        'content-type': 'application/json',
        'x-app-id': foyer.demo.appId,
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

/** The statement before the reservation: the app, the identity and its workspaces, read together. */
function expectLookups() {
  expect(statements[0]).toMatch(
    /^select .* from "apps" left join "users" on .*lower\("users"."email"\) = \$\d+.* where "apps"."id" = \$\d+/s,
  );
  expect(statements[0]).toMatch(/json_agg\(.* from "tenant_users" inner join "tenants"/s);
  // PostgreSQL takes the limits' advisory locks first, in a transaction; the embedded database needs none.
  const reservation = statements.slice(1).findIndex((statement) => statement.trimStart().startsWith('insert into "audit_events"'));
  expect(reservation).toBe(isEmbedded(foyer.db) ? 0 : 1);
  return 1 + reservation;
}

describe('a password sign-in', () => {
  it('reads once, reserves the attempt, and writes the rest in one statement', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const answer = await signIn(member, member.password!);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ session: true, mfaState: 'DISABLED', tenantUserId: member.memberships.Acme });

    const reserved = expectLookups();
    expect(statements[reserved]).toMatch(/where \(select count\(\*\) from "audit_events"/);
    expect(statements).toHaveLength(reserved + 2);
    const batch = statements[reserved + 1]!;
    expect(batch).toMatch(/^with write_0 as \(delete from "audit_events"/);
    expect(batch).toContain('insert into "login_sessions"');
    expect(batch).toContain('insert into "audit_events"');

    // The reservation is gone and the sign-in recorded; the session is stored as the answer says.
    expect(await events(member)).toEqual([{ type: 'login.success', detail: { username: member.email, method: 'password' } }]);
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
    expect(statements).toHaveLength(expectLookups() + 1);
    expect(await events(member)).toEqual([{ type: 'login.failure', detail: { username: member.email } }]);
  });

  it('sends an unknown e-mail the same statements as a known one with a wrong password', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    expect((await signIn(member, 'not-the-password')).status).toBe(401);
    const known = [...statements];
    expect((await signIn({ ...member, email: `nobody-${member.email}` }, 'not-the-password')).status).toBe(401);
    expect(statements).toEqual(known);
  });

  it('builds no statement but the write batch per sign-in on the embedded database (the others are prepared once)', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    expect((await signIn(member, member.password!)).status).toBe(200);
    const built = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
    try {
      expect((await signIn(member, member.password!)).status).toBe(200);
      // The write batch's two built writes, the login session and the reservation's release (the audit
      // event is a fixed write, server/db/write-batch.ts). PostgreSQL's reservation runs in its
      // transaction, after the limits' locks: built there each time.
      expect(built).toHaveBeenCalledTimes(isEmbedded(foyer.db) ? 2 : 4);
      expect(built.mock.calls.at(-1)![0].queryChunks.length).toBeGreaterThan(0);
    } finally {
      built.mockRestore();
    }
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
