// The flows of signup, reset and set password, magic link and onboarding, run by the real engine on
// the real flow files. The action runner answers in the shapes of the issue-4 contract (REST bodies
// and GraphQL errors become the ApiErrors the real clients throw).
import { describe, expect, it } from 'vitest';
import magicLinkFlow from '../../../flows/magic-link.json';
import onboardFlow from '../../../flows/onboard.json';
import onboardTenantFlow from '../../../flows/onboard-tenant.json';
import onboardUserFlow from '../../../flows/onboard-user.json';
import resetPasswordFlow from '../../../flows/reset-password.json';
import setPasswordFlow from '../../../flows/set-password.json';
import signupFlow from '../../../flows/signup.json';
import tenantPlanFlow from '../../../flows/tenant-plan.json';
import { ApiError } from '../../../src/http/errors.ts';
import { FlowRunner, resolveTarget, submitDisabled, buildContext, initialState } from '../../../src/flow/engine.ts';
import { fieldErrorsFor, serverFieldErrors } from '../../../src/flow/errors.ts';
import { evaluate, evaluateMapping, holds, loadOwnerPatterns } from '../../../src/flow/logic.ts';
import type { Flow, FlowEnvironment, Step } from '../../../src/flow/types.ts';
import { shownStep, stepNameShowing, stepNameWhere, stepShowing, walkTo } from './walk.ts';

const flow = (value: unknown) => value as Flow;
const signup = flow(signupFlow);
const setPassword = flow(setPasswordFlow);
const resetPassword = flow(resetPasswordFlow);
const magicLink = flow(magicLinkFlow);
const onboard = flow(onboardFlow);
const onboardUser = flow(onboardUserFlow);
const onboardTenant = flow(onboardTenantFlow);
const tenantPlan = flow(tenantPlanFlow);

/** Alerts a step shows, by message key: how the set-password flow's dead ends tell themselves apart. */
const alerts = (step: Step) => (step.slots ?? []).flatMap((slot) => (slot.type === 'alert' ? [slot.message] : []));
/** The steps these tests look at, named by what they show (tests/unit/flow/walk.ts). */
const RESET_STEPS = {
  form: stepNameShowing(resetPassword, { form: 'reset-password' }),
  sent: stepNameWhere(resetPassword, (step) => step.heading === 'checkEmail.heading'),
};
const SET_STEPS = {
  form: stepNameShowing(setPassword, { form: 'set-password' }),
  confirm: stepNameWhere(setPassword, (step) => step.heading === 'setPassword.confirm.heading'),
  done: stepNameWhere(setPassword, (step) => step.heading === 'setPassword.done.heading'),
  confirmed: stepNameWhere(setPassword, (step) => step.heading === 'setPassword.confirmed.heading'),
  expired: stepNameWhere(setPassword, (step) => alerts(step).includes('setPassword.errors.expired')),
  passwordsOff: stepNameWhere(setPassword, (step) => alerts(step).includes('login.errors.passwordDisabled')),
};
const PLAN_STEPS = { plans: stepNameShowing(tenantPlan, { component: 'PlanCards' }) };

function environment(overrides: Partial<FlowEnvironment> = {}): FlowEnvironment {
  return {
    app: { tenantSelfSignup: true, magicLinkEnabled: true, onboardingFlow: 'B2B' },
    config: { handoverRoute: '/' },
    query: {},
    user: { authenticated: false },
    tenant: {},
    params: {},
    state: {},
    path: '/',
    ...overrides,
  };
}

type Call = { name: string; input: Record<string, unknown> };
type Answers = Record<string, (input: Record<string, unknown>) => unknown>;

function run(subject: Flow, answers: Answers, env = environment()) {
  const calls: Call[] = [];
  const navigations: { path: string; state: Record<string, unknown>; replace: boolean }[] = [];
  const runner = new FlowRunner({
    flow: subject,
    environment: () => env,
    runAction: async (name, input) => {
      calls.push({ name, input });
      const answer = answers[name];
      if (!answer) throw new Error(`unexpected action ${name}`);
      return answer(input);
    },
    navigate: (path, options) => navigations.push({ path, ...options }),
  });
  return { runner, calls, navigations };
}

const restError = (statusCode: number, body: Record<string, unknown>) =>
  new ApiError({ message: String(body.message ?? ''), code: body.error as string, statusCode, details: body });

const graphQLError = (code: string, statusCode: number, fields?: Record<string, unknown>) =>
  new ApiError({ message: 'Bad input', code, statusCode, details: [{ message: 'Bad input', extensions: { code, fields } }] });

const signedIn = (user: Record<string, unknown>) => ({ authenticated: true, onboarded: true, role: 'OWNER', ...user });

describe('JSON Logic additions', () => {
  const context = buildContext(environment(), initialState(signup));

  it('answers the password policy problems, in the order the list shows them', () => {
    expect(evaluate({ passwordProblems: ['a', null, null] }, context)).toEqual([
      'password.policy.minLength',
      'password.policy.uppercase',
      'password.policy.digit',
      'password.policy.special',
    ]);
    expect(evaluate({ passwordProblems: ['', null, null] }, context)).toEqual(['password.policy.empty']);
    expect(evaluate({ passwordProblems: ['Correct-Horse-9', null, null] }, context)).toEqual([]);
    expect(evaluate({ passwordProblems: ['a', false, null] }, context)).toEqual([]);
  });

  it('checks a complexity pattern with RE2 once it has loaded, and until then passes no password', async () => {
    const matching = { passwordProblems: ['abcdefghijklm', true, '[a-z]{12,}'] };
    expect(evaluate(matching, context)).toEqual(['password.policy.complexity']);
    await loadOwnerPatterns();
    expect(evaluate(matching, context)).toEqual([]);
    expect(evaluate({ passwordProblems: ['abcdefgh', true, '[a-z]{12,}'] }, context)).toEqual(['password.policy.complexity']);
    expect(evaluate({ passwordProblems: ['abcdefgh', false, '[a-z]{12,}'] }, context)).toEqual([]);
  });

  it('builds nested inputs from dotted names and leaves out null answers', () => {
    expect(evaluateMapping({ 'a.b.c': 1, 'a.b.d': null, 'a.e': 'x', f: null }, context)).toEqual({ a: { b: { c: 1 }, e: 'x' }, f: null });
    expect(() => evaluateMapping({ '__proto__.polluted': 1 }, context)).toThrow();
  });

  it('accepts only same-origin paths as computed targets', () => {
    expect(resolveTarget({ path: '/users?x=1' }, context)).toMatchObject({ kind: 'route', path: '/users?x=1' });
    for (const path of ['https://evil.test/', '//evil.test', '/\\evil.test', null]) {
      expect(() => resolveTarget({ path }, context)).toThrow();
    }
  });
});

describe('server field errors', () => {
  it('reads GraphQL extensions.fields and REST {details: {field, problems}}', () => {
    expect(serverFieldErrors(graphQLError('BAD_USER_INPUT', 400, { email: 'Invalid e-mail', size: ['Must be a number'] }))).toEqual({
      email: ['Invalid e-mail'],
      size: ['Must be a number'],
    });
    const policy = restError(400, {
      statusCode: 400,
      error: 'PASSWORD_POLICY',
      message: 'Minimal length: 10 characters',
      details: { field: 'password', problems: ['password.policy.minLength'] },
    });
    expect(serverFieldErrors(policy)).toEqual({ password: ['password.policy.minLength'] });
  });

  it('places them through onError.fields, "*" nesting the rest', () => {
    const error = graphQLError('BAD_USER_INPUT', 400, { email: 'Taken', companySize: 'Must be a number' });
    expect(fieldErrorsFor(error, stepShowing(signup, 'signup').onError)).toEqual({
      email: ['Taken'],
      'customParams.companySize': ['Must be a number'],
    });
    expect(fieldErrorsFor(error, { default: 'x', fields: { email: 'email' } })).toEqual({ email: ['Taken'] });
    expect(fieldErrorsFor(error, undefined)).toEqual({});
  });
});

describe('signup flow', () => {
  const params = [{ label: 'seats', type: 'integer', userLabel: 'Seats', regex: '' }];
  // A custom signup field (app settings), named unlike any field a flow step may collect.
  const answers = (create: (input: Record<string, unknown>) => unknown = () => ({ createTenantAnonymous: { id: 't1' } })): Answers => ({
    'gql.GetTenantUserCustomParamsConfigAnonymous': () => ({ getTenantUserCustomParamsConfigAnonymous: { params } }),
    'gql.CreateTenantAnonymous': create,
  });
  const filled = { email: 'new@b.test', password: 'Correct-Horse-9', consent: true, customParams: [{ label: 'seats', value: '12' }] };
  // The screens, by what they show: whatever steps lead there are walked (./walk.ts).
  const signupForm = stepShowing(signup, 'signup');
  const formWithoutPassword = stepShowing(signup, 'signup-without-password');
  const shown = (runner: FlowRunner) => shownStep(runner, signup);
  const SENT_HEADING = 'checkEmail.heading';

  /** A visitor at the signup form, after whatever the flow asks first; `collected` is what those steps collected. */
  async function atSignupForm(env = environment(), create?: (input: Record<string, unknown>) => unknown) {
    const started = run(signup, answers(create), env);
    await started.runner.start();
    const collected = await walkTo(started.runner, signup, 'signup');
    return { ...started, collected };
  }

  it('sends the plan and the price offer when currency and interval are both present', async () => {
    const query = { plan: 'ESSENTIAL', currency: 'USD', recurrenceInterval: 'month' };
    const { runner, calls, collected } = await atSignupForm(environment({ query }));
    expect(evaluateMapping(signupForm.props, runner.context()).customParams).toEqual(params);
    await runner.submit(filled);
    expect(calls.at(-1)).toEqual({
      name: 'gql.CreateTenantAnonymous',
      input: {
        tenant: {
          attributes: collected,
          name: '',
          owner: { email: 'new@b.test', password: 'Correct-Horse-9', customParams: [{ label: 'seats', value: '12' }] },
          plan: 'ESSENTIAL',
          priceOffer: { currency: 'USD', recurrenceInterval: 'month' },
        },
      },
    });
    expect(shown(runner).heading).toBe(SENT_HEADING);
  });

  it('leaves out the price offer with only one of currency and interval, and the plan when absent', async () => {
    const { runner, calls, collected } = await atSignupForm(environment({ query: { currency: 'USD' } }));
    await runner.submit({ email: 'new@b.test', password: 'Correct-Horse-9', consent: true });
    expect(calls.at(-1)!.input).toEqual({
      tenant: { name: '', attributes: collected, owner: { email: 'new@b.test', password: 'Correct-Horse-9' } },
    });
  });

  it('keeps the button disabled while the e-mail is empty or the password fails the policy', async () => {
    const { runner } = await atSignupForm();
    runner.setForm({ email: 'new@b.test', password: 'short' });
    expect(submitDisabled(signupForm, runner.context())).toBe(true);
    runner.setForm({ password: 'Correct-Horse-9' });
    expect(submitDisabled(signupForm, runner.context())).toBe(false);
    runner.setForm({ email: undefined });
    expect(submitDisabled(signupForm, runner.context())).toBe(true);
  });

  it('shows server field errors on their fields until they change', async () => {
    const refuse = () => {
      throw graphQLError('BAD_USER_INPUT', 400, { seats: 'Must be a whole number' });
    };
    const { runner } = await atSignupForm(environment(), refuse);
    await runner.submit(filled);
    expect(shown(runner)).toBe(signupForm);
    expect(runner.getState()).toMatchObject({
      alert: { variant: 'danger', title: 'errors.title', message: 'signup.errors.generic' },
      fieldErrors: { 'customParams.seats': ['Must be a whole number'] },
    });
    runner.setForm({ email: 'other@b.test', customParams: [{ label: 'seats', value: '12' }] });
    expect(runner.getState().fieldErrors).toEqual({ 'customParams.seats': ['Must be a whole number'] });
    runner.setForm({ customParams: [{ label: 'seats', value: '13' }] });
    expect(runner.getState().fieldErrors).toEqual({});
  });

  it('sends visitors of an app without self-signup to the login', async () => {
    const { runner, calls, navigations } = run(signup, answers(), environment({ app: { tenantSelfSignup: false } }));
    await runner.start();
    expect(navigations).toEqual([{ path: '/auth/login', state: {}, replace: true }]);
    expect(calls).toEqual([]);
  });

  it('leaves the password out for an app with passwords off: its own form, no policy, no password sent', async () => {
    const env = environment({ app: { tenantSelfSignup: true, passwordEnabled: false } });
    const { runner, calls } = run(signup, answers(), env);
    await runner.start();
    const collected = await walkTo(runner, signup, 'signup-without-password');
    expect(shown(runner)).toBe(formWithoutPassword);
    expect(calls).toContainEqual({ name: 'gql.GetTenantUserCustomParamsConfigAnonymous', input: {} });
    expect(calls.some((call) => call.name === 'gql.CreateTenantAnonymous')).toBe(false);
    expect(evaluateMapping(formWithoutPassword.props, runner.context()).customParams).toEqual(params);
    expect(formWithoutPassword.slots?.some((slot) => slot.type === 'component' && slot.component === 'PasswordPolicy')).toBe(false);
    runner.setForm({ email: 'new@b.test' });
    expect(submitDisabled(formWithoutPassword, runner.context())).toBe(false);
    await runner.submit({ email: 'new@b.test', consent: true, customParams: [{ label: 'seats', value: '12' }] });
    expect(calls.at(-1)).toEqual({
      name: 'gql.CreateTenantAnonymous',
      input: {
        tenant: { name: '', attributes: collected, owner: { email: 'new@b.test', customParams: [{ label: 'seats', value: '12' }] } },
      },
    });
    expect(shown(runner).heading).toBe(SENT_HEADING);
  });

  it('keeps the password form when the app leaves passwords on or does not say', async () => {
    for (const app of [{ tenantSelfSignup: true, passwordEnabled: true }, { tenantSelfSignup: true }]) {
      const { runner } = await atSignupForm(environment({ app }));
      expect(shown(runner)).toBe(signupForm);
    }
  });

  it('switches to the form without password, keeping what was typed, when the server says passwords are off', async () => {
    let attempts = 0;
    const create = () => {
      attempts += 1;
      if (attempts === 1) throw graphQLError('PASSWORD_SIGN_IN_DISABLED', 403);
      return { createTenantAnonymous: { id: 't1' } };
    };
    const { runner, calls, collected } = await atSignupForm(environment(), create);
    await runner.submit(filled);
    expect(shown(runner)).toBe(formWithoutPassword);
    expect(runner.getState()).toMatchObject({ status: 'idle', form: { email: 'new@b.test', consent: true } });
    await runner.submit();
    expect(calls.at(-1)!.input).toEqual({
      tenant: { name: '', attributes: collected, owner: { email: 'new@b.test', customParams: [{ label: 'seats', value: '12' }] } },
    });
    expect(shown(runner).heading).toBe(SENT_HEADING);
  });

  it('shows the federated continue screen for a federated error, with only that provider', async () => {
    const query = { error: 'missing_user', federation: 'ms-azure-ad' };
    const { runner } = run(signup, answers(), environment({ query, app: { tenantSelfSignup: true, azureAdSsoEnabled: true } }));
    await runner.start();
    expect(shown(runner).heading).toBe('signup.federated.heading');
  });

  it('keeps the signup form without both error and federation in the query', async () => {
    for (const query of [{ error: 'missing_user' }, { federation: 'google' }] as Record<string, string>[]) {
      const { runner } = await atSignupForm(environment({ query, app: { tenantSelfSignup: true, googleSsoEnabled: true } }));
      expect(shown(runner)).toBe(signupForm);
    }
  });
});

describe('reset-password and magic-link flows', () => {
  it('prefills the e-mail handed over from the login and confirms the sending', async () => {
    const { runner, calls } = run(
      resetPassword,
      { 'auth.sendResetLink': () => undefined },
      environment({ state: { email: 'old@b.test' } }),
    );
    await runner.start();
    expect(runner.getState().form).toEqual({ email: 'old@b.test' });
    await runner.submit();
    expect(calls).toEqual([{ name: 'auth.sendResetLink', input: { username: 'old@b.test' } }]);
    expect(runner.getState().step).toBe(RESET_STEPS.sent);
  });

  it('shows the reset error text when sending fails', async () => {
    const { runner } = run(resetPassword, { 'auth.sendResetLink': () => Promise.reject(restError(429, { error: 'TOO_MANY_REQUESTS' })) });
    await runner.start();
    await runner.submit({ email: 'a@b.test' });
    expect(runner.getState()).toMatchObject({
      step: RESET_STEPS.form,
      alert: { message: 'resetPassword.errors.generic', title: 'errors.title' },
    });
  });

  it('states the link lifetime the server answered', async () => {
    const { runner } = run(magicLink, { 'auth.sendMagicLink': () => ({ expiresIn: 900 }) });
    await runner.start();
    await runner.submit({ email: 'a@b.test' });
    const sent = magicLink.steps[stepNameWhere(magicLink, (step) => step.heading === 'checkEmail.heading')]!.subheading as {
      values: Record<string, unknown>;
    };
    expect(evaluateMapping(sent.values, runner.context())).toEqual({ email: 'a@b.test', minutes: 15 });
  });

  it('sends visitors of the reset screen of an app with passwords off to the login', async () => {
    const { runner, calls, navigations } = run(resetPassword, {}, environment({ app: { passwordEnabled: false } }));
    await runner.start();
    expect(navigations).toEqual([{ path: '/auth/login', state: {}, replace: true }]);
    expect(calls).toEqual([]);
  });

  it('is closed when the app has magic links off', async () => {
    const { runner, navigations } = run(magicLink, {}, environment({ app: { magicLinkEnabled: false } }));
    await runner.start();
    expect(navigations.map((entry) => entry.path)).toEqual(['/auth/login']);
  });
});

describe('set-password flow', () => {
  const env = (user: Record<string, unknown> = { authenticated: false }) =>
    environment({ params: { token: 'tok-1' }, user, path: '/auth/set-password/tok-1' });
  const token = (passwordChosen: boolean) => () => ({ email: 'new@b.test', purpose: 'reset', passwordChosen });

  it('asks for a new password, with the button enabled only for a valid, repeated password', async () => {
    const { runner, calls } = run(
      setPassword,
      { 'auth.passwordToken': token(false), 'auth.setPassword': () => ({ session: true, mfaState: 'DISABLED' }) },
      env(),
    );
    await runner.start();
    expect(calls[0]).toEqual({ name: 'auth.passwordToken', input: { token: 'tok-1' } });
    expect(runner.getState()).toMatchObject({ step: SET_STEPS.form, form: { email: 'new@b.test' } });
    const step = setPassword.steps[SET_STEPS.form]!;
    runner.setForm({ password: 'Correct-Horse-9' });
    expect(submitDisabled(step, runner.context())).toBe(true);
    runner.setForm({ repeat: 'Correct-Horse-8' });
    expect(submitDisabled(step, runner.context())).toBe(true);
    runner.setForm({ repeat: 'Correct-Horse-9' });
    expect(submitDisabled(step, runner.context())).toBe(false);
    runner.setForm({ password: 'weak', repeat: 'weak' });
    expect(submitDisabled(step, runner.context())).toBe(true);
    await runner.submit({ password: 'Correct-Horse-9', repeat: 'Correct-Horse-9' });
    expect(calls.at(-1)).toEqual({ name: 'auth.setPassword', input: { token: 'tok-1', password: 'Correct-Horse-9' } });
    expect(runner.getState().step).toBe(SET_STEPS.done);
  });

  it('follows the app policy: off, or a complexity regex', async () => {
    const { runner } = run(setPassword, { 'auth.passwordToken': token(false) }, { ...env(), app: { passwordValidation: false } });
    await runner.start();
    runner.setForm({ password: 'a', repeat: 'a' });
    expect(submitDisabled(setPassword.steps[SET_STEPS.form]!, runner.context())).toBe(false);
    const strict = run(setPassword, { 'auth.passwordToken': token(false) }, { ...env(), app: { passwordComplexityRegex: '.{20,}' } });
    await strict.runner.start();
    strict.runner.setForm({ password: 'Correct-Horse-9', repeat: 'Correct-Horse-9' });
    expect(submitDisabled(setPassword.steps[SET_STEPS.form]!, strict.runner.context())).toBe(true);
  });

  it('confirms a password chosen at signup without asking for one', async () => {
    const { runner, calls } = run(
      setPassword,
      { 'auth.passwordToken': token(true), 'auth.setPassword': () => ({ session: true, mfaState: 'DISABLED' }) },
      env(),
    );
    await runner.start();
    expect(runner.getState().step).toBe(SET_STEPS.confirm);
    await runner.submit();
    expect(calls.at(-1)).toEqual({ name: 'auth.setPassword', input: { token: 'tok-1' } });
    expect(runner.getState().step).toBe(SET_STEPS.confirmed);
  });

  it('tells a reset link of an app with passwords off that it sets nothing, and offers no new reset link', async () => {
    const refused = () => Promise.reject(restError(403, { statusCode: 403, error: 'PASSWORD_SIGN_IN_DISABLED', message: 'off' }));
    const { runner } = run(setPassword, { 'auth.passwordToken': refused }, env());
    await runner.start();
    expect(runner.getState()).toMatchObject({ step: SET_STEPS.passwordsOff, alert: null, status: 'idle' });
    const alert = setPassword.steps[SET_STEPS.passwordsOff]!.slots![0]!;
    expect(alert).toMatchObject({ type: 'alert', message: 'login.errors.passwordDisabled' });

    const links = (app: Record<string, unknown>) => {
      const context = buildContext({ ...env(), app }, initialState(setPassword));
      return (setPassword.steps[SET_STEPS.expired]!.slots ?? []).flatMap((slot) =>
        slot.type === 'link' && holds(slot.if, context) ? [slot.label] : [],
      );
    };
    expect(links({ passwordEnabled: false })).toEqual(['actions.backToLogin']);
    expect(links({})).toEqual(['setPassword.requestNewLink', 'actions.backToLogin']);
  });

  it('reads the link again when a password is refused because the app switched passwords off meanwhile', async () => {
    let reads = 0;
    const describeLink = () => ({ email: 'new@b.test', purpose: 'invite', passwordChosen: ++reads > 1 });
    const refused = () => Promise.reject(restError(403, { statusCode: 403, error: 'PASSWORD_SIGN_IN_DISABLED', message: 'off' }));
    const { runner, calls } = run(setPassword, { 'auth.passwordToken': describeLink, 'auth.setPassword': refused }, env());
    await runner.start();
    expect(runner.getState().step).toBe(SET_STEPS.form);
    await runner.submit({ password: 'Correct-Horse-9', repeat: 'Correct-Horse-9' });
    expect(runner.getState()).toMatchObject({ step: SET_STEPS.confirm, alert: null, status: 'idle' });
    expect(calls.map((call) => call.name)).toEqual(['auth.passwordToken', 'auth.setPassword', 'auth.passwordToken']);
  });

  it('offers a passkey beside the confirmation when the app has passkeys', () => {
    const shown = (app: Record<string, unknown>) => {
      const context = buildContext({ ...env(), app }, initialState(setPassword));
      return (setPassword.steps[SET_STEPS.confirm]!.slots ?? []).flatMap((slot) =>
        slot.type === 'component' && holds(slot.if, context) ? [slot.component] : [],
      );
    };
    expect(shown({ passkeysEnabled: true })).toEqual(['PasskeyRegistration']);
    expect(shown({})).toEqual([]);
  });

  it('shows the expired step for a dead link, on opening or on submitting', async () => {
    const expired = () => Promise.reject(restError(400, { statusCode: 400, error: 'LINK_EXPIRED', message: 'expired' }));
    const opening = run(setPassword, { 'auth.passwordToken': expired }, env());
    await opening.runner.start();
    expect(opening.runner.getState()).toMatchObject({ step: SET_STEPS.expired, alert: null, status: 'idle' });

    const submitting = run(setPassword, { 'auth.passwordToken': token(false), 'auth.setPassword': expired }, env());
    await submitting.runner.start();
    await submitting.runner.submit({ password: 'Correct-Horse-9', repeat: 'Correct-Horse-9' });
    expect(submitting.runner.getState().step).toBe(SET_STEPS.expired);
  });

  it('puts a refused password on its field, clears both fields and shows the generic error', async () => {
    const refused = () =>
      Promise.reject(
        restError(400, {
          statusCode: 400,
          error: 'PASSWORD_POLICY',
          message: 'x',
          details: { field: 'password', problems: ['password.policy.special'] },
        }),
      );
    const { runner } = run(setPassword, { 'auth.passwordToken': token(false), 'auth.setPassword': refused }, env());
    await runner.start();
    await runner.submit({ password: 'Correct-Horse-9', repeat: 'Correct-Horse-9' });
    expect(runner.getState()).toMatchObject({
      step: SET_STEPS.form,
      form: { email: 'new@b.test' },
      alert: { message: 'login.errors.generic' },
      fieldErrors: { password: ['password.policy.special'] },
    });
    expect(runner.getState().form).not.toHaveProperty('password');
    expect(runner.getState().form).not.toHaveProperty('repeat');
  });

  it('signs a signed-in user out first, and continues the sign-in from the done step', async () => {
    const { runner, calls } = run(
      setPassword,
      {
        'auth.clear': () => undefined,
        'auth.passwordToken': token(false),
        'auth.setPassword': () => ({ session: true, mfaState: 'DISABLED' }),
        'nav.continue': () => undefined,
      },
      env({ authenticated: true }),
    );
    await runner.start();
    expect(calls[0]!.name).toBe('auth.clear');
    await runner.submit({ password: 'Correct-Horse-9', repeat: 'Correct-Horse-9' });
    const back = setPassword.steps[SET_STEPS.done]!.slots![0]!;
    if (back.type !== 'button') throw new Error('button expected');
    await runner.follow(back.goto);
    expect(calls.at(-1)).toEqual({ name: 'nav.continue', input: {} });
  });
});

describe('onboarding', () => {
  const tenant =
    (onboarded: boolean, shouldSelectPlan = false, shouldSetupPayments = false) =>
    () => ({
      getTenant: { onboarded, paymentStatus: { shouldSelectPlan, shouldSetupPayments } },
    });

  async function startAt(user: Record<string, unknown>, answers: Answers, overrides: Partial<FlowEnvironment> = {}) {
    const started = run(onboard, answers, environment({ user, path: '/onboard', state: { target: '/users' }, ...overrides }));
    await started.runner.start();
    return started;
  }

  it('decides in order: profile, workspace, plan, checkout, then the target', async () => {
    const profile = await startAt(signedIn({ onboarded: false }), { 'gql.GetTenant': tenant(false) });
    expect(profile.navigations).toEqual([{ path: '/onboard/user', state: { target: '/users' }, replace: true }]);

    const workspace = await startAt(signedIn({}), { 'gql.GetTenant': tenant(false, true) });
    expect(workspace.navigations).toEqual([{ path: '/onboard/tenant', state: { target: '/users' }, replace: true }]);

    const plan = await startAt(signedIn({}), { 'gql.GetTenant': tenant(true, true) });
    expect(plan.navigations).toEqual([{ path: '/tenant/plan', state: { target: '/users' }, replace: true }]);

    const checkout = await startAt(signedIn({}), { 'gql.GetTenant': tenant(true, false, true), 'nav.checkout': () => undefined });
    expect(checkout.navigations).toEqual([]);
    expect(checkout.calls.map((call) => call.name)).toEqual(['gql.GetTenant', 'nav.checkout']);

    const done = await startAt(signedIn({}), { 'gql.GetTenant': tenant(true) });
    expect(done.navigations).toEqual([{ path: '/users', state: {}, replace: true }]);
  });

  it('asks for the workspace only of owners in B2B apps', async () => {
    const b2c = await startAt(signedIn({}), { 'gql.GetTenant': tenant(false) }, { app: { onboardingFlow: 'B2C' } });
    expect(b2c.navigations.map((entry) => entry.path)).toEqual(['/users']);
    const admin = await startAt(signedIn({ role: 'ADMIN' }), {});
    expect(admin.calls).toEqual([]);
    expect(admin.navigations.map((entry) => entry.path)).toEqual(['/users']);
  });

  it('goes to the handover route without a target, and never back into onboarding', async () => {
    const none = await startAt(signedIn({}), { 'gql.GetTenant': tenant(true) }, { state: {}, config: { handoverRoute: '/home' } });
    expect(none.navigations.map((entry) => entry.path)).toEqual(['/home']);
    const loop = await startAt(signedIn({}), { 'gql.GetTenant': tenant(true) }, { state: { target: '/onboard/user' } });
    expect(loop.navigations.map((entry) => entry.path)).toEqual(['/']);
  });

  it('logs signed-out visitors out and sends them to the login with the original path', async () => {
    for (const subject of [onboard, onboardUser, onboardTenant, tenantPlan]) {
      const { runner, calls } = run(
        subject,
        { 'auth.clear': () => undefined, 'nav.login': () => undefined },
        environment({ path: subject.routes[0] }),
      );
      await runner.start();
      expect(calls).toEqual([
        { name: 'auth.clear', input: {} },
        { name: 'nav.login', input: { returnPath: subject.routes[0] } },
      ]);
    }
  });

  it('saves the profile, renews the tokens and returns to the start with the target', async () => {
    const { runner, calls, navigations } = run(
      onboardUser,
      { 'gql.UpdateMe': () => ({ updateMe: { id: 'u1' } }), 'auth.refresh': () => undefined },
      environment({ user: signedIn({ onboarded: false }), state: { target: '/users' } }),
    );
    await runner.start();
    await runner.submit({ firstName: 'Nina', lastName: 'New' });
    expect(calls).toEqual([
      { name: 'gql.UpdateMe', input: { user: { firstName: 'Nina', lastName: 'New', consentsToPrivacyPolicy: true, onboarded: true } } },
      { name: 'auth.refresh', input: {} },
    ]);
    expect(navigations).toEqual([{ path: '/onboard', state: { target: '/users' }, replace: true }]);
  });

  it('names the workspace, renews the tokens, and shows the workspace error text on failure', async () => {
    const saved = run(
      onboardTenant,
      { 'gql.UpdateTenant': () => ({ updateTenant: { id: 't1' } }), 'auth.refresh': () => undefined },
      environment({ user: signedIn({}), state: { target: '/' } }),
    );
    await saved.runner.start();
    await saved.runner.submit({ name: 'Initech' });
    expect(saved.calls.map((call) => call.name)).toEqual(['gql.UpdateTenant', 'auth.refresh']);
    expect(saved.calls[0]!.input).toEqual({ tenant: { name: 'Initech' } });

    const failing = run(
      onboardTenant,
      { 'gql.UpdateTenant': () => Promise.reject(graphQLError('BAD_USER_INPUT', 400)) },
      environment({ user: signedIn({}) }),
    );
    await failing.runner.start();
    await failing.runner.submit({ name: 'x'.repeat(5) });
    expect(failing.runner.getState()).toMatchObject({ alert: { message: 'onboard.tenant.errors.generic', title: 'errors.title' } });
    expect(failing.calls.map((call) => call.name)).toEqual(['gql.UpdateTenant']);
  });
});

describe('the plan page', () => {
  const details = (shouldSetupPayments: boolean) => () => ({ setTenantPlanDetails: { status: { shouldSetupPayments }, details: {} } });
  const choice = { planKey: 'TEAM', currency: 'USD', recurrenceInterval: 'month' };
  const expectedInput = { details: { planKey: 'TEAM', priceOffer: { currency: 'USD', recurrenceInterval: 'month' } } };

  it('shows the cards, then a paid plan goes to the checkout', async () => {
    const { runner, calls, navigations } = run(
      tenantPlan,
      { 'gql.SetTenantPlanDetails': details(true), 'nav.checkout': () => undefined },
      environment({ user: signedIn({}), state: { target: '/users' }, path: '/tenant/plan' }),
    );
    await runner.start();
    expect(runner.getState()).toMatchObject({ step: PLAN_STEPS.plans, status: 'idle' });
    await runner.submit(choice);
    expect(calls).toEqual([
      { name: 'gql.SetTenantPlanDetails', input: expectedInput },
      { name: 'nav.checkout', input: {} },
    ]);
    expect(navigations).toEqual([]);
  });

  it('a plan without payment renews the tokens (the new plan claim) and goes on to the target', async () => {
    const { runner, calls, navigations } = run(
      tenantPlan,
      { 'gql.SetTenantPlanDetails': details(false), 'auth.refresh': () => undefined },
      environment({ user: signedIn({}), state: { target: '/users' }, path: '/tenant/plan' }),
    );
    await runner.start();
    await runner.submit(choice);
    expect(calls.map((call) => call.name)).toEqual(['gql.SetTenantPlanDetails', 'auth.refresh']);
    expect(navigations).toEqual([{ path: '/users', state: {}, replace: true }]);
  });

  it('back from a paid checkout: renews the tokens and hands over; back from the portal: renews and shows the plans', async () => {
    const paid = run(
      tenantPlan,
      { 'auth.refresh': () => undefined },
      environment({ user: signedIn({}), query: { payments: 'checkout' }, config: { handoverRoute: '/home' } }),
    );
    await paid.runner.start();
    expect(paid.calls.map((call) => call.name)).toEqual(['auth.refresh']);
    expect(paid.navigations).toEqual([{ path: '/home', state: {}, replace: true }]);

    const portal = run(tenantPlan, { 'auth.refresh': () => undefined }, environment({ user: signedIn({}), query: { payments: 'portal' } }));
    await portal.runner.start();
    expect(portal.calls.map((call) => call.name)).toEqual(['auth.refresh']);
    expect(portal.navigations).toEqual([]);
    expect(portal.runner.getState().step).toBe(PLAN_STEPS.plans);
  });

  it('names the refusals', async () => {
    const { runner } = run(
      tenantPlan,
      { 'gql.SetTenantPlanDetails': () => Promise.reject(graphQLError('FORBIDDEN', 403)) },
      environment({ user: signedIn({ role: 'VIEWER' }), path: '/tenant/plan' }),
    );
    await runner.start();
    await runner.submit(choice);
    expect(runner.getState()).toMatchObject({ alert: { message: 'tenantPlan.errors.forbidden' } });
  });
});
