// The live preview in a real Chromium: a same-origin parent page frames the runtime at ?preview=1 the
// way the configurator does and posts drafts; the frame shows them at once while the real page stays
// as published. Messages from a popup, from the frame itself, without the tag, and parents on another
// origin (which cannot even frame the runtime) change nothing.
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();
const TAG = 'foyer-preview';

interface PreviewParent {
  frame: FrameLocator;
  /** The frame itself, to act from inside it. */
  inner: Frame;
  /** Posts `message` to the frame from the parent window, on the parent's origin. */
  post(message: unknown): Promise<void>;
  /** The reply types the frame posted to the parent so far ('ready', 'applied'). */
  replies(): Promise<string[]>;
}

function draft(values: Record<string, unknown> = {}) {
  return {
    name: 'Demo app',
    redirectUris: [`${suite.foyer.urls.ui}/auth/oauth-callback`],
    tenantSelfSignup: true,
    magicLinkEnabled: true,
    passkeysEnabled: false,
    ...values,
  };
}

/** The real login page of the demo app with the preview frame added, as the configurator frames it. */
async function openPreview(page: Page = suite.page): Promise<PreviewParent> {
  const { ui } = suite.foyer.urls;
  await page.goto(`${ui}/auth/login`);
  await page.getByLabel('Email').waitFor();
  await page.evaluate((src) => {
    const replies: string[] = [];
    (window as unknown as { previewReplies: string[] }).previewReplies = replies;
    window.addEventListener('message', (event) => {
      const data = event.data as { tag?: string; type?: string } | null;
      if (data?.tag === 'foyer-preview' && typeof data.type === 'string') replies.push(data.type);
    });
    const iframe = document.createElement('iframe');
    iframe.id = 'preview';
    iframe.title = 'Login page preview';
    iframe.src = src;
    iframe.style.width = '480px';
    iframe.style.height = '900px';
    document.body.append(iframe);
  }, `/auth/login?appId=${suite.foyer.demo.appId}&preview=1`);
  const replies = () => page.evaluate(() => [...(window as unknown as { previewReplies: string[] }).previewReplies]);
  // The frame fetches the runtime, then React Router's chunk and the preview's (src/app/routed-screens.tsx): more than poll's default second on a busy machine.
  await expect.poll(replies, { timeout: 10_000 }).toContain('ready');
  const inner = await (await page.locator('#preview').elementHandle())!.contentFrame();
  return {
    frame: page.frameLocator('#preview'),
    inner: inner!,
    replies,
    post: (message) =>
      page.evaluate((data) => {
        (document.getElementById('preview') as HTMLIFrameElement).contentWindow!.postMessage(data, location.origin);
      }, message),
  };
}

/** Posts a screen switch from the parent and waits until the frame shows it: every earlier message was handled by then. */
async function switchScreen(preview: PreviewParent, screen: string, shows: string) {
  await preview.post({ tag: TAG, type: 'screen', screen });
  await preview.frame.getByRole('heading', { level: 1, name: shows }).waitFor();
}

const primaryButtonColour = (frame: FrameLocator) =>
  frame.getByRole('button', { name: 'Continue' }).evaluate((button) => getComputedStyle(button).backgroundColor);

describe('the live preview', () => {
  it('shows a posted draft at once while the real login page stays as published; axe-clean', async () => {
    const preview = await openPreview();
    const { frame } = preview;
    await frame.getByLabel('Email').waitFor();
    const publishedColour = await primaryButtonColour(frame);

    await preview.post({
      tag: TAG,
      type: 'config',
      config: draft({
        googleSsoEnabled: true,
        translations: { en: { login: { heading: 'Welcome to Demo' } }, sv: { login: { heading: 'Välkommen' } } },
        branding: { colors: { primary: '#0b6e4f' }, copyrightFooter: '© Demo Inc.' },
      }),
    });
    await frame.getByRole('heading', { level: 1, name: 'Welcome to Demo' }).waitFor();
    expect(await frame.getByRole('button', { name: 'Email me a sign-in link' }).isVisible()).toBe(true);
    const google = frame.getByRole('link', { name: 'Sign in with Google' });
    await google.waitFor();
    expect(await google.getAttribute('href')).toBe(`${suite.foyer.urls.auth}/federated/google/login?appId=${suite.foyer.demo.appId}`);
    expect(await frame.getByText('© Demo Inc.').isVisible()).toBe(true);
    await expect.poll(() => primaryButtonColour(frame)).toBe('rgb(11, 110, 79)');
    expect(publishedColour).not.toBe('rgb(11, 110, 79)');
    // The look came through adoptedStyleSheets: no inline <style> (the CSP forbids it).
    expect(await frame.locator('style').count()).toBe(0);
    expect(await preview.replies()).toEqual(['ready', 'applied']);

    // The real page around it is unchanged.
    expect(await suite.page.getByRole('heading', { level: 1 }).first().textContent()).toBe('Login');
    expect(await suite.page.getByRole('link', { name: 'Sign in with Google' }).count()).toBe(0);
    await expectNoAxeViolations(suite.page);

    // Keyboard: the social button is a link reached by Tab from the e-mail field.
    await frame.getByLabel('Email').focus();
    const focused: string[] = [];
    for (let press = 0; press < 8 && !focused.includes('Sign in with Google'); press += 1) {
      await suite.page.keyboard.press('Tab');
      focused.push((await preview.inner.evaluate(() => document.activeElement?.textContent ?? '')).trim());
    }
    expect(focused).toContain('Sign in with Google');

    await preview.post({ tag: TAG, type: 'language', language: 'sv' });
    await frame.getByRole('heading', { level: 1, name: 'Välkommen' }).waitFor();
  });

  it('starts no passkey ceremony for a draft with passkeys on, and says so on the button', async () => {
    const ceremonies: string[] = [];
    // The real login page around the frame may start its own autofill request; only the frame's count.
    suite.page.on('request', (request) => {
      if (request.url().includes('/auth/passkeys/') && request.frame().url().includes('preview=1')) ceremonies.push(request.url());
    });
    const preview = await openPreview();
    await preview.post({ tag: TAG, type: 'config', config: draft({ passkeysEnabled: true }) });
    const button = preview.frame.getByRole('button', { name: 'Sign in with Passkeys' });
    await button.click();
    await preview.frame.getByText('Passkeys do not sign anyone in from the preview.').waitFor();
    expect(ceremonies).toEqual([]);
  });

  it('leads a social button to the auth service, which says not available for a provider the live app has not switched on', async () => {
    const preview = await openPreview();
    await preview.post({ tag: TAG, type: 'config', config: draft({ githubSsoEnabled: true }) });
    const href = await preview.frame.getByRole('link', { name: 'Sign in with GitHub' }).getAttribute('href');
    // The auth service does not let itself be framed; a real login page follows the link at the top.
    await suite.page.goto(href!);
    const alert = suite.page
      .getByRole('alert')
      .filter({ hasText: 'Signing in with this provider is not available for this app. Use another way to sign in.' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Could not login');
    // The app named in the address is adopted, then dropped from the address.
    expect(suite.page.url()).toBe(`${suite.foyer.urls.ui}/auth/login?error=federation&errorDetails=unavailable`);
    expect(await suite.page.evaluate(() => localStorage.getItem('NB_APP_ID'))).toBe(suite.foyer.demo.appId);
    await expectNoAxeViolations(suite.page);
  });

  it('switches screens, and the draft decides what they show', async () => {
    const preview = await openPreview();
    await preview.post({
      tag: TAG,
      type: 'config',
      config: draft({ customSignupFields: [{ label: 'company', type: 'text', userLabel: 'Company name' }] }),
    });
    await switchScreen(preview, 'signup', 'Sign up');
    await preview.frame.getByLabel('Company name').waitFor();
    await switchScreen(preview, 'login-password', 'Login');
    await preview.frame.getByLabel('Password').waitFor();
    await switchScreen(preview, 'magic-link', 'Sign in with a magic link');
    await switchScreen(preview, 'mfa-setup', 'Set up two-factor authentication');
    await expectNoAxeViolations(suite.page);
  });

  it('ignores the same message from a popup, from the frame itself and without the tag', async () => {
    const preview = await openPreview();
    await preview.frame.getByLabel('Email').waitFor();
    const hostile = {
      tag: TAG,
      type: 'config',
      config: draft({ name: 'Hacked', magicLinkEnabled: false, branding: { copyrightFooter: 'Hacked' } }),
    };

    const [popup] = await Promise.all([
      suite.context.waitForEvent('page'),
      suite.page.evaluate(() => void window.open('', 'hostile-popup')),
    ]);
    // A popup of the parent (about:blank, so of the parent's origin): the origin check alone would pass it.
    await popup.evaluate((message) => {
      const opener = window.opener as Window;
      const frame = opener.document.getElementById('preview') as HTMLIFrameElement;
      frame.contentWindow!.postMessage(message, opener.location.origin);
    }, hostile);
    await preview.inner.evaluate((message) => window.postMessage(message, location.origin), hostile);
    const { tag: _tag, ...untagged } = hostile;
    await preview.post(untagged);
    await preview.post({ ...hostile, tag: 'foyer-preview ' });

    // Posted after all of them from the parent: once it shows, every message before it was handled.
    await switchScreen(preview, 'login-password', 'Login');
    await switchScreen(preview, 'login', 'Login');
    expect(await preview.frame.getByRole('button', { name: 'Email me a sign-in link' }).isVisible()).toBe(true);
    expect(await preview.frame.getByText('Hacked').count()).toBe(0);
    expect(await preview.inner.evaluate(() => document.title)).toBe('Login · Demo app');
    expect(await preview.replies()).toEqual(['ready']);
  });

  it('cannot be framed by a page on another origin (the API host)', async () => {
    const { api, ui } = suite.foyer.urls;
    // Any page of the API host's origin (here its 404 answer) trying to frame the runtime.
    await suite.page.goto(`${api}/no-such-page`);
    const refused = suite.page.waitForEvent('requestfailed', (request) => request.url().startsWith(`${ui}/auth/login`));
    await suite.page.evaluate((src) => {
      const iframe = document.createElement('iframe');
      iframe.id = 'preview';
      iframe.title = 'Preview';
      iframe.src = src;
      document.body.append(iframe);
    }, `${ui}/auth/login?appId=${suite.foyer.demo.appId}&preview=1`);
    const request = await refused;
    expect(request.failure()?.errorText).toBe('net::ERR_BLOCKED_BY_RESPONSE');
    expect((await request.response())?.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
    // Chromium shows its error page in the frame, never the runtime.
    const frame = await (await suite.page.locator('#preview').elementHandle())!.contentFrame();
    await expect.poll(() => frame!.url()).toMatch(/^chrome-error:/);
    expect(await suite.page.frameLocator('#preview').getByLabel('Email').count()).toBe(0);
  });
});
