// Foyer's custom signup field, the consent widget, the password policy list and server field errors,
// rendered with the theme, the real form files and their build-time compiled validators.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import signupFlow from '../../../flows/signup.json';
import { createApiClient } from '../../../src/api/index.ts';
import type { AppConfigState, PublicAppConfig } from '../../../src/runtime/app-config.ts';
import { RuntimeContext } from '../../../src/runtime/context.tsx';
import { RouterNavigation } from '../../../src/app/router.tsx';
import { FlowScreen } from '../../../src/app/screens/FlowScreen.tsx';
import { OAuthClient } from '../../../src/auth/oauth/oauth-client.ts';
import { browserRuntime } from '../../../src/auth/runtime.ts';
import PasswordPolicy from '../../../src/components/PasswordPolicy.tsx';
import { loadConfig } from '../../../src/config.ts';
import { loadForm } from '../../../src/flow/forms.ts';
import { rjsfValidatorOf } from '../../../src/app/screens/flow-screen/RjsfStepForm.tsx';
import type { Flow } from '../../../src/flow/types.ts';
import { applyTranslations, createI18n } from '../../../src/i18n/i18next.ts';
import { i18nextTexts } from '../../../src/i18n/i18next-texts.ts';
import { TextsProvider } from '../../../src/i18n/texts.ts';
import en from '../../../src/i18n/locales/en.json';
import { FoyerForm } from '../../../src/theme/rjsf/index.ts';
import { stepShowing } from './walk.ts';

afterEach(cleanup);

beforeAll(async () => {
  await loadForm('signup');
});

const params = [
  { label: 'workEmail', type: 'email', userLabel: 'Work email', regex: '' },
  { label: 'phone', type: 'phone', userLabel: 'Phone', regex: '' },
  { label: 'seats', type: 'integer', userLabel: 'Seats', regex: '' },
  { label: 'budget', type: 'number', userLabel: 'Budget', regex: '' },
  { label: 'newsletter', type: 'boolean', userLabel: 'Send me news', regex: '' },
  { label: 'vat', type: 'regex', userLabel: 'VAT number', regex: '^SE[0-9]{12}$' },
  { label: 'team', type: 'text', userLabel: 'Team', regex: '' },
];

function withI18n(children: React.ReactNode) {
  return <TextsProvider store={i18nextTexts(createI18n('en', { en }))}>{children}</TextsProvider>;
}

describe('signup form', () => {
  it('renders each custom field by its type with its userLabel, and collects [{label, value}]', async () => {
    const form = await loadForm('signup');
    let latest: Record<string, unknown> = {};
    render(
      withI18n(
        <FoyerForm
          schema={form.schema}
          uiSchema={form.uiSchema}
          validator={rjsfValidatorOf(form)}
          formContext={{
            props: { customParams: params, privacyPolicyUrl: 'https://x.test/privacy', termsOfServiceUrl: 'https://x.test/terms' },
          }}
          onChange={(event) => (latest = event.formData as Record<string, unknown>)}
        />,
      ),
    );
    const typeOf = (label: string) => screen.getByLabelText(label).getAttribute('type');
    expect(typeOf('Work email')).toBe('email');
    expect(typeOf('Phone')).toBe('tel');
    expect(typeOf('Seats')).toBe('number');
    expect(typeOf('Budget')).toBe('number');
    expect(typeOf('Send me news')).toBe('checkbox');
    expect(typeOf('VAT number')).toBe('text');
    expect(typeOf('Team')).toBe('text');

    fireEvent.change(screen.getByLabelText('Seats'), { target: { value: '12' } });
    await waitFor(() => expect(latest.customParams).toEqual([{ label: 'seats', value: '12' }]));
    fireEvent.click(screen.getByLabelText('Send me news'));
    await waitFor(() =>
      expect(latest.customParams).toEqual([
        { label: 'seats', value: '12' },
        { label: 'newsletter', value: 'true' },
      ]),
    );

    const consent = screen.getByRole('checkbox', { name: /I agree to the privacy policy and the terms of service/ });
    expect(consent).toBeTruthy();
    expect(screen.getByRole('link', { name: 'privacy policy' }).getAttribute('href')).toBe('https://x.test/privacy');
    expect(screen.getByRole('link', { name: 'terms of service' }).getAttribute('href')).toBe('https://x.test/terms');
  });

  it("renders a select field with its choices, an app's translation of a choice replacing its label", async () => {
    const form = await loadForm('signup');
    const i18n = createI18n('sv', { en });
    applyTranslations(i18n, { sv: { customSignupFields: { size: { options: { '200+': 'Fler än 200' } } } } });
    let latest: Record<string, unknown> = {};
    const sizes = [
      { value: '1-10', label: '1 to 10' },
      { value: '11-50', label: '11 to 50' },
      { value: '200+', label: 'More than 200' },
    ];
    render(
      <TextsProvider store={i18nextTexts(i18n)}>
        <FoyerForm
          schema={form.schema}
          uiSchema={form.uiSchema}
          validator={rjsfValidatorOf(form)}
          formContext={{
            props: {
              customParams: [{ label: 'size', type: 'select', userLabel: 'Company size', regex: '', required: true, options: sizes }],
            },
          }}
          onChange={(event) => (latest = event.formData as Record<string, unknown>)}
        />
      </TextsProvider>,
    );
    const select = screen.getByLabelText('Company size') as HTMLSelectElement;
    expect(select.tagName).toBe('SELECT');
    expect(select.getAttribute('aria-required')).toBe('true');
    expect([...select.options].map((option) => [option.value, option.textContent])).toEqual([
      ['', ''],
      ['1-10', '1 to 10'],
      ['11-50', '11 to 50'],
      ['200+', 'Fler än 200'],
    ]);
    fireEvent.change(select, { target: { value: '11-50' } });
    await waitFor(() => expect(latest.customParams).toEqual([{ label: 'size', value: '11-50' }]));
  });

  it('renders no custom fields when the app has none', async () => {
    const form = await loadForm('signup');
    render(
      withI18n(<FoyerForm schema={form.schema} uiSchema={form.uiSchema} validator={rjsfValidatorOf(form)} formContext={{ props: {} }} />),
    );
    expect(screen.getAllByRole('textbox').map((input) => input.getAttribute('name'))).toEqual(['root_email']);
  });
});

describe('password policy list', () => {
  const draw = (password: string | undefined, problems: string[]) => (
    <TextsProvider store={i18nextTexts(createI18n('en', { en }))}>
      <PasswordPolicy props={{ password, problems }} form={{}} status="idle" setForm={() => undefined} submit={() => undefined} />
    </TextsProvider>
  );

  it('stays away before the first key, then lists the problems as a warning', () => {
    const { rerender } = render(draw(undefined, ['password.policy.empty']));
    expect(screen.queryByRole('status')).toBeNull();
    rerender(draw('a', ['password.policy.minLength', 'password.policy.uppercase']));
    const list = screen.getByRole('list', { name: 'Password requirements' });
    expect([...list.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'Minimal length: 10 characters',
      'Should contain uppercase letter',
    ]);
    expect(list.closest('.foyer-alert')?.classList.contains('foyer-alert--warning')).toBe(true);
    rerender(draw(undefined, ['password.policy.empty']));
    expect(screen.getByText('Password field can not be empty.')).toBeTruthy();
    rerender(draw('Correct-Horse-9', []));
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('lists a repeat that differs from the password', () => {
    const drawRepeat = (password: string, repeat: string) => (
      <TextsProvider store={i18nextTexts(createI18n('en', { en }))}>
        <PasswordPolicy
          props={{ password, repeat, problems: [] }}
          form={{}}
          status="idle"
          setForm={() => undefined}
          submit={() => undefined}
        />
      </TextsProvider>
    );
    const { rerender } = render(drawRepeat('Correct-Horse-9', 'Correct-Horse-'));
    expect(screen.getByRole('listitem').textContent).toBe('The passwords do not match.');
    rerender(drawRepeat('Correct-Horse-9', 'Correct-Horse-9'));
    expect(screen.queryByRole('list')).toBeNull();
  });
});

/** The signup flow's screen at its form, whatever steps a deployment puts before it (./walk.ts). */
async function renderSignupScreen(runtime: React.ComponentProps<typeof RuntimeContext>['value']) {
  const flow = signupFlow as unknown as Flow;
  const atForm = { ...flow, initial: Object.keys(flow.steps).find((name) => flow.steps[name] === stepShowing(flow, 'signup'))! };
  const router = createMemoryRouter(
    [
      {
        path: '/auth/signup',
        element: (
          <RouterNavigation>
            <FlowScreen flow={atForm} />
          </RouterNavigation>
        ),
      },
    ],
    { initialEntries: ['/auth/signup'] },
  );
  await act(async () => {
    render(
      withI18n(
        <RuntimeContext value={runtime}>
          <RouterProvider router={router} />
        </RuntimeContext>,
      ),
    );
  });
}

describe('signup screen', () => {
  function app(values: Partial<PublicAppConfig>): AppConfigState {
    return { status: 'ready', app: values as PublicAppConfig };
  }

  it('shows the server field errors on their inputs, tied with aria-describedby', async () => {
    const config = loadConfig({ appId: 'demo-app', apiUrl: 'http://api.foyer.test' });
    const auth = new OAuthClient(config, browserRuntime());
    const graphql = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    const api = createApiClient(config, auth, {
      logger: { error: () => undefined },
      fetch: async (_input, init) => {
        const { operationName } = JSON.parse(String(init?.body)) as { operationName: string };
        if (operationName === 'GetTenantUserCustomParamsConfigAnonymous') {
          return graphql({ data: { getTenantUserCustomParamsConfigAnonymous: { params: [params[2]] } } });
        }
        return graphql({
          data: null,
          errors: [
            {
              message: 'Invalid input',
              extensions: {
                code: 'BAD_USER_INPUT',
                response: { statusCode: 400 },
                fields: { email: 'Use a work address', seats: 'Must be a whole number' },
              },
            },
          ],
        });
      },
    });
    await renderSignupScreen({ config, auth, api, appConfig: app({ name: 'Demo app', tenantSelfSignup: true }) });
    const seats = await screen.findByLabelText('Seats');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'new@b.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Correct-Horse-9' } });
    fireEvent.change(seats, { target: { value: '1.5' } });
    const consent = screen.getByRole('checkbox', { name: /I agree/ }) as HTMLInputElement;
    // A consent is never given for the user: the box starts empty.
    expect(consent.checked).toBe(false);
    fireEvent.click(consent);
    const button = screen.getByRole('button', { name: 'Sign up' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    await act(async () => {
      fireEvent.click(button);
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('An error occured');
    expect(alert.textContent).toContain('There was an error when creating the account. Try again, otherwise contact support.');
    const describedText = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent;
    await waitFor(() => expect(describedText(screen.getByLabelText('Seats'))).toBe('Must be a whole number'));
    expect(describedText(screen.getByLabelText('Email'))).toBe('Use a work address');
    expect(screen.getByLabelText('Seats').getAttribute('aria-invalid')).toBe('true');
  });

  it('asks for no password where the app has passwords off, and sends none', async () => {
    const config = loadConfig({ appId: 'demo-app', apiUrl: 'http://api.foyer.test' });
    const auth = new OAuthClient(config, browserRuntime());
    const sent: { operationName: string; variables?: Record<string, unknown> }[] = [];
    const graphql = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    const api = createApiClient(config, auth, {
      logger: { error: () => undefined },
      fetch: async (_input, init) => {
        const request = JSON.parse(String(init?.body)) as { operationName: string; variables?: Record<string, unknown> };
        sent.push(request);
        if (request.operationName === 'GetTenantUserCustomParamsConfigAnonymous') {
          return graphql({ data: { getTenantUserCustomParamsConfigAnonymous: { params: [] } } });
        }
        return graphql({ data: { createTenantAnonymous: { id: 't1' } } });
      },
    });
    await renderSignupScreen({ config, auth, api, appConfig: app({ name: 'Demo app', tenantSelfSignup: true, passwordEnabled: false }) });
    const email = await screen.findByLabelText('Email');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(document.querySelector('input[type="password"]')).toBeNull();
    fireEvent.change(email, { target: { value: 'new@b.test' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /I agree/ }));
    const button = screen.getByRole('button', { name: 'Sign up' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    await act(async () => {
      fireEvent.click(button);
    });
    await screen.findByText('We sent an invite link to new@b.test.');
    const created = sent.find((request) => request.operationName === 'CreateTenantAnonymous');
    expect(created?.variables).toEqual({ tenant: { name: '', attributes: {}, owner: { email: 'new@b.test' } } });
  });
});
