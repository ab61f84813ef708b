// Social sign-in in a real Chromium against the real server and the development identity provider
// (server/dev-idp), which stands in for every provider of an app without credentials: sign-up and
// sign-in with each of the six types, the continue screen after a login that found no account, an
// existing password account linked on a verified e-mail, and refused on an unverified one, and a
// signup on an unverified one held until the mailed link is opened. Every new screen passes axe.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { federatedIdentities, users } from '../server/db/schema.ts';
import { hashPassword } from '../server/auth/passwords.ts';
import type { AppSettings } from '../server/db/app-settings.ts';
import { federationTypes, type FederationType } from '../common/app-config.ts';
import { insertApp } from '../tests/server/support/apps.ts';
import { waitForMail } from '../tests/server/password/helpers.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

const NAMES: Record<FederationType, string> = {
  google: 'Google',
  'ms-azure-ad': 'Microsoft',
  apple: 'Apple',
  facebook: 'Facebook',
  github: 'GitHub',
  linkedin: 'LinkedIn',
};

const ALL_ON: AppSettings = {
  googleSsoEnabled: true,
  azureAdSsoEnabled: true,
  appleSsoEnabled: true,
  facebookSsoEnabled: true,
  githubSsoEnabled: true,
  linkedinSsoEnabled: true,
  tenantSelfSignup: true,
};

const suite = browserSuite();
const ui = () => suite.foyer.urls.ui;

function newApp(settings: AppSettings = {}) {
  return insertApp(suite.foyer, { name: 'Social shop', settings: { ...ALL_ON, ...settings } });
}

/** On the development provider's pick screen: chooses the identity and waits to be back on the hosted UI. */
async function pick(name: string, checkAxe = false) {
  const { page } = suite;
  await page.waitForURL((url) => url.origin === suite.foyer.config.devIdp.url);
  await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
  if (checkAxe) await expectNoAxeViolations(page);
  await page.getByRole('button', { name: `Continue as ${name}` }).click();
  await page.waitForURL((url) => url.origin === ui());
}

async function signedInHome(name: string) {
  const { page } = suite;
  await page.waitForURL(`${ui()}/`);
  await page.getByText('You are signed in').waitFor();
  await page.getByText(name, { exact: true }).waitFor();
}

describe('social sign-in through the development identity provider', () => {
  it.each(federationTypes)('%s: signs up from the signup screen, then signs in from the login screen', async (type) => {
    const { page } = suite;
    const appId = await newApp();
    await page.goto(`${ui()}/auth/signup?appId=${appId}`);
    const signUp = page.getByRole('link', { name: `Sign up with ${NAMES[type]}` });
    await signUp.waitFor();
    expect(await page.getByRole('link', { name: /^Sign up with / }).count()).toBe(6);
    if (type === 'google') await expectNoAxeViolations(page);
    await signUp.click();
    await pick('Ada Lovelace', type === 'google');
    // A new account with its own workspace, signed in to the app's home as its owner, with the
    // provider's names (so onboarding has nothing to ask of the person).
    await signedInHome('Ada Lovelace');
    const [user] = await suite.foyer.db.select().from(users).where(eq(users.appId, appId));
    expect(user).toMatchObject({ email: 'ada@dev-idp.foyer.test', firstName: 'Ada', lastName: 'Lovelace' });

    const context = await suite.browser.newContext();
    try {
      const fresh = await context.newPage();
      await fresh.goto(`${ui()}/auth/login?appId=${appId}`);
      const signIn = fresh.getByRole('link', { name: `Sign in with ${NAMES[type]}` });
      await signIn.click();
      await fresh.waitForURL((url) => url.origin === suite.foyer.config.devIdp.url);
      await fresh.getByRole('button', { name: 'Continue as Ada Lovelace' }).click();
      await fresh.waitForURL(`${ui()}/`);
      await fresh.getByText('You are signed in').waitFor();
    } finally {
      await context.close();
    }
  });

  it('offers only the provider a login came back with on the continue screen, and creates the account from there', async () => {
    const { page } = suite;
    const appId = await newApp();
    await page.goto(`${ui()}/auth/login?appId=${appId}`);
    await page.getByRole('link', { name: 'Sign in with Microsoft' }).click();
    await pick('Grace Hopper');
    await page.waitForURL(`${ui()}/auth/signup?error=missing_user&federation=ms-azure-ad`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(await page.getByRole('link', { name: /with / }).allTextContents()).toEqual(['Continue with Microsoft']);
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).not.toBe('');
    await page.getByRole('link', { name: 'Continue with Microsoft' }).click();
    await pick('Grace Hopper');
    await signedInHome('Grace Hopper');
    const [identity] = await suite.foyer.db.select().from(federatedIdentities).where(eq(federatedIdentities.appId, appId));
    expect(identity).toMatchObject({ provider: 'ms-azure-ad', subject: 'dev-grace' });
  });

  it('links an existing password account on a verified e-mail, and refuses to on an unverified one', async () => {
    const { page } = suite;
    const appId = await newApp();
    const passwordHash = await hashPassword('A-password-for-linking-1');
    await suite.foyer.db.insert(users).values([
      { id: randomUUID(), appId, email: 'ada@dev-idp.foyer.test', passwordHash, onboarded: true },
      { id: randomUUID(), appId, email: 'una@dev-idp.foyer.test', passwordHash, onboarded: true },
    ]);

    await page.goto(`${ui()}/auth/login?appId=${appId}`);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await pick('Una Unverified');
    await page.waitForURL(/\/auth\/login/);
    await page
      .getByText('The provider has not verified this e-mail address, so it cannot be used to sign in or sign up here.', { exact: false })
      .waitFor();
    await expectNoAxeViolations(page);

    await page.getByRole('link', { name: 'Sign in with Google' }).click();
    await pick('Ada Lovelace');
    // Linked and signed in: the account has no workspace, so the picker says so.
    await page.getByText('No workspace found!').waitFor();
    const linked = await suite.foyer.db.select().from(federatedIdentities).where(eq(federatedIdentities.appId, appId));
    expect(linked).toMatchObject([{ provider: 'google', subject: 'dev-ada' }]);
  });

  it('holds a social signup on an e-mail the provider does not vouch for until the mailed link is opened in the same browser', async () => {
    const { page } = suite;
    const appId = await newApp();
    await page.goto(`${ui()}/auth/signup?appId=${appId}`);
    await page.getByRole('link', { name: 'Sign up with GitHub' }).click();
    await pick('Una Unverified');
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText('We sent a link to una@dev-idp.foyer.test to finish signing up. Open it in this browser.').waitFor();
    await expectNoAxeViolations(page);
    expect(await suite.foyer.db.select().from(users).where(eq(users.appId, appId))).toEqual([]);

    const [mail] = await waitForMail(suite.foyer, 'una@dev-idp.foyer.test');
    expect(mail!.kind).toBe('federated-signup');
    await page.goto(mail!.link);
    await signedInHome('Una Unverified');
    const [user] = await suite.foyer.db.select().from(users).where(eq(users.appId, appId));
    expect(user!.emailVerifiedAt).not.toBeNull();
  });

  it('shows no social buttons to an app in legacy mode', async () => {
    const { page } = suite;
    const appId = await newApp({ authLegacy: true });
    await page.goto(`${ui()}/auth/login?appId=${appId}`);
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    expect(await page.getByRole('link', { name: /^Sign in with / }).count()).toBe(0);
  });
});
