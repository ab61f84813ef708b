// The renderer with Foyer's theme, on the real login flow, real form schemas and their build-time
// compiled validators. Nothing here reaches a server: these screens make no call before a submit.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import loginFlow from '../../../flows/login.json';
import { createApiClient } from '../../../src/api/index.ts';
import type { AppConfigState, PublicAppConfig } from '../../../src/runtime/app-config.ts';
import { RuntimeContext } from '../../../src/runtime/context.tsx';
import { RouterNavigation } from '../../../src/app/router.tsx';
import { FlowScreen } from '../../../src/app/screens/FlowScreen.tsx';
import { OAuthClient } from '../../../src/auth/oauth/oauth-client.ts';
import { browserRuntime } from '../../../src/auth/runtime.ts';
import { loadConfig } from '../../../src/config.ts';
import { loadForm } from '../../../src/flow/forms.ts';
import { plainFieldsOf } from '../../../src/flow/plain-form.ts';
import { rjsfValidatorOf } from '../../../src/app/screens/flow-screen/RjsfStepForm.tsx';
import type { Flow } from '../../../src/flow/types.ts';
import { createI18n } from '../../../src/i18n/i18next.ts';
import { i18nextTexts } from '../../../src/i18n/i18next-texts.ts';
import { TextsProvider } from '../../../src/i18n/texts.ts';
import en from '../../../src/i18n/locales/en.json';
import { FoyerForm } from '../../../src/theme/rjsf/index.ts';

const login = loginFlow as unknown as Flow;

function app(values: Partial<PublicAppConfig>): AppConfigState {
  const none: PublicAppConfig = {
    name: null,
    logo: null,
    privacyPolicyUrl: null,
    termsOfServiceUrl: null,
    onboardingFlow: null,
    passkeysEnabled: null,
    azureAdSsoEnabled: null,
    googleSsoEnabled: null,
    linkedinSsoEnabled: null,
    facebookSsoEnabled: null,
    githubSsoEnabled: null,
    appleSsoEnabled: null,
    mfaEnabled: null,
    magicLinkEnabled: null,
    authLegacy: null,
    tenantSelfSignup: null,
    passwordValidation: null,
    languages: null,
    defaultLanguage: null,
    passwordComplexityRegex: null,
    passwordEnabled: null,
    copyrightFooter: null,
    socialProviders: null,
  };
  return { status: 'ready', app: { ...none, ...values } };
}

afterEach(cleanup);

// The first import of a form module compiles it; do it once up front rather than inside a wait.
beforeAll(async () => {
  await Promise.all([loadForm('login-username'), loadForm('login-password')]);
});

function renderLogin(path: string, appConfig: AppConfigState = app({ name: 'Demo app', tenantSelfSignup: false })) {
  const config = loadConfig({ appId: 'demo-app' });
  const auth = new OAuthClient(config, browserRuntime());
  const api = createApiClient(config, auth);
  const router = createMemoryRouter(
    [
      {
        path: '/auth/login',
        element: (
          <RouterNavigation>
            <FlowScreen flow={login} />
          </RouterNavigation>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  return render(
    <TextsProvider store={i18nextTexts(createI18n('en', { en }))}>
      <RuntimeContext value={{ config, auth, api, appConfig }}>
        <RouterProvider router={router} />
      </RuntimeContext>
    </TextsProvider>,
  );
}

describe('login screen', () => {
  it('focuses the e-mail field and keeps Continue disabled while it is empty', async () => {
    renderLogin('/auth/login');
    const email = await screen.findByLabelText('Email');
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(email.getAttribute('autocomplete')).toBe('username webauthn');
    expect(email.getAttribute('type')).toBe('email');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    expect((continueButton as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(email, { target: { value: 'owner@demo.foyer.test' } });
    await waitFor(() => expect((continueButton as HTMLButtonElement).disabled).toBe(false));
    fireEvent.change(email, { target: { value: '' } });
    await waitFor(() => expect((continueButton as HTMLButtonElement).disabled).toBe(true));
    expect(screen.getByRole('heading', { level: 1, name: 'Login' })).toBeTruthy();
  });

  it('announces the query-string error in a danger alert', async () => {
    renderLogin('/auth/login?error=true&errorDetails=mle');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not login');
    expect(alert.textContent).toContain("The magic link has expired, or you're not using the same browser that you sent the link from.");
  });

  it("shows 'Sign up' only when tenant self-signup is on", async () => {
    renderLogin('/auth/login');
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('link', { name: 'Sign up' })).toBeNull();
    cleanup();
    renderLogin('/auth/login', app({ name: 'Demo app', tenantSelfSignup: true }));
    expect(((await screen.findByRole('link', { name: 'Sign up' })) as HTMLAnchorElement).getAttribute('href')).toBe('/auth/signup');
  });

  it('shows the footer with the year and the privacy policy link from the app config', async () => {
    renderLogin('/auth/login', app({ name: 'Demo app', privacyPolicyUrl: 'https://example.test/privacy' }));
    await screen.findByLabelText('Email');
    expect(screen.getByText(`${new Date().getFullYear()} All Rights Reserved`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('https://example.test/privacy');
  });
});

describe('plain forms', () => {
  it('are the text-only forms; anything else is left to RJSF', async () => {
    const [loginPassword, signup, workspace] = await Promise.all(['login-password', 'signup', 'workspace'].map(loadForm));
    expect(loginPassword!.plainFields).toEqual([
      {
        name: 'email',
        title: 'fields.email',
        inputType: 'email',
        autoComplete: 'username',
        placeholder: undefined,
        help: undefined,
        readOnly: true,
        required: true,
      },
      {
        name: 'password',
        title: 'fields.password',
        inputType: 'password',
        autoComplete: 'current-password',
        placeholder: undefined,
        help: undefined,
        readOnly: false,
        required: true,
      },
    ]);
    expect(signup!.plainFields).toBeUndefined();
    expect(workspace!.plainFields).toBeUndefined();
    const text = { type: 'object', properties: { code: { type: 'string', title: 'fields.securityCode' } } };
    expect(plainFieldsOf(text, {})).toHaveLength(1);
    expect(plainFieldsOf({ ...text, properties: { code: { type: 'string', title: 'x', enum: ['a'] } } }, {})).toBeUndefined();
    expect(plainFieldsOf(text, { code: { 'ui:widget': 'textarea' } })).toBeUndefined();
    expect(plainFieldsOf(text, { code: { 'ui:options': { label: false } } })).toBeUndefined();
    expect(plainFieldsOf({ ...text, dependencies: {} }, {})).toBeUndefined();
  });

  it('checks on submit with the compiled validator and ties the message to its input', async () => {
    renderLogin('/auth/login');
    const email = await screen.findByLabelText('Email');
    fireEvent.change(email, { target: { value: `${'a'.repeat(320)}@demo.foyer.test` } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    });
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toBe('This value is too long.');
    // The message stays while typing, as RJSF's does, and goes with the next submit that passes the checks.
    fireEvent.change(email, { target: { value: 'owner@demo.foyer.test' } });
    expect(screen.getByText('This value is too long.')).toBeTruthy();
  });
});

describe('Foyer RJSF theme', () => {
  it('ties a field error to its input with aria-describedby, using the precompiled validator', async () => {
    const form = await loadForm('signup');
    render(
      <TextsProvider store={i18nextTexts(createI18n('en', { en }))}>
        <FoyerForm
          schema={form.schema}
          uiSchema={form.uiSchema}
          validator={rjsfValidatorOf(form)}
          formContext={{ props: {} }}
          noHtml5Validate
          showErrorList={false}
        >
          <button type="submit">Send</button>
        </FoyerForm>
      </TextsProvider>,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    });
    const email = screen.getByLabelText('Email');
    const describedBy = email.getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    const error = document.getElementById(describedBy!);
    expect(error?.textContent).toContain('required');
    expect(email.getAttribute('aria-invalid')).toBe('true');
  });
});
