// The preview inside the real runtime routes: messages from the configurator (the parent window) change
// the app config, texts, look and screen at once; messages from anywhere else change nothing. The
// API host is a scripted fetch that answers the published signup fields.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/index.ts';
import { RuntimeProvider } from '../../../src/app/App.tsx';
import { createAppConfigStore, type PublicAppConfig } from '../../../src/runtime/app-config.ts';
import { AppRoutes } from '../../../src/app/router.tsx';
import { OAuthClient } from '../../../src/auth/oauth/oauth-client.ts';
import { loadConfig } from '../../../src/config.ts';
import { loadForm } from '../../../src/flow/forms.ts';
import { createI18n } from '../../../src/i18n/i18next.ts';
import { i18nextTexts } from '../../../src/i18n/i18next-texts.ts';
import { TextsProvider } from '../../../src/i18n/texts.ts';
import en from '../../../src/i18n/locales/en.json';
import sv from '../../../src/i18n/locales/sv.json';
import type { AppConfig } from '../../../common/app-config.ts';
import { startPreview, type PreviewHost } from '../../../src/preview/listener.ts';
import { PREVIEW_TAG } from '../../../src/preview/protocol.ts';
import { PREVIEW_NAVIGATION } from '../../../src/preview/screens.ts';
import { previewBrowserRuntime } from '../../../src/preview/storage.ts';

const ORIGIN = 'http://ui.foyer.test';

const published = {
  name: 'Demo app',
  tenantSelfSignup: true,
  magicLinkEnabled: false,
  passwordEnabled: true,
  socialProviders: [],
} as unknown as PublicAppConfig;
const publishedFields = [{ label: 'seats', type: 'integer', userLabel: 'Seats', regex: '', required: false }];

function draft(values: Partial<AppConfig> = {}): AppConfig {
  return { name: 'Draft app', redirectUris: ['https://app.example.test/callback'], tenantSelfSignup: true, ...values };
}

afterEach(cleanup);

beforeAll(async () => {
  await Promise.all(['login-username', 'login-password', 'signup'].map(loadForm));
});

function previewed({ preview = true } = {}) {
  const config = loadConfig({ appId: 'demo-app', apiUrl: 'http://api.foyer.test', authUrl: 'http://auth.foyer.test', preview });
  const auth = new OAuthClient(config, previewBrowserRuntime());
  const api = createApiClient(config, auth, {
    logger: { error: () => undefined },
    fetch: async () =>
      new Response(JSON.stringify({ data: { getTenantUserCustomParamsConfigAnonymous: { params: publishedFields } } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
  });
  const store = createAppConfigStore({ status: 'ready', app: published });
  const i18n = createI18n('en', { en });
  // The router's navigate, as the runtime's preview bridge hands it over (src/app/App.tsx).
  const router: { navigate?: NavigateFunction } = {};
  function HandOverNavigate() {
    const navigate = useNavigate();
    useEffect(() => {
      router.navigate = navigate;
    }, [navigate]);
    return null;
  }

  const replies: [unknown, string][] = [];
  const parent = { postMessage: (message: unknown, targetOrigin: string) => replies.push([message, targetOrigin]) };
  const events = new EventTarget();
  const host: PreviewHost = {
    parent,
    location: { origin: ORIGIN },
    addEventListener: (type, listener) => events.addEventListener(type, listener as unknown as EventListener),
    removeEventListener: (type, listener) => events.removeEventListener(type, listener as unknown as EventListener),
  };
  const stylesheets: string[] = [];
  const stop = preview
    ? startPreview({
        host,
        appConfig: store,
        i18n,
        styles: { show: (css) => stylesheets.push(css) },
        navigate: (path, state) => void router.navigate?.(path, { state }),
      })
    : () => undefined;

  render(
    <TextsProvider store={i18nextTexts(i18n)}>
      <RuntimeProvider started={{ config, auth, api, appConfig: store }}>
        <MemoryRouter initialEntries={['/auth/login']}>
          <HandOverNavigate />
          <AppRoutes />
        </MemoryRouter>
      </RuntimeProvider>
    </TextsProvider>,
  );

  /** Delivers a message the way the browser does, from `source` (the parent by default). */
  const send = (data: unknown, source: unknown = parent) =>
    act(async () => {
      events.dispatchEvent(Object.assign(new Event('message'), { source, origin: ORIGIN, data }));
    });
  return { send, replies, stylesheets, store, i18n, router, stop };
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

describe('preview messages from the parent', () => {
  it('says ready, then applies a config at once: flags, name, texts, footer, social buttons and look', async () => {
    const { send, replies, stylesheets } = previewed();
    expect(replies).toEqual([[{ tag: PREVIEW_TAG, type: 'ready' }, ORIGIN]]);
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('button', { name: 'Email me a sign-in link' })).toBeNull();

    await send({
      tag: PREVIEW_TAG,
      type: 'config',
      config: draft({
        magicLinkEnabled: true,
        githubSsoEnabled: true,
        translations: { en: { login: { heading: 'Welcome back' } } },
        branding: { colors: { primary: '#00aa77' }, copyrightFooter: '© Draft Inc.' },
      }),
    });

    expect(await screen.findByRole('button', { name: 'Email me a sign-in link' })).toBeTruthy();
    expect(heading()).toBe('Welcome back');
    // The buttons are a lazy chunk of their own.
    expect((await screen.findByRole('link', { name: 'Sign in with GitHub' })).getAttribute('href')).toBe(
      'http://auth.foyer.test/federated/github/login?appId=demo-app',
    );
    expect(screen.getByText('© Draft Inc.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Login · Draft app'));
    expect(stylesheets).toEqual([':root {\n  --foyer-color-primary: #00aa77;\n}\n']);
    expect(replies[1]).toEqual([{ tag: PREVIEW_TAG, type: 'applied' }, ORIGIN]);
  });

  it("replaces the previous config's translations rather than merging them, and switches language", async () => {
    const { send, i18n } = previewed();
    await screen.findByLabelText('Email');
    await send({
      tag: PREVIEW_TAG,
      type: 'config',
      config: draft({ translations: { en: { login: { heading: 'Welcome back' } }, sv: { login: { heading: 'Logga in' } } } }),
    });
    expect(heading()).toBe('Welcome back');
    await send({ tag: PREVIEW_TAG, type: 'language', language: 'sv' });
    // Foyer's Swedish texts are fetched first; the draft's override still wins over them.
    await waitFor(() => expect(i18n.language).toBe('sv'));
    expect(document.documentElement.lang).toBe('sv');
    expect(heading()).toBe('Logga in');
    expect(screen.getByText(sv.login.subheading)).toBeTruthy();

    await send({
      tag: PREVIEW_TAG,
      type: 'config',
      config: draft({ translations: { sv: { login: { subheading: 'Välkommen tillbaka' } } } }),
    });
    // Without the override, the heading is Foyer's own Swedish one.
    expect(heading()).toBe(sv.login.heading);
    expect(screen.getByText('Välkommen tillbaka')).toBeTruthy();
    // The shipped English texts were never touched: a fresh runtime still says "Login".
    expect(createI18n('en', { en }).t('login.heading')).toBe('Login');
  });

  it('switches screens: the password step directly, back to the e-mail step, and signup with the draft fields', async () => {
    const { send } = previewed();
    await screen.findByLabelText('Email');
    await send({ tag: PREVIEW_TAG, type: 'screen', screen: 'login-password' });
    expect(await screen.findByLabelText('Password')).toBeTruthy();
    await send({ tag: PREVIEW_TAG, type: 'screen', screen: 'login' });
    await waitFor(() => expect(screen.queryByLabelText('Password')).toBeNull());
    expect(screen.getByLabelText('Email')).toBeTruthy();

    await send({
      tag: PREVIEW_TAG,
      type: 'config',
      config: draft({ customSignupFields: [{ label: 'company', type: 'text', userLabel: 'Company' }] }),
    });
    await send({ tag: PREVIEW_TAG, type: 'screen', screen: 'signup' });
    expect(await screen.findByLabelText('Company')).toBeTruthy();
    expect(screen.queryByLabelText('Seats')).toBeNull();
  });

  it('keeps the password step away when the draft switches passwords off', async () => {
    const { send } = previewed();
    await screen.findByLabelText('Email');
    await send({ tag: PREVIEW_TAG, type: 'config', config: draft({ passwordEnabled: false }) });
    await send({ tag: PREVIEW_TAG, type: 'screen', screen: 'login-password' });
    await waitFor(() => expect(heading()).toBe('Login'));
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});

describe('messages from anywhere else', () => {
  it('change nothing and get no answer: another window, the runtime itself, no tag, a stopped listener', async () => {
    const { send, replies, stylesheets, store, stop } = previewed();
    await screen.findByLabelText('Email');
    const before = store.get();
    const hostile = { tag: PREVIEW_TAG, type: 'config', config: draft({ magicLinkEnabled: true, name: 'Hacked' }) };

    await send(hostile, { name: 'popup' });
    await send(hostile, null);
    const { tag: _tag, ...untagged } = hostile;
    await send(untagged);
    await send({ tag: PREVIEW_TAG, type: 'screen', screen: 'signup' }, { name: 'popup' });
    stop();
    await send(hostile);

    expect(store.get()).toBe(before);
    expect(replies).toHaveLength(1);
    expect(stylesheets).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Email me a sign-in link' })).toBeNull();
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });

  it('outside preview mode, navigation state never opens a step', async () => {
    const { router } = previewed({ preview: false });
    await screen.findByLabelText('Email');
    await act(async () => {
      await router.navigate!('/auth/login', { state: { [PREVIEW_NAVIGATION]: { step: 'PASSWORD' } } });
    });
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});
