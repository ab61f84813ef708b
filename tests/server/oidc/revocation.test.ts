// Refresh tokens end with the credentials they were issued under: a password reset revokes every
// grant of the identity (in every workspace), and disabling a member revokes that membership's grants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { refreshTokenOf, relyingParty } from './sign-in.ts';
import { call, createMember, NEW_PASSWORD, tokenOf, waitForMail } from '../password/helpers.ts';
import { Browser } from './browser.ts';
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { oidcPayloads } from '../../../server/db/schema.ts';
import { bearer, postGraphQL } from '../support/graphql.ts';
import { findMembership, mintAccessToken } from '../support/tokens.ts';

let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer();
});
afterAll(() => foyer?.close());

async function refreshes(refreshToken: string): Promise<boolean> {
  const rp = await relyingParty(foyer);
  try {
    await client.refreshTokenGrant(rp, refreshToken);
    return true;
  } catch (error) {
    expect(error).toMatchObject({ error: 'invalid_grant' });
    return false;
  }
}

describe('revocation of refresh tokens', () => {
  it('a password reset revokes the refresh tokens of every workspace of the identity', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme', 'Globex'] });
    const acme = await refreshTokenOf(foyer, member, 'Acme');
    const globex = await refreshTokenOf(foyer, member, 'Globex');
    const bystander = await createMember(foyer, { workspaces: ['Acme'] });
    const untouched = await refreshTokenOf(foyer, bystander, 'Acme');

    expect((await call(foyer, new Browser(), 'POST', '/auth/password', { username: member.email })).status).toBe(200);
    const [mail] = await waitForMail(foyer, member.email);
    const set = await call(
      foyer,
      new Browser(),
      'PUT',
      '/auth/password',
      { token: tokenOf(mail!.link), password: NEW_PASSWORD },
      { appId: null },
    );
    expect(set.status).toBe(200);

    expect(await refreshes(acme)).toBe(false);
    expect(await refreshes(globex)).toBe(false);
    expect(await refreshes(untouched)).toBe(true);
  });

  it("disabling a member revokes that membership's refresh tokens", async () => {
    const member = await createMember(foyer, { workspaces: ['Acme', 'Globex'] });
    const acme = await refreshTokenOf(foyer, member, 'Acme');
    const globex = await refreshTokenOf(foyer, member, 'Globex');
    const owner = await findMembership(foyer.db, foyer.demo.users[0]!.email, 'Acme');
    const token = await mintAccessToken(foyer.db, owner, { issuer: foyer.urls.auth });
    const disabled = await postGraphQL(
      foyer.urls.api,
      {
        query: 'mutation U($user: UserInput!) { updateUser(user: $user) { id enabled } }',
        variables: { user: { id: member.memberships.Acme, enabled: false } },
      },
      bearer(token),
    );
    expect(disabled.body).toMatchObject({ data: { updateUser: { enabled: false } } });
    // Enabled again, the revoked token stays revoked: the member signs in afresh.
    const enabled = await postGraphQL(
      foyer.urls.api,
      {
        query: 'mutation U($user: UserInput!) { updateUser(user: $user) { id enabled } }',
        variables: { user: { id: member.memberships.Acme, enabled: true } },
      },
      bearer(token),
    );
    expect(enabled.body).toMatchObject({ data: { updateUser: { enabled: true } } });

    expect(await refreshes(acme)).toBe(false);
    expect(await refreshes(globex)).toBe(true);
  });
});

describe('artifacts at rest', () => {
  it('stores neither the refresh token nor the sign-on session id in the clear, and both still work', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const refreshToken = await refreshTokenOf(foyer, member, 'Acme');
    const stored = JSON.stringify(await foyer.db.select().from(oidcPayloads));
    expect(stored).not.toContain(refreshToken);
    const sessionIds = (await foyer.db.select().from(oidcPayloads).where(eq(oidcPayloads.type, 'Session'))).map((row) => row.id);
    expect(sessionIds.length).toBeGreaterThan(0);
    for (const id of sessionIds) expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(await refreshes(refreshToken)).toBe(true);
  });
});

// A refresh reads its token and the token's Grant in one statement (server/auth/oidc/adapter.ts):
// the Grant must still decide, exactly as a read of its own would.
describe('the Grant behind a refresh token', () => {
  /** The stored row of a refresh token (its id is the SHA-256 of the token) names its grant. */
  async function grantIdOf(refreshToken: string): Promise<string> {
    const id = createHash('sha256').update(refreshToken).digest('hex');
    const [row] = await foyer.db
      .select({ grantId: oidcPayloads.grantId })
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.id, id), eq(oidcPayloads.type, 'RefreshToken')));
    return row!.grantId!;
  }

  it('refuses the token once its Grant is gone, though the token itself is still stored', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const refreshToken = await refreshTokenOf(foyer, member, 'Acme');
    await foyer.db.delete(oidcPayloads).where(and(eq(oidcPayloads.type, 'Grant'), eq(oidcPayloads.grantId, await grantIdOf(refreshToken))));
    expect(await refreshes(refreshToken)).toBe(false);
  });

  it('refuses the token once its Grant has expired', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    const refreshToken = await refreshTokenOf(foyer, member, 'Acme');
    await foyer.db
      .update(oidcPayloads)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(oidcPayloads.type, 'Grant'), eq(oidcPayloads.grantId, await grantIdOf(refreshToken))));
    expect(await refreshes(refreshToken)).toBe(false);
  });

  it('rotates again and again under a live Grant, each access token naming the workspaces as before', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme', 'Globex'] });
    const rp = await relyingParty(foyer);
    let refreshToken = await refreshTokenOf(foyer, member, 'Acme');
    for (let i = 0; i < 3; i += 1) {
      const tokens = await client.refreshTokenGrant(rp, refreshToken);
      expect(tokens.claims()).toMatchObject({ sub: member.memberships.Acme, multi_tenant: true });
      refreshToken = tokens.refresh_token!;
    }
  });
});
