// Magic links on the auth service: identical answers for known and unknown e-mails, a link that works
// once, for 15 minutes, in the asking browser only, and continues like a password login.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { and, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, auditEvents, outbox, tenants, userTokens, users } from '../../../server/db/schema.ts';
import { hashToken } from '../../../server/auth/tokens/service.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import { Browser } from '../oidc/browser.ts';
import { authorizationRequest, callbackUri, relyingParty, workspaces } from '../oidc/sign-in.ts';
import { call, createMember, mailTo, observable, tokenOf, waitForMail } from '../password/helpers.ts';

let foyer: TestFoyer;
let mle: string;

beforeAll(async () => {
  foyer = await startFoyer({ trustProxy: ['127.0.0.1'] });
  mle = `${foyer.urls.ui}/auth/login?error=true&errorDetails=mle`;
});

afterAll(async () => {
  await foyer?.close();
});

/** Asks for a magic link from `browser` and answers the link once the mail is there. */
async function magicLink(browser: Browser, email: string, ip: string): Promise<string> {
  const before = (await mailTo(foyer, email)).length;
  const answer = await call(foyer, browser, 'POST', '/auth/magic-link', { username: email }, { ip });
  expect(answer.status).toBe(200);
  const mail = await waitForMail(foyer, email, before + 1);
  expect(mail.at(-1)!.kind).toBe('magic-link');
  return mail.at(-1)!.link;
}

/** Opens a link as a full page and follows the auth origin's redirects until another origin. */
async function open(browser: Browser, link: string) {
  return browser.navigate(link, (url) => url.origin !== foyer.urls.auth);
}

async function withSettings(change: Partial<AppSettings>, run: () => Promise<void>) {
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({ settings: { ...app!.settings, ...change } })
    .where(eq(apps.id, foyer.demo.appId));
  try {
    await run();
  } finally {
    await foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, foyer.demo.appId));
  }
}

describe('asking for a magic link', () => {
  it('answers known and unknown e-mails identically and mails only the known one', async () => {
    const member = await createMember(foyer);
    const unknown = 'nobody-magic@members.foyer.test';
    const unknownAnswer = await call(foyer, new Browser(), 'POST', '/auth/magic-link', { username: unknown }, { ip: '10.3.0.1' });
    const knownAnswer = await call(foyer, new Browser(), 'POST', '/auth/magic-link', { username: member.email }, { ip: '10.3.0.1' });
    const known = await observable(knownAnswer);
    expect(known).toEqual(await observable(unknownAnswer));
    expect(known.status).toBe(200);
    expect(JSON.parse(known.body)).toEqual({ expiresIn: 900 });
    // A browser without a login session gets one: the link will work only there.
    expect(known.headers.some((header) => header.startsWith('set-cookie: foyer_login='))).toBe(true);

    const [mail] = await waitForMail(foyer, member.email);
    expect(mail!.link).toMatch(new RegExp(`^${foyer.urls.auth}/auth/magic-link/[\\w-]{43}$`));
    expect(await mailTo(foyer, unknown)).toEqual([]);
    const [sent] = await foyer.db.select().from(outbox).where(eq(outbox.recipient, member.email));
    expect(sent!.text).toContain('The link works once and is valid for 15 minutes.');
    const [row] = await foyer.db
      .select()
      .from(userTokens)
      .where(eq(userTokens.idHash, hashToken(tokenOf(mail!.link))));
    expect((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 1000).toBeCloseTo(900, -2);
  });

  it('rate-limits 20 rapid requests for one address, alike for unknown e-mails', async () => {
    const member = await createMember(foyer);
    const rapid = async (email: string, ip: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i += 1)
        statuses.push((await call(foyer, new Browser(), 'POST', '/auth/magic-link', { username: email }, { ip })).status);
      return statuses;
    };
    const forKnown = await rapid(member.email, '10.3.1.1');
    expect(forKnown).toContain(429);
    expect(forKnown.filter((status) => status === 200)).toHaveLength(5);
    expect(await rapid('ghost-magic@members.foyer.test', '10.3.1.2')).toEqual(forKnown);
    expect(await waitForMail(foyer, member.email, 5)).toHaveLength(5);

    // All at once: writing each request before counting it keeps a burst from slipping through.
    const burstMember = await createMember(foyer);
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(foyer, new Browser(), 'POST', '/auth/magic-link', { username: burstMember.email }, { ip: `10.3.2.${i}` }).then(
          (answer) => answer.status,
        ),
      ),
    );
    expect(burst).toContain(429);
    expect(burst.filter((status) => status === 200).length).toBeGreaterThan(0);
    expect(burst.filter((status) => status === 200).length).toBeLessThanOrEqual(5);
  });

  it('is refused alike for every e-mail when the app has magic links off', async () => {
    const member = await createMember(foyer);
    const browser = new Browser();
    const link = await magicLink(browser, member.email, '10.3.3.1');
    await withSettings({ magicLinkEnabled: false }, async () => {
      const answers = [];
      for (const username of [member.email, 'ghost-off@members.foyer.test']) {
        const answer = await call(foyer, new Browser(), 'POST', '/auth/magic-link', { username }, { ip: '10.3.3.2' });
        expect(answer.status).toBe(403);
        answers.push(await answer.json());
      }
      expect(answers[0]).toEqual({ statusCode: 403, error: 'MAGIC_LINK_DISABLED', message: 'Magic links are not enabled for this app' });
      expect(answers[1]).toEqual(answers[0]);
      // A link sent before magic links were switched off no longer signs in.
      expect((await open(browser, link)).url).toBe(mle);
    });
  });

  it('refuses bad input with 400 and a code', async () => {
    const browser = new Browser();
    const missing = await call(foyer, browser, 'POST', '/auth/magic-link', {}, { ip: '10.3.4.1' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ statusCode: 400, error: 'BAD_REQUEST', message: "body must have required property 'username'" });
    const malformed = await call(foyer, browser, 'POST', '/auth/magic-link', { username: 'nope' }, { ip: '10.3.4.1' });
    expect(await malformed.json()).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
    const noApp = await call(foyer, browser, 'POST', '/auth/magic-link', { username: 'a@b.test' }, { appId: null, ip: '10.3.4.1' });
    expect(await noApp.json()).toMatchObject({ statusCode: 400, error: 'APP_REQUIRED' });
    // A mangled link is one that no longer works: the login with the expired-link message.
    const oddToken = await browser.request(`${foyer.urls.auth}/auth/magic-link/not.a.token`);
    expect(oddToken.status).toBe(303);
    expect(oddToken.headers.get('location')).toBe(`${foyer.urls.ui}/auth/login?error=true&errorDetails=mle`);
  });
});

describe('opening a magic link', () => {
  it('signs in the browser that asked and hands the pending authorization back to the app', async () => {
    const member = await createMember(foyer, { workspaces: ['Globex'] });
    const rp = await relyingParty(foyer);
    const pending = await authorizationRequest(rp, callbackUri(foyer));
    const browser = new Browser();
    expect((await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui)).url).toBe(
      `${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`,
    );

    const link = await magicLink(browser, member.email, '10.4.0.1');
    const landing = await open(browser, link);
    expect(landing.hops[0]!.location).toBe(`/auth/chooseTenantUser/${member.memberships.Globex}`);
    expect(landing.url.startsWith(`${callbackUri(foyer)}?code=`)).toBe(true);
    const tokens = await client.authorizationCodeGrant(rp, new URL(landing.url), {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
    });
    expect(tokens.claims()?.sub).toBe(member.memberships.Globex);

    const [user] = await foyer.db.select().from(users).where(eq(users.id, member.userId));
    expect(user!.emailVerifiedAt).toBeInstanceOf(Date);
    const [success] = await foyer.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'login.success'), eq(auditEvents.userId, member.userId)));
    expect(success!.detail).toEqual({ username: member.email, method: 'magic-link' });

    // Used once: opening it again, even in the same browser, fails.
    expect((await open(browser, link)).url).toBe(mle);
  });

  it('goes to the workspace picker without a pending authorization', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme', 'Globex'] });
    const browser = new Browser();
    const landing = await open(browser, await magicLink(browser, member.email, '10.4.1.1'));
    expect(landing.url).toBe(`${foyer.urls.ui}/auth/choose-user`);
    expect((await workspaces(foyer, browser)).map((workspace) => workspace.tenant.name)).toEqual(['Acme', 'Globex']);
  });

  it('fails in another browser without spending the link', async () => {
    const member = await createMember(foyer);
    const asking = new Browser();
    const link = await magicLink(asking, member.email, '10.4.2.1');

    // No login session at all, and another browser's own login session.
    expect((await open(new Browser(), link)).url).toBe(mle);
    const other = new Browser();
    await call(foyer, other, 'POST', '/auth/magic-link', { username: 'someone-else@members.foyer.test' }, { ip: '10.4.2.2' });
    expect(other.cookie(foyer.urls.auth, 'foyer_login')).toBeDefined();
    expect((await open(other, link)).url).toBe(mle);
    expect((await other.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);

    // Its one workspace is chosen at once; no authorization request waits, so the app's sign-in start takes over.
    expect((await open(asking, link)).url).toBe(`${foyer.urls.ui}/?appId=${foyer.demo.appId}`);
  });

  it('fails once expired or replaced by a newer link', async () => {
    const member = await createMember(foyer);
    const browser = new Browser();
    const older = await magicLink(browser, member.email, '10.4.3.1');
    const newer = await magicLink(browser, member.email, '10.4.3.1');
    expect((await open(browser, older)).url).toBe(mle);
    await foyer.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.idHash, hashToken(tokenOf(newer))));
    expect((await open(browser, newer)).url).toBe(mle);
    expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
  });

  it('continues to two-factor setup when a workspace requires it', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    await foyer.db.update(tenants).set({ mfa: true }).where(eq(tenants.name, 'Acme'));
    try {
      const browser = new Browser();
      const landing = await open(browser, await magicLink(browser, member.email, '10.4.4.1'));
      expect(landing.url).toBe(`${foyer.urls.ui}/auth/mfa/setup`);
      expect((await browser.request(`${foyer.urls.auth}/auth/tenantUsers`)).status).toBe(401);
    } finally {
      await foyer.db.update(tenants).set({ mfa: false }).where(eq(tenants.name, 'Acme'));
    }
  });
});
