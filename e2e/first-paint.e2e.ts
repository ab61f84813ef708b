// The server's first paint of the hosted screens (src/ssr/render.tsx, server/ui/first-paint.ts): the
// first step of a flow's route arrives drawn, branded, in the visitor's language and with the app
// config and texts inlined; the runtime hydrates it without a mismatch, and what a person types
// before the JavaScript runs is what gets submitted.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ConsoleMessage, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../common/locales.ts';
import { apps } from '../server/db/schema.ts';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

const HOSTILE = '</script><script>window.__injected = true</script><b>';
const HOSTILE_APP_ID = 'first-paint-hostile';
const SECOND_APP_ID = 'first-paint-second';
const SIGNUP_APP_ID = 'first-paint-signup';

const suite = browserSuite(async (foyer) => {
  // An app of its own whose name, footer and texts try to break out of the page's markup and JSON.
  const [demo] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db.insert(apps).values({
    ...demo!,
    id: HOSTILE_APP_ID,
    name: `Hostile ${HOSTILE}`,
    settings: {
      ...demo!.settings,
      branding: { ...demo!.settings.branding, copyrightFooter: `© ${HOSTILE}` },
      translations: { en: { login: { heading: `Hello ${HOSTILE}` } } },
      languages: ['en', 'de'],
      defaultLanguage: 'en',
      tenantSelfSignup: false,
    },
    createdAt: new Date(),
  });
  // Another app in German only, for the address that loses its ?appId.
  await foyer.db.insert(apps).values({
    ...demo!,
    id: SECOND_APP_ID,
    name: 'Second app',
    settings: { ...demo!.settings, languages: ['de'], defaultLanguage: 'de' },
    createdAt: new Date(),
  });
  // An app whose signup asks for a field of its own.
  await foyer.db.insert(apps).values({
    ...demo!,
    id: SIGNUP_APP_ID,
    name: 'Signup app',
    settings: {
      ...demo!.settings,
      tenantSelfSignup: true,
      customSignupFields: [{ label: 'companySize', type: 'integer', userLabel: 'Company size', required: true }],
    },
    createdAt: new Date(),
  });
});

const loginUrl = (query = '') => `${suite.foyer.urls.ui}/auth/login${query}`;

async function pageHtml(url: string, headers: Record<string, string> = {}): Promise<{ status: number; html: string }> {
  const response = await fetch(url, { headers: { accept: 'text/html', ...headers } });
  return { status: response.status, html: await response.text() };
}

/** The first paint's data the page carries. */
function firstPaintOf(html: string): Record<string, unknown> {
  const match = /<script id="foyer-first-paint" type="application\/json">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error('the page carries no first paint');
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

/** Console errors and uncaught exceptions (React reports a hydration mismatch as one) of `page` from now on. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Holds the requests for `address` until the returned function is called. */
async function holdBack(page: Page, address: RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(address, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The runtime's entry chunk (src/main.tsx). */
const RUNTIME_ENTRY = /\/assets\/main-[\w-]+\.js$/;

describe('the first paint of the hosted screens', () => {
  it('draws the login step on the server, in the language the browser asks for, with the app config and texts inlined', async () => {
    const response = await fetch(loginUrl(), { headers: { accept: 'text/html', 'accept-language': 'de-CH,de;q=0.9,en;q=0.5' } });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<title>Anmelden · Demo app</title>');
    expect(html).toMatch(/<h1 id="foyer-heading"[^>]*>Anmelden<\/h1>/);
    expect(html).toMatch(/<input type="email" id="root_email"/);
    // Foyer's stylesheet and the app's are in the page, each allowed by its hash in the CSP: nothing to fetch before the first paint.
    expect(html).toMatch(/<style>[^<]*\.foyer-card/);
    expect(html).toContain('<style id="foyer-custom-css">');
    const styleSources = /(?:^|;)style-src ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '')?.[1]?.split(' ') ?? [];
    const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map(([, text]) => text!);
    expect(styles).toHaveLength(2);
    for (const text of styles) expect(styleSources).toContain(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
    expect(html).not.toMatch(/<link rel="stylesheet"(?! href="[^"]+" type="text\/plain">)/);
    // The language switch is off until the runtime hydrates it, so it is drawn with the page's language only.
    expect(html.match(/<option [^>]*>[^<]*<\/option>/g)).toEqual(['<option value="de" lang="de" dir="ltr" selected="">Deutsch</option>']);
    const data = firstPaintOf(html);
    expect(data).toMatchObject({
      appId: suite.foyer.demo.appId,
      language: 'de',
      rendered: true,
      appConfig: { status: 'ready', app: { name: 'Demo app' } },
    });
    expect((data.texts as { login: { title: string } }).login.title).toBe('Anmelden');
  });

  it('hydrates the drawn page without a mismatch, and the form works as before, at 320 px too', async () => {
    const errors = collectErrors(suite.page);
    const requests: string[] = [];
    suite.page.on('request', (request) => requests.push(request.url()));
    await suite.page.setViewportSize({ width: 320, height: 640 });
    await suite.page.goto(loginUrl());
    const email = suite.page.getByLabel('Email');
    const submit = suite.page.getByRole('button', { name: 'Continue' });
    // Hydrated and started: the button follows the field.
    await email.fill('someone@example.com');
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await email.fill('');
    await expect.poll(() => submit.isDisabled()).toBe(true);
    await expectNoAxeViolations(suite.page);
    // The inline stylesheets applied (a refused one would also be a console error).
    expect(await suite.page.locator('.foyer-card').evaluate((card) => getComputedStyle(card).borderTopLeftRadius)).not.toBe('0px');
    // Nothing was fetched that the page carried: not the config, the overrides, the English texts or the stylesheet.
    expect(
      requests.filter(
        (url) =>
          url.includes('/graphql') ||
          url.endsWith('/translations.json') ||
          /\/assets\/en-[\w-]+\.js$/.test(url) ||
          /\/assets\/[\w-]+\.css$/.test(url),
      ),
    ).toEqual([]);
    // Hydrated, the language switch offers every language.
    expect(await suite.page.getByLabel('Language').locator('option').count()).toBe(SUPPORTED_LOCALES.length);
    expect(errors).toEqual([]);

    await email.focus();
    await suite.page.keyboard.type(suite.foyer.demo.users[0]!.email);
    await suite.page.keyboard.press('Enter');
    await suite.page.getByLabel('Password').waitFor();
    expect(errors).toEqual([]);
  });

  it('keeps what a person typed before the JavaScript ran and submits it', async () => {
    const errors = collectErrors(suite.page);
    const release = await holdBack(suite.page, RUNTIME_ENTRY);
    await suite.page.goto(loginUrl(), { waitUntil: 'commit' });
    const email = suite.page.getByLabel('Email');
    await email.waitFor();
    const typed = suite.foyer.demo.users[0]!.email;
    await email.click();
    await suite.page.keyboard.type(typed);
    // Hydration takes over the server's elements; drawing afresh would replace them (and what was typed).
    await suite.page.evaluate(() =>
      document.querySelectorAll<HTMLElement>('#root_email, #foyer-heading').forEach((element) => (element.dataset.drawn = 'server')),
    );
    const sent = suite.page.waitForRequest((request) => request.method() === 'POST' && (request.postData() ?? '').includes(typed));
    release();
    const submit = suite.page.getByRole('button', { name: 'Continue' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    expect(await email.inputValue()).toBe(typed);
    expect(await suite.page.locator('[data-drawn="server"]').count()).toBe(2);
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.id)).toBe('root_email');
    await submit.click();
    expect((await sent).postData()).toContain(typed);
    await suite.page.getByLabel('Password').waitFor();
    expect(errors).toEqual([]);
  });

  it('hydrates the login step without React Router, whose screens take over at the first move to another path', async () => {
    const errors = collectErrors(suite.page);
    // React Router and every other screen: held back, the drawn step hydrates and moves between its steps all the same.
    let releaseRouter!: () => void;
    const routerReleased = new Promise<void>((resolve) => (releaseRouter = resolve));
    let routerAsked = false;
    await suite.page.route(/\/assets\/routed-screens-[\w-]+\.js$/, async (route: Route) => {
      routerAsked = true;
      await routerReleased;
      await route.continue();
    });
    await suite.page.goto(loginUrl());
    await suite.page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
    const email = suite.page.getByLabel('Email');
    const typed = suite.foyer.demo.users[0]!.email;
    await email.fill(typed);
    await expect.poll(() => suite.page.getByRole('button', { name: 'Continue' }).isEnabled()).toBe(true);
    await suite.page.keyboard.press('Enter');
    await suite.page.waitForURL(loginUrl('?step=PASSWORD'));
    await suite.page.getByLabel('Password').waitFor();
    // Back and Forward move between the drawn flow's steps, answers kept.
    await suite.page.goBack();
    await suite.page.waitForURL(loginUrl());
    await expect.poll(() => email.inputValue()).toBe(typed);
    await suite.page.goForward();
    await suite.page.getByLabel('Password').waitFor();
    // Asked for once the step was hydrated, not before: the page preloads only the first step's chunks.
    expect(routerAsked).toBe(true);
    releaseRouter();

    // A move to another path hands over to the router, in the same document, with the navigation's state.
    await suite.page.getByRole('button', { name: 'Forgot password?' }).click();
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/auth/reset-password`);
    await expect.poll(() => suite.page.getByLabel('Email').inputValue()).toBe(typed);
    await suite.page.goBack();
    await suite.page.waitForURL(loginUrl('?step=PASSWORD'));
    await suite.page.getByRole('heading', { level: 1 }).waitFor();
    expect(await suite.page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await expectNoAxeViolations(suite.page);
    expect(errors).toEqual([]);
  });

  it("hydrates the drawn step with the page's own texts, i18next loaded after, which then switches the language", async () => {
    const errors = collectErrors(suite.page);
    // i18next: held back, the drawn step hydrates and works in the drawn language all the same.
    const release = await holdBack(suite.page, /\/assets\/i18next-[\w-]+\.js$/);
    let i18nextAsked = false;
    suite.page.on('request', (request) => {
      if (/\/assets\/i18next-[\w-]+\.js$/.test(request.url())) i18nextAsked = true;
    });
    await suite.page.goto(loginUrl('?lng=de'));
    const email = suite.page.getByLabel('E-Mail-Adresse');
    await email.fill(suite.foyer.demo.users[0]!.email);
    await expect.poll(() => suite.page.getByRole('button', { name: 'Weiter' }).isEnabled()).toBe(true);
    expect(await suite.page.getByRole('heading', { level: 1 }).textContent()).toBe('Anmelden');
    // Asked for once the step was hydrated: the page's texts drew it meanwhile.
    await expect.poll(() => i18nextAsked).toBe(true);
    release();

    // Once i18next is in, the language switch shows the screen in another language, keeping what was typed.
    await suite.page.getByLabel('Sprache').selectOption({ label: 'English' });
    await expect.poll(() => suite.page.getByRole('heading', { level: 1 }).textContent()).toBe('Login');
    expect(await suite.page.getByLabel('Email').inputValue()).toBe(suite.foyer.demo.users[0]!.email);
    expect(errors).toEqual([]);
  });

  it("follows the drawn step's links in the same document, and leaves a modified click to the browser", async () => {
    const errors = collectErrors(suite.page);
    await suite.page.goto(loginUrl(`?appId=${SIGNUP_APP_ID}`));
    await suite.page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
    const signUp = suite.page.getByRole('link', { name: 'Sign up' });
    expect(await signUp.getAttribute('href')).toBe('/auth/signup');
    // Hydrated: the field drives the button.
    await suite.page.getByLabel('Email').fill('someone@example.com');
    await expect.poll(() => suite.page.getByRole('button', { name: 'Continue' }).isEnabled()).toBe(true);
    const opened = suite.page.context().waitForEvent('page');
    await signUp.click({ modifiers: ['Control'] });
    const tab = await opened;
    await tab.waitForURL(`${suite.foyer.urls.ui}/auth/signup`);
    await tab.close();
    expect(suite.page.url()).toBe(loginUrl());

    await signUp.click();
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/auth/signup`);
    await suite.page.getByRole('button', { name: 'Sign up' }).waitFor();
    await suite.page.goBack();
    await suite.page.waitForURL(loginUrl());
    await suite.page.getByLabel('Email').waitFor();
    expect(await suite.page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('follows a drawn link clicked before the runtime started, on an address that names the app', async () => {
    const errors = collectErrors(suite.page);
    // The runtime's start is held back, and so is the next page, so that the runtime starts while the
    // click's navigation waits for its answer.
    const releaseStart = await holdBack(suite.page, /\/assets\/start-[\w-]+\.js$/);
    const releaseSignup = await holdBack(suite.page, /\/auth\/signup$/);
    // Asked for once the drawn step is hydrated.
    const hydrated = suite.page.waitForRequest(/\/assets\/routed-screens-[\w-]+\.js$/);
    await suite.page.goto(loginUrl(`?appId=${SIGNUP_APP_ID}`), { waitUntil: 'domcontentloaded' });
    await suite.page.getByRole('link', { name: 'Sign up' }).click({ noWaitAfter: true });
    releaseStart();
    await hydrated;
    releaseSignup();
    await suite.page.waitForURL(`${suite.foyer.urls.ui}/auth/signup`);
    await suite.page.getByRole('button', { name: 'Sign up' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('leaves a person who scrolled the drawn page, or moved focus in it, where they are once the runtime starts', async () => {
    const errors = collectErrors(suite.page);
    await suite.page.setViewportSize({ width: 320, height: 480 });
    const signupUrl = `${suite.foyer.urls.ui}/auth/signup?appId=${SIGNUP_APP_ID}`;
    // The form hydrates in a boundary of its own, once its chunk is in: React then keeps its node in the
    // drawn field, and the step's effects have run by the frame after next.
    const formHydrated = async () => {
      await expect
        .poll(() =>
          suite.page.evaluate(() => Object.keys(document.querySelector('#root_email') ?? {}).some((key) => key.startsWith('__reactFiber'))),
        )
        .toBe(true);
      await suite.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    };
    const drawnAndHeldBack = async () => {
      const release = await holdBack(suite.page, RUNTIME_ENTRY);
      await suite.page.goto(signupUrl, { waitUntil: 'commit' });
      await suite.page.getByRole('link', { name: 'Log in' }).waitFor();
      return release;
    };

    // Scrolled down to the link under the form: taking focus to the first field would scroll back up.
    let release = await drawnAndHeldBack();
    await suite.page.getByRole('link', { name: 'Log in' }).scrollIntoViewIfNeeded();
    const scrolled = await suite.page.evaluate(() => globalThis.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    release();
    await formHydrated();
    expect(await suite.page.evaluate(() => [globalThis.scrollY, document.activeElement?.tagName])).toEqual([scrolled, 'BODY']);

    // Tabbed to a link: it keeps the focus.
    release = await drawnAndHeldBack();
    for (let press = 0; press < 40 && !(await suite.page.evaluate(() => document.activeElement?.textContent === 'Log in')); press++) {
      await suite.page.keyboard.press('Tab');
    }
    release();
    await formHydrated();
    expect(await suite.page.evaluate(() => document.activeElement?.textContent)).toBe('Log in');

    // Nothing done before it started: the first field has the focus, at the top of the page.
    await suite.page.goto(signupUrl);
    await formHydrated();
    await expect.poll(() => suite.page.evaluate(() => document.activeElement?.id)).toBe('root_email');
    expect(await suite.page.evaluate(() => globalThis.scrollY)).toBe(0);
    expect(errors).toEqual([]);
  });

  it('revalidates the drawn page on a reload: answered 304, the copy the browser kept is drawn and hydrated', async () => {
    // A page of its own: the earlier tests' request routes would keep the browser's cache out of the way.
    const page = await suite.context.newPage();
    try {
      const errors = collectErrors(page);
      const first = await page.goto(loginUrl('?revalidated=1'));
      expect(first!.status()).toBe(200);
      await page.getByLabel('Email').waitFor();
      const reloaded = await page.reload();
      // Asked with the page's tag, answered with the 304's headers only (Chromium reports the copy it kept as 200).
      expect(await reloaded!.request().headerValue('if-none-match')).toBe(await first!.headerValue('etag'));
      expect(await reloaded!.headerValue('etag')).toBe(await first!.headerValue('etag'));
      expect(await reloaded!.headerValue('content-type')).toBeNull();
      await page.getByLabel('Email').fill('someone@example.com');
      await expect.poll(() => page.getByRole('button', { name: 'Continue' }).isEnabled()).toBe(true);
      expect(await page.locator('.foyer-card').evaluate((card) => getComputedStyle(card).borderTopLeftRadius)).not.toBe('0px');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('draws a clear page for an unknown app id, never a 500', async () => {
    const { status, html } = await pageHtml(loginUrl('?appId=no-such-app'));
    expect(status).toBe(200);
    expect(html).toMatch(/<h1 id="foyer-heading"[^>]*>Unknown App Id<\/h1>/);
    expect(firstPaintOf(html)).toMatchObject({ appId: 'no-such-app', appConfig: { status: 'unknown-app' }, rendered: true });
    expect(html).not.toContain('Demo app');

    const errors = collectErrors(suite.page);
    await suite.page.goto(loginUrl('?appId=no-such-app'));
    await suite.page.getByRole('heading', { name: 'Unknown App Id' }).waitFor();
    await expect.poll(() => suite.page.title()).toContain('Unknown App Id');
    expect(errors).toEqual([]);
  });

  it('falls back from a language that does not exist as the runtime does', async () => {
    const { html } = await pageHtml(loginUrl('?lng=xx-YY'), { 'accept-language': 'xx, fr;q=0.5' });
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(firstPaintOf(html)).toMatchObject({ language: 'fr', rendered: true });
    const { html: chosen } = await pageHtml(loginUrl('?lng=sv'), { 'accept-language': 'fr' });
    expect(chosen).toContain('<html lang="sv" dir="ltr">');
  });

  it("escapes an app's name, footer and texts, and carries nothing of another app", async () => {
    const { status, html } = await pageHtml(loginUrl(`?appId=${HOSTILE_APP_ID}`), { 'accept-language': 'en' });
    expect(status).toBe(200);
    expect(html).not.toContain('<script>window.__injected');
    expect(html).toContain('\\u003c/script>\\u003cscript>window.__injected');
    const data = firstPaintOf(html);
    expect(data).toMatchObject({ appId: HOSTILE_APP_ID, appConfig: { app: { name: `Hostile ${HOSTILE}` } } });
    expect(data.translations).toEqual({ en: { login: { heading: `Hello ${HOSTILE}` } } });
    expect(html).not.toContain('Demo app');
    // The deployment's default app is in the client config (#foyer-config); the first paint is the asked app's only.
    expect(JSON.stringify(data)).not.toContain(suite.foyer.demo.appId);

    const errors = collectErrors(suite.page);
    await suite.page.goto(loginUrl(`?appId=${HOSTILE_APP_ID}`));
    await expect.poll(() => suite.page.getByRole('heading', { level: 1 }).textContent()).toBe(`Hello ${HOSTILE}`);
    await suite.page.getByLabel('Email').fill('someone@example.com');
    await expect.poll(() => suite.page.getByRole('button', { name: 'Continue' }).isEnabled()).toBe(true);
    expect(await suite.page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();
    expect(await suite.page.locator('.foyer-footer').textContent()).toContain(`© ${HOSTILE}`);
    expect(errors).toEqual([]);
  });

  it('draws the first steps of the magic-link and reset-password routes, and leaves the others to the runtime', async () => {
    for (const [path, heading] of [
      ['/auth/magic-link', 'Sign in with a magic link'],
      ['/auth/reset-password', 'Reset password'],
    ] as const) {
      const { html } = await pageHtml(`${suite.foyer.urls.ui}${path}`, { 'accept-language': 'en' });
      expect(firstPaintOf(html)).toMatchObject({ rendered: true });
      expect(html).toContain(heading);
    }
    // An app without self-signup sends the visitor on to the login (the flow's onEnter): the runtime does that.
    const { html: signup } = await pageHtml(`${suite.foyer.urls.ui}/auth/signup?appId=${HOSTILE_APP_ID}`, { 'accept-language': 'en' });
    expect(firstPaintOf(signup)).toMatchObject({ rendered: false, appConfig: { status: 'ready' } });
    expect(signup).toContain('<div id="root"></div>');
  });

  it('draws the reset-password step with the e-mail its address hands over already in the field', async () => {
    const { html } = await pageHtml(`${suite.foyer.urls.ui}/auth/reset-password?email=someone%40example.com`, { 'accept-language': 'en' });
    expect(firstPaintOf(html)).toMatchObject({ rendered: true });
    expect(html).toMatch(/<input[^>]*value="someone@example.com"/);
  });

  it("draws the signup step on the server, with the app's own signup fields, in the visitor's language", async () => {
    const { html } = await pageHtml(`${suite.foyer.urls.ui}/auth/signup`, { 'accept-language': 'de' });
    expect(html).toMatch(/<h1 id="foyer-heading"[^>]*>Registrieren<\/h1>/);
    expect(html).toContain('<title>Registrieren · Demo app</title>');
    for (const id of ['root_email', 'root_password', 'root_consent']) expect(html).toContain(`id="${id}"`);
    expect(html).not.toContain('root_customParams_0');
    expect(firstPaintOf(html)).toMatchObject({ rendered: true, language: 'de', appConfig: { app: { customSignupFields: [] } } });

    const { html: custom } = await pageHtml(`${suite.foyer.urls.ui}/auth/signup?appId=${SIGNUP_APP_ID}`, { 'accept-language': 'en' });
    expect(custom).toMatch(/<label class="foyer-label" for="root_customParams_0">Company size<\/label>/);
    expect(custom).toMatch(/<input type="number" id="root_customParams_0"[^>]* name="companySize"/);
    expect(firstPaintOf(custom)).toMatchObject({
      rendered: true,
      appConfig: { app: { name: 'Signup app', customSignupFields: [{ label: 'companySize', type: 'integer', required: true }] } },
    });
  });

  it('hydrates the drawn signup step, keeping what was typed before the JavaScript ran, and submits it', async () => {
    const errors = collectErrors(suite.page);
    const requests: string[] = [];
    suite.page.on('request', (request) => requests.push(request.postData() ?? ''));
    const release = await holdBack(suite.page, RUNTIME_ENTRY);
    await suite.page.goto(`${suite.foyer.urls.ui}/auth/signup?appId=${SIGNUP_APP_ID}`, { waitUntil: 'commit' });
    const email = `drawn-${Date.now()}@signup.foyer.test`;
    await suite.page.getByLabel('Email').waitFor();
    await suite.page.getByLabel('Email').click();
    await suite.page.keyboard.type(email);
    await suite.page.getByLabel('Password', { exact: true }).click();
    await suite.page.keyboard.type('Founder-pass-2026!');
    await suite.page.getByLabel('Company size').click();
    await suite.page.keyboard.type('12');
    await suite.page.locator('#root_consent').check();
    await suite.page.evaluate(() =>
      document
        .querySelectorAll<HTMLElement>('#root_email, #root_password, #root_customParams_0, #root_consent')
        .forEach((element) => (element.dataset.drawn = 'server')),
    );
    const sent = suite.page.waitForRequest((request) => request.method() === 'POST' && (request.postData() ?? '').includes(email));
    release();
    const signUp = suite.page.getByRole('button', { name: 'Sign up' });
    await expect.poll(() => signUp.isEnabled()).toBe(true);
    expect(await suite.page.locator('[data-drawn="server"]').count()).toBe(4);
    expect(await suite.page.getByLabel('Company size').inputValue()).toBe('12');
    // The app config carried the signup fields: nobody asked the API for them.
    expect(requests.filter((body) => body.includes('CustomParamsConfig'))).toEqual([]);
    await expectNoAxeViolations(suite.page);
    await signUp.click();
    const body = (await sent).postData() ?? '';
    expect(body).toContain('companySize');
    expect(body).toContain('"12"');
    await suite.page.getByText(email).waitFor();
    expect(errors).toEqual([]);
  });

  it("draws the app the address named after a reload that lost the address's ?appId", async () => {
    const errors = collectErrors(suite.page);
    await suite.page.goto(loginUrl(`?appId=${SECOND_APP_ID}`));
    await suite.page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await expect.poll(() => new URL(suite.page.url()).search).toBe('');
    const reloaded = await suite.page.reload();
    // The HTML the server sent, not only what the runtime drew afterwards.
    const html = (await reloaded!.text()) ?? '';
    expect(html).toContain('<title>Anmelden · Second app</title>');
    expect(firstPaintOf(html)).toMatchObject({ appId: SECOND_APP_ID, rendered: true, appConfig: { app: { name: 'Second app' } } });
    expect(html).not.toContain('Demo app');
    // Hydrated, not drawn afresh: the runtime serves the app it stored, the one drawn.
    const email = suite.page.getByLabel('E-Mail-Adresse');
    await email.fill('someone@example.com');
    await expect.poll(() => suite.page.getByRole('button', { name: 'Weiter' }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);

    // An address naming an app wins over the remembered one, and is remembered in its turn.
    const named = await suite.page.goto(loginUrl(`?appId=${suite.foyer.demo.appId}`));
    expect(firstPaintOf(await named!.text())).toMatchObject({ appId: suite.foyer.demo.appId });
    const again = await suite.page.reload();
    expect(firstPaintOf(await again!.text())).toMatchObject({ appId: suite.foyer.demo.appId });
    expect(errors).toEqual([]);
  });

  it('leaves the remembered app alone in the preview, and draws the unknown-app page for one that is gone', async () => {
    await suite.page.goto(loginUrl(`?appId=${SECOND_APP_ID}`));
    await suite.page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await suite.context.request.get(loginUrl(`?appId=${HOSTILE_APP_ID}&preview=1`), { headers: { accept: 'text/html' } });
    const reloaded = await suite.page.reload();
    expect(firstPaintOf(await reloaded!.text())).toMatchObject({ appId: SECOND_APP_ID });

    await suite.page.goto(loginUrl('?appId=no-longer-here'));
    const errors = collectErrors(suite.page);
    const gone = await suite.page.reload();
    expect(gone!.status()).toBe(200);
    expect(await gone!.text()).toMatch(/<h1 id="foyer-heading"[^>]*>Unknown App Id<\/h1>/);
    await suite.page.getByRole('heading', { name: 'Unknown App Id' }).waitFor();
    expect(errors).toEqual([]);
  });
});
