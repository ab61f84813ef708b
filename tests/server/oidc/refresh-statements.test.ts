// What a refresh grant asks of the database (bench/token-refresh.bench.ts measures what it costs):
// two statements, the app read with the refresh token the form presents, its Grant and the
// membership it names, and one write carrying the rotation, the sign-in session's activity and the
// audit event together (server/auth/oidc/adapter.ts, server/db/write-batch.ts), the same text every time. The membership read along with the token
// still decides, as a read of its own did: a disabled membership gets no token, a changed role shows.
import { and, desc, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestFoyer } from '../../../server/testing.ts';
import { startRecordedFoyer, type RecordedFoyer } from '../support/statements.ts';
import { auditEvents, signInSessions, tenantUsers } from '../../../server/db/schema.ts';
import { refreshTokenOf } from './sign-in.ts';
import { createMember } from '../password/helpers.ts';

let foyer: TestFoyer;
let statements: string[];
let recording: RecordedFoyer['recording'];

beforeAll(async () => {
  ({ foyer, statements, recording } = await startRecordedFoyer());
});
afterAll(() => foyer?.close());

/** POST /token with a refresh_token grant, recording the statements it sends. */
async function refresh(refreshToken: string) {
  const response = await recording(() =>
    foyer.foyer.auth.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: refreshToken }).toString(),
    }),
  );
  return { status: response.statusCode, body: response.json() as Record<string, string> };
}

const writes = () => statements.filter((statement) => /^(with write_|insert|update|delete)/.test(statement));

describe('a refresh grant', () => {
  it('reads once and writes once: the rotation, the session activity and the audit event in one statement', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const first = await refresh(await refreshTokenOf(foyer, member, 'Acme'));
    expect(first.status).toBe(200);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(
      /^select .* from "apps" left join "oidc_payloads" .* left join "oidc_payloads" "grant" .* left join "tenant_users" .* where "apps"."id" = \$\d+ limit/,
    );
    // Only what the tokens' claims name: no secret, billing or search column rides along (server/auth/memberships.ts).
    expect(statements[0]).not.toMatch(/password_hash|mfa_|passkey_user_handle|subscription_id|customer_id|search_text|custom_params/);
    // Of the app, only the version of its row: its client metadata is kept from the sign-in's read
    // while that version stands (server/auth/oidc/adapter.ts ClientAdapter).
    expect(statements[0]).toMatch(/^select "apps"\.xmin::text, "oidc_payloads"\."payload"/);
    expect(statements[0]).not.toMatch(/"apps"\."(name|redirect_uris|settings|client_secret_sealed)"/);
    expect(writes()).toHaveLength(1);
    const [batch] = writes();
    expect(batch).toContain('update "oidc_payloads" set "consumed_at"');
    expect(batch).toContain('insert into "oidc_payloads"');
    expect(batch).toContain('update "sign_in_sessions"');
    expect(batch).toContain('insert into "audit_events"');

    // What that one statement wrote: the audit event, the session's latest access token, and a successor that works.
    const [issued] = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantUserId, member.memberships.Acme!), eq(auditEvents.type, 'token.issued')))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(issued?.detail).toEqual({ grantType: 'refresh_token' });
    const [session] = await foyer.db.select().from(signInSessions).where(eq(signInSessions.tenantUserId, member.memberships.Acme!));
    expect(session?.accessTokenJti).toBe(decodeJwt(first.body.access_token!).jti);
    const second = await refresh(first.body.refresh_token!);
    expect(second.status).toBe(200);
    expect(statements).toHaveLength(2);
    // The same text every time: its parts are fixed statements, so nothing is built per refresh and
    // the embedded database runs it as one prepared statement (server/db/write-batch.ts).
    expect(writes()).toEqual([batch]);
  });

  it('refuses the token of a membership disabled in the database, with no write of a successor', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const refreshToken = await refreshTokenOf(foyer, member, 'Acme');
    // Straight in the table: no revocation ran, so only the membership read with the token can refuse.
    await foyer.db.update(tenantUsers).set({ enabled: false }).where(eq(tenantUsers.id, member.memberships.Acme!));
    const answer = await refresh(refreshToken);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_grant');
    expect(statements.some((statement) => statement.includes('insert into "oidc_payloads"'))).toBe(false);
  });

  it('issues the role the membership has now, read with the token', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const refreshToken = await refreshTokenOf(foyer, member, 'Acme');
    await foyer.db.update(tenantUsers).set({ role: 'VIEWER' }).where(eq(tenantUsers.id, member.memberships.Acme!));
    const answer = await refresh(refreshToken);
    expect(answer.status).toBe(200);
    expect(decodeJwt(answer.body.access_token!)).toMatchObject({ sub: member.memberships.Acme, role: 'VIEWER' });
  });
});
