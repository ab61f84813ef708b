// The owners' configurator in a real Chromium against the real server: sign in through the hosted
// login as the demo owner, create an app by keyboard alone, edit it with the live preview, publish,
// restore. Every configurator screen passes axe (the API keys section: e2e/api-keys.e2e.ts).
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { messagesTo } from './support/mailbox.ts';
import { OWNER_EMAIL, signInToConsole } from './support/sign-in.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();

const ui = () => suite.foyer.urls.ui;

/** The accessible name of the focused element, roughly as a screen reader would read it. */
async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return '';
    const labelled = element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`)?.textContent : null;
    return (element.getAttribute('aria-label') ?? labelled ?? element.textContent ?? '').trim();
  });
}

/** Presses Tab until the element named `name` has the focus. */
async function tabTo(page: Page, name: string, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    if ((await focusedName(page)) === name) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}

/** Creates an app by keyboard alone from the apps list; answers its id and API key. */
async function createAppByKeyboard(page: Page, name: string): Promise<{ appId: string; apiKey: string }> {
  await page.getByRole('heading', { name: 'Apps' }).waitFor();
  await tabTo(page, 'Create app');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Create app' }).waitFor();
  await expectNoAxeViolations(page);
  await tabTo(page, 'App name');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: `${name} is ready` }).waitFor();
  const appId = await page.getByLabel('Application ID').inputValue();
  const apiKey = await page.getByLabel('API key').inputValue();
  expect(appId).not.toBe('');
  expect(apiKey).not.toBe('');
  return { appId, apiKey };
}

function preview(page: Page): FrameLocator {
  return page.frameLocator('iframe[title^="Preview of"]');
}

/** Waits until the runtime in the preview has applied the newest config. */
async function previewUpToDate(page: Page): Promise<void> {
  await page.getByText('The preview shows the latest edit.').waitFor({ timeout: 15_000 });
}

async function draftSaved(page: Page): Promise<void> {
  await page.getByText('All edits are saved as a draft. Publish to make them live.').waitFor({ timeout: 15_000 });
}

async function openSection(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'App settings' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 2, name }).waitFor();
}

async function primaryBackground(locator: ReturnType<Page['getByRole']>): Promise<string> {
  return locator.evaluate((element) => getComputedStyle(element).backgroundColor);
}

async function publish(page: Page, note: string): Promise<string[]> {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
  await dialog.waitFor();
  await dialog.getByText('These changes go live:').waitFor();
  await expectNoAxeViolations(page);
  const changes = await dialog.getByRole('listitem').allTextContents();
  await dialog.getByLabel('Note (optional)').fill(note);
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await dialog.waitFor({ state: 'detached' });
  return changes;
}

describe('configurator', () => {
  it('shows the signed-out page with sign-in and signup, and sends no frame permission', async () => {
    const response = await suite.page.goto(`${ui()}/configurator/apps`);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await suite.page.getByRole('heading', { name: 'Foyer console' }).waitFor();
    expect(await suite.page.title()).toBe('Sign in · Foyer console');
    const signup = suite.page.getByRole('link', { name: 'Create an account' });
    expect(await signup.getAttribute('href')).toBe(`${ui()}/auth/signup?appId=${suite.foyer.demo.consoleAppId}`);
    await expectNoAxeViolations(suite.page);
  });

  it('keeps its session apart from the runtime session, and signs out back to the signed-out page', async () => {
    const { page } = suite;
    await signInToConsole(page, ui());
    await page.getByRole('link', { name: 'Demo app' }).waitFor();
    const keys = () =>
      page.evaluate(() =>
        Object.keys(localStorage)
          .filter((key) => /TOKEN/.test(key))
          .sort(),
      );
    expect(await keys()).toEqual(['FOYER_CONSOLE_ID_TOKEN', 'FOYER_CONSOLE_OAUTH_ACCESS_TOKEN', 'FOYER_CONSOLE_OAUTH_REFRESH_TOKEN']);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${ui()}/configurator`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await keys()).toEqual([]);
  });

  it('takes an owner from nothing to a branded, translated, published login page and back', async () => {
    const { page } = suite;
    await signInToConsole(page, ui());
    await page.getByRole('link', { name: 'Demo app' }).waitFor();
    await expectNoAxeViolations(page);

    const { appId } = await createAppByKeyboard(page, 'Acme portal');
    await expectNoAxeViolations(page);

    // A first workspace, owned by the signed-in owner unless another address is given.
    await page.getByRole('button', { name: 'Create first workspace' }).click();
    await page.getByLabel('Workspace name').fill('Acme HQ');
    expect(await page.getByLabel('Owner e-mail').inputValue()).toBe(OWNER_EMAIL);
    const mailsBefore = (await messagesTo(ui(), OWNER_EMAIL)).length;
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText(`Acme HQ is ready. ${OWNER_EMAIL} gets an invitation by e-mail.`).waitFor();
    await expect.poll(async () => (await messagesTo(ui(), OWNER_EMAIL)).length, { timeout: 15_000 }).toBeGreaterThan(mailsBefore);

    await tabTo(page, 'Open app settings');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Sign-in options' }).waitFor();
    await previewUpToDate(page);
    await expectNoAxeViolations(page);

    const frame = preview(page);
    await frame.getByRole('heading', { name: 'Login' }).waitFor();
    // A new app starts with no social provider.
    expect(await frame.getByText('Sign in with Google').count()).toBe(0);
    // The runtime focuses its first field; inside the preview that must not take the editor's focus.
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('IFRAME');

    // Sign-in options: magic link on, Google on (the development provider serves it here), with the
    // redirect URI to register at Google shown.
    await page.getByRole('switch', { name: 'Magic link by e-mail' }).click();
    await page.getByRole('switch', { name: 'Sign in with Google' }).click();
    await frame.getByText('Email me a sign-in link').waitFor();
    await frame.getByText('Sign in with Google').waitFor();
    expect(await page.getByLabel('Google redirect URI').inputValue()).toBe(`${suite.foyer.urls.auth}/federated/google/callback`);

    // Branding: the primary colour.
    await openSection(page, 'Branding');
    await expectNoAxeViolations(page);
    await page.getByLabel('Primary colour', { exact: true }).fill('#006b47');
    await previewUpToDate(page);
    await expect.poll(() => primaryBackground(frame.getByRole('button', { name: 'Continue' }))).toBe('rgb(0, 107, 71)');

    // Signup fields: one more, shown on the previewed signup screen.
    await openSection(page, 'Signup fields');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Label users see').fill('Company size');
    await page.getByLabel('Type', { exact: true }).selectOption('integer');
    await page.getByRole('checkbox', { name: 'Required' }).check();
    await expectNoAxeViolations(page);
    const screen = page.getByLabel('Screen');
    await screen.focus();
    await screen.selectOption('signup');
    await frame.getByLabel('Company size').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('preview-screen');

    // A select field kept on the workspace: its choices show in the preview.
    await page.getByRole('button', { name: 'Add field' }).click();
    const team = page.getByRole('group', { name: /^Field 2:/ });
    await team.getByLabel('Label users see').first().fill('Team');
    await team.getByLabel('Type', { exact: true }).selectOption('select');
    const choice = team.getByRole('group', { name: 'Choice 1' });
    await choice.getByLabel('Label users see').fill('Sales');
    await choice.getByLabel('Value in your data').fill('sales');
    await team.getByLabel('Stored on').selectOption('tenant');
    await expectNoAxeViolations(page);
    await expect.poll(() => frame.getByLabel('Team').locator('option').allTextContents()).toEqual(['', 'Sales']);

    // Translations: the login heading, in English.
    await openSection(page, 'Translations');
    await page.getByLabel('Search texts').fill('login.heading');
    await page.getByLabel('login.heading', { exact: true }).fill('Welcome to Acme portal');
    await page.getByText('1 overridden, 0 missing').waitFor();
    await expectNoAxeViolations(page);
    await page.getByLabel('Screen').selectOption('login');
    await frame.getByRole('heading', { name: 'Welcome to Acme portal' }).waitFor();

    // The preview at phone width.
    await page.getByRole('radio', { name: 'Mobile' }).check();
    await expect
      .poll(() => page.locator('iframe[title^="Preview of"]').evaluate((element) => element.getBoundingClientRect().width))
      .toBeLessThan(400);
    await draftSaved(page);

    // The real login page still shows the published app.
    const real = await suite.context.newPage();
    await real.goto(`${ui()}/auth/login?appId=${appId}`);
    await real.getByRole('heading', { name: 'Login' }).waitFor();
    expect(await real.getByText('Sign in with Google').count()).toBe(0);
    expect(await real.getByText('Email me a sign-in link').count()).toBe(0);
    expect(await primaryBackground(real.getByRole('button', { name: 'Continue' }))).toBe('rgb(31, 66, 221)');

    const changes = await publish(page, 'Launch branding');
    expect(changes).toEqual(
      expect.arrayContaining([
        'Magic link sign-in enabled',
        'Google sign-in enabled',
        'Primary colour (none) → #006b47',
        '1 translation changed (en)',
        'Signup fields: 2 added',
      ]),
    );
    await page.getByText('Version 2 is live.').waitFor();

    await real.reload();
    await real.getByRole('heading', { name: 'Welcome to Acme portal' }).waitFor();
    await real.getByText('Email me a sign-in link').waitFor();
    await real.getByText('Sign in with Google').waitFor();
    await expect.poll(() => primaryBackground(real.getByRole('button', { name: 'Continue' }))).toBe('rgb(0, 107, 71)');
    await real.goto(`${ui()}/auth/signup?appId=${appId}`);
    await real.getByLabel('Company size').waitFor();

    // Versions: look at version 1, then restore it and publish it again.
    await openSection(page, 'Versions');
    await page.getByRole('heading', { level: 3, name: 'Version 2' }).waitFor();
    const versions = await page.locator('.console-version').allTextContents();
    expect(versions[0]).toContain('Live');
    expect(versions[0]).toContain(`By ${OWNER_EMAIL}`);
    expect(versions[0]).toContain('Launch branding');
    expect(versions[1]).toContain('Version 1');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Preview version 1' }).click();
    await page.getByRole('heading', { name: 'Preview of version 1' }).waitFor();
    await frame.getByRole('heading', { name: 'Login' }).waitFor();
    await page.getByRole('button', { name: 'Back to the draft' }).click();
    await frame.getByRole('heading', { name: 'Welcome to Acme portal' }).waitFor();

    await page.getByRole('button', { name: 'Restore version 1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Restore version 1?' });
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Version 1 is now the draft. Publish to make it live.').waitFor();
    await frame.getByRole('heading', { name: 'Login' }).waitFor();
    // Restoring put nothing live.
    await real.goto(`${ui()}/auth/login?appId=${appId}`);
    await real.getByRole('heading', { name: 'Welcome to Acme portal' }).waitFor();

    const revert = await publish(page, 'Back to the start');
    expect(revert).toEqual(expect.arrayContaining(['Magic link sign-in disabled', 'Google sign-in disabled']));
    await page.getByText('Version 3 is live.').waitFor();
    await real.reload();
    await real.getByRole('heading', { name: 'Login' }).waitFor();
    expect(await real.getByText('Sign in with Google').count()).toBe(0);
    expect(await real.getByText('Email me a sign-in link').count()).toBe(0);
    await real.close();
  });

  it('makes an app confidential from the keyboard: a client secret shown once, public keys checked as JSON', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 320, height: 800 });
    await signInToConsole(page, ui(), '/configurator/apps/new');
    await page.getByLabel('App name').fill('Server app');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('link', { name: 'Open app settings' }).click();
    await openSection(page, 'Application type');
    await page.getByText('A public app keeps no secret: it proves each sign-in with PKCE.').waitFor();
    await expectNoAxeViolations(page);

    await page.getByLabel('Application type').focus();
    await page.getByLabel('Application type').selectOption('confidential');
    await page.getByRole('button', { name: 'Create client secret' }).focus();
    await page.keyboard.press('Enter');
    const secret = await page.getByLabel('New client secret').inputValue();
    expect(secret).toMatch(/^fys_/);
    await page.getByText(/The current client secret was made/).waitFor();
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

    await page.getByLabel('Authentication method').selectOption('private_key_jwt');
    const keys = page.getByLabel('Public keys (JSON Web Key Set)');
    await keys.fill('{"keys": [');
    await page.getByText('This is not valid JSON yet.').waitFor();
    expect(await keys.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);
    await draftSaved(page);
  });

  it('shows refused values at their field and the status line, then saves the corrected ones', async () => {
    const { page } = suite;
    await signInToConsole(page, ui(), '/configurator/apps/new');
    // A redirect URI the server refuses: docs/SPEC.md's create-app error.
    await page.getByLabel('App name').fill('Refused app');
    await page.getByLabel('Redirect URI (optional)').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Create app' }).click();
    const failure = page
      .getByRole('alert')
      .filter({ hasText: 'There was an error when creating the app. Try again, otherwise contact support.' });
    await failure.waitFor();
    expect(await failure.textContent()).toContain('An error occured');
    await expectNoAxeViolations(page);

    await page.getByLabel('Redirect URI (optional)').fill('');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('link', { name: 'Open app settings' }).click();
    await openSection(page, 'Branding');

    await page.getByLabel('Primary colour', { exact: true }).fill('red;}body{x:y');
    await page.getByText('The latest edit was not saved: correct the marked fields.').waitFor({ timeout: 15_000 });
    const colour = page.getByLabel('Primary colour', { exact: true });
    expect(await colour.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);
    await colour.fill('#123456');
    await draftSaved(page);
    expect(await colour.getAttribute('aria-invalid')).toBeNull();

    await page.getByLabel('Custom CSS').fill('</style><script>alert(1)</script>');
    await page.getByText('The latest edit was not saved: correct the marked fields.').waitFor({ timeout: 15_000 });
    expect(await page.getByLabel('Custom CSS').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Custom CSS').fill('.foyer-card { border: 2px solid black; }');
    await draftSaved(page);

    // A logo that is not an image.
    await page
      .getByLabel('Upload a logo')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    await page.getByText('This file is not a PNG, JPEG, GIF or WebP image.').waitFor();
    await expectNoAxeViolations(page);
  });
});
