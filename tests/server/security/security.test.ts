// POST /security/setCookie and GET /security/handoverToApp on the API host: a valid access token
// becomes an httpOnly cookie of the API host, which the next page load spends once to go back to the
// app's sign-in start; forged, expired or missing tokens never set it, and a page load without it
// lands on the hosted error screen, not a raw answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { Browser } from '../oidc/browser.ts';
import { findMembership, foreignKey, mintAccessToken } from '../support/tokens.ts';

let foyer: TestFoyer;
let token: string;

beforeAll(async () => {
  foyer = await startFoyer();
  const person = foyer.demo.users[0]!;
  const membership = await findMembership(foyer.db, person.email, person.workspaces[0]!);
  token = await mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth });
});
afterAll(() => foyer?.close());

const setCookie = (browser: Browser, authorization?: string) =>
  browser.request(`${foyer.urls.api}/security/setCookie`, {
    method: 'POST',
    origin: foyer.urls.ui,
    headers: authorization ? { authorization } : {},
  });

describe('/security/setCookie and /security/handoverToApp', () => {
  it("sets the cookie for a valid access token, and the handover spends it once to go to the app's sign-in start", async () => {
    const browser = new Browser();
    const set = await setCookie(browser, `Bearer ${token}`);
    expect(set.status).toBe(204);
    expect(set.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    expect(set.headers.get('access-control-allow-credentials')).toBe('true');
    const line = set.headers.getSetCookie()[0]!;
    expect(line).toMatch(/^Authorization=/);
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/Path=\/security/);

    const back = await browser.request(`${foyer.urls.api}/security/handoverToApp`);
    expect(back.status).toBe(303);
    // The demo app registers the hosted callback: its sign-in start is the hosted home.
    expect(back.headers.get('location')).toBe(`${foyer.urls.ui}/?appId=${foyer.demo.appId}`);
    const again = await browser.request(`${foyer.urls.api}/security/handoverToApp`);
    expect(again.headers.get('location')).toBe(`${foyer.urls.ui}/auth/error?error=UNAUTHENTICATED`);
  });

  it('refuses a missing, forged or expired token with 401 and sets nothing', async () => {
    const person = foyer.demo.users[0]!;
    const membership = await findMembership(foyer.db, person.email, person.workspaces[0]!);
    const forged = await mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth, key: await foreignKey('forged') });
    const expired = await mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth, expiresIn: -60 });
    for (const authorization of [undefined, 'Bearer ', `Bearer ${forged}`, `Bearer ${expired}`, `Basic ${token}`]) {
      const answer = await setCookie(new Browser(), authorization);
      expect(answer.status).toBe(401);
      expect(await answer.json()).toMatchObject({ error: 'UNAUTHENTICATED' });
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
  });

  it('sends a handover with a forged cookie to the hosted error screen', async () => {
    const answer = await fetch(`${foyer.urls.api}/security/handoverToApp`, { redirect: 'manual', headers: { cookie: 'Authorization=not-a-token' } });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${foyer.urls.ui}/auth/error?error=UNAUTHENTICATED`);
  });
});
