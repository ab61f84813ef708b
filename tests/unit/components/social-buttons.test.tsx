// @vitest-environment jsdom
// The social buttons: worded per screen as SPEC.md gives it ('Sign in with Microsoft', 'Sign up with
// Microsoft', 'Continue with Microsoft'), leading to /federated/{type}/login or /signup with Microsoft
// as ms-azure-ad, only the forced provider on the continue screen, and the busy state after a click.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import SocialButtons from '../../../src/components/SocialButtons.tsx';
import type { FlowComponentProps } from '../../../src/flow/component-types.ts';
import { RuntimeContext, type Runtime } from '../../../src/runtime/context.tsx';
import { createI18n } from '../../../src/i18n/i18next.ts';
import { i18nextTexts } from '../../../src/i18n/i18next-texts.ts';
import { TextsProvider } from '../../../src/i18n/texts.ts';
import en from '../../../src/i18n/locales/en.json';

afterEach(cleanup);

const AUTH = 'http://auth.foyer.test';

function show(props: Record<string, unknown>) {
  const componentProps = {
    props,
    form: {},
    status: 'idle',
    setForm: () => undefined,
    submit: () => undefined,
  } as unknown as FlowComponentProps;
  // Only the config's auth URL and app id are read.
  const runtime = { config: { authUrl: AUTH, appId: 'app-1' } } as unknown as Runtime;
  return render(
    <TextsProvider store={i18nextTexts(createI18n('en', { en }))}>
      <RuntimeContext.Provider value={runtime}>
        <Suspense fallback={null}>
          <SocialButtons {...componentProps} />
        </Suspense>
      </RuntimeContext.Provider>
    </TextsProvider>,
  );
}

const links = () => screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);

describe('SocialButtons', () => {
  it('signs in on the login screen, Microsoft as ms-azure-ad, in the login screen order', () => {
    show({ providers: ['github', 'azureAd', 'google'] });
    expect(links()).toEqual([
      ['Sign in with Google', `${AUTH}/federated/google/login?appId=app-1`],
      ['Sign in with Microsoft', `${AUTH}/federated/ms-azure-ad/login?appId=app-1`],
      ['Sign in with GitHub', `${AUTH}/federated/github/login?appId=app-1`],
    ]);
  });

  it('signs up on the signup screen', () => {
    show({ providers: ['azureAd', 'apple'], mode: 'signUp' });
    expect(links()).toEqual([
      ['Sign up with Microsoft', `${AUTH}/federated/ms-azure-ad/signup?appId=app-1`],
      ['Sign up with Apple', `${AUTH}/federated/apple/signup?appId=app-1`],
    ]);
  });

  it('shows only the forced provider on the continue screen, and nothing for an unknown one', () => {
    show({ providers: ['google', 'azureAd'], mode: 'continue', federation: 'ms-azure-ad' });
    expect(links()).toEqual([['Continue with Microsoft', `${AUTH}/federated/ms-azure-ad/signup?appId=app-1`]]);
    cleanup();
    expect(show({ mode: 'continue', federation: 'myspace' }).container.innerHTML).toBe('');
  });

  it('marks the clicked button busy and ignores a second click while the browser leaves', () => {
    show({ providers: ['google', 'github'] });
    const [google, github] = screen.getAllByRole('link');
    // jsdom does not navigate; the click handler runs.
    fireEvent.click(google!);
    expect(google!.getAttribute('aria-busy')).toBe('true');
    expect(github!.getAttribute('aria-disabled')).toBe('true');
    const second = new MouseEvent('click', { bubbles: true, cancelable: true });
    github!.dispatchEvent(second);
    expect(second.defaultPrevented).toBe(true);
    expect(github!.getAttribute('aria-busy')).toBeNull();
  });
});
