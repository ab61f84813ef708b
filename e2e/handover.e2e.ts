// Hosted handover in a real Chromium against the real server (SPEC.md section 2): an app's back end
// turns a signed-in person's access token into a handover code for a PKCE challenge, and /handover/*
// with that code and its verifier opens the users screen signed in as the person, the code and the
// verifier gone from the address by the time the page has loaded; without a code the screen says so; the error flows land
// on their screens (the federated continue screen); an entryPoint on another origin is ignored; the
// Azure Marketplace landing continues through Microsoft. Every screen passes axe.
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apps } from '../server/db/schema.ts';
import { replaceApiKey } from '../server/apps/api-keys.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';
import { signInToWorkspace } from './support/sign-in.ts';

const suite = browserSuite(async (foyer) => {
  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({ settings: { ...app!.settings, azureAdSsoEnabled: true, tenantSelfSignup: true } })
    .where(eq(apps.id, foyer.demo.appId));
});
const ui = () => suite.foyer.urls.ui;

const encode = (args: unknown) => Buffer.from(JSON.stringify(args)).toString('base64');
const handover = (flow: string, args: unknown) =>
  `${ui()}/handover/go?${new URLSearchParams({ appId: suite.foyer.demo.appId, flow, args: encode(args) }).toString()}`;

describe('hosted handover', () => {
  it("opens the users screen as the person whose handover code the app's back end asked for", async () => {
    const { page } = suite;
    await signInToWorkspace(page, ui());
    const accessToken = await page.evaluate(() => localStorage.getItem('NB_OAUTH_ACCESS_TOKEN'));
    const apiKey = await replaceApiKey(suite.foyer.db, suite.foyer.demo.appId);
    const codeVerifier = randomBytes(32).toString('base64url');
    const answer = await fetch(`${suite.foyer.urls.auth}/handover/code/${suite.foyer.demo.appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ accessToken, codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url') }),
    });
    expect(answer.status).toBe(200);
    const { code } = (await answer.json()) as { code: string };

    const context = await suite.browser.newContext();
    try {
      // The address as it stands once the page's scripts have run (DOMContentLoaded waits for them).
      await context.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => document.documentElement.setAttribute('data-address-at-load', location.href));
      });
      const fresh = await context.newPage();
      const address = `${handover('user-management-users', { code })}#${new URLSearchParams({ codeVerifier }).toString()}`;
      await fresh.goto(address);
      const addressAtLoad = (await fresh.evaluate(() => document.documentElement.getAttribute('data-address-at-load')))!;
      const atLoad = new URL(addressAtLoad);
      expect(atLoad.searchParams.get('flow')).toBe('user-management-users');
      expect(atLoad.searchParams.has('args')).toBe(false);
      expect(atLoad.hash).toBe('');
      expect(addressAtLoad).not.toContain(codeVerifier);
      await fresh.waitForURL(`${ui()}/user-management/users`);
      await fresh.getByRole('table').waitFor();
      expect(await fresh.evaluate(() => localStorage.getItem('NB_OAUTH_REFRESH_TOKEN'))).toBeTruthy();
    } finally {
      await context.close();
    }
  });

  it('says "Can\'t init auth without a code" when a user-management handover brings none', async () => {
    const { page } = suite;
    await page.goto(handover('user-management-profile', {}));
    await page.getByText("Can't init auth without a code").waitFor();
    await expectNoAxeViolations(page);
  });

  it('lands a federated missing-user error on the continue screen, and a magic-link error on the login', async () => {
    const { page } = suite;
    await page.goto(handover('openidconnect', { errorDetails: { type: 'FEDERATION_MISSING_USER', federation: 'ms-azure-ad' } }));
    await page.waitForURL(`${ui()}/auth/signup?error=missing_user&federation=ms-azure-ad`);
    await page.getByRole('link', { name: 'Continue with Microsoft' }).waitFor();
    await page.goto(handover('openidconnect', { errorDetails: { type: 'MAGIC_LINK_EXPIRED' } }));
    await page.waitForURL(`${ui()}/auth/login?error=true&details=mle`);
    await page.getByText("The magic link has expired, or you're not using the same browser that you sent the link from.").waitFor();
  });

  it('takes the signup options to the signup screen, and never an entryPoint on another origin', async () => {
    const { page } = suite;
    await page.goto(handover('openidconnect_signup', { signupOptions: { plan: 'TEAM', currency: 'EUR', recurrenceInterval: 'month' } }));
    await page.waitForURL(`${ui()}/auth/signup?plan=TEAM&currency=EUR&recurrenceInterval=month`);
    for (const entryPoint of ['https://evil.test/phish', '//evil.test/phish', '/\\evil.test/phish']) {
      await page.goto(handover('openidconnect', { entryPoint }));
      await page.waitForURL(`${ui()}/auth/login`);
    }
    await page.goto(handover('openidconnect', { entryPoint: '/auth/magic-link' }));
    await page.waitForURL(`${ui()}/auth/magic-link`);
  });

  it('shows the marketplace landing, which continues through Microsoft', async () => {
    const { page } = suite;
    await page.goto(handover('ms-azure-marketplace-landing-page', {}));
    await page.waitForURL(`${ui()}/ms-marketplace-landing`);
    await page.getByRole('heading', { name: 'Your workspace is ready!' }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === suite.foyer.config.devIdp.url);
  });
});
