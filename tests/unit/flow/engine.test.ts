// Engine transitions and JSON Logic guards, run on fixture copies of a login and a workspace-picker
// flow (tests/fixtures/engine/), so a change to the shipped flows breaks none of them. The action
// runner below is the engine's input (flows name actions; the runner performs them); it answers in
// the shapes of docs/ORIGINAL-CONTRACT.md so the transitions are exercised as in production.
import { describe, expect, it } from 'vitest';
import chooseUserFlow from '../../fixtures/engine/choose-user.json';
import loginFlow from '../../fixtures/engine/login.json';
import {
  buildContext,
  FlowRunner,
  initialState,
  pickTransition,
  resolveTarget,
  submitDisabled,
  type Navigate,
} from '../../../src/flow/engine.ts';
import { alertFor, errorCodes } from '../../../src/flow/errors.ts';
import { evaluate, holds } from '../../../src/flow/logic.ts';
import type { Flow, FlowEnvironment } from '../../../src/flow/types.ts';

const login = loginFlow as unknown as Flow;
const chooseUser = chooseUserFlow as unknown as Flow;

function environment(overrides: Partial<FlowEnvironment> = {}): FlowEnvironment {
  return { app: {}, config: {}, query: {}, user: { authenticated: false }, tenant: {}, ...overrides };
}

function contextFor(flow: Flow, patch: { step?: string; form?: Record<string, unknown>; result?: unknown }, env = environment()) {
  return buildContext(env, { ...initialState(flow), ...patch });
}

type Call = { name: string; input: Record<string, unknown> };

function harness(flow: Flow, answers: Record<string, (input: Record<string, unknown>) => unknown>, env = environment()) {
  const calls: Call[] = [];
  const navigations: { path: string; state: Record<string, unknown> }[] = [];
  const navigate: Navigate = (path, options) => navigations.push({ path, state: options.state });
  const runner = new FlowRunner({
    flow,
    environment: () => env,
    runAction: async (name, input) => {
      calls.push({ name, input });
      const answer = answers[name];
      if (!answer) throw new Error(`unexpected action ${name}`);
      return answer(input);
    },
    navigate,
  });
  return { runner, calls, navigations };
}

class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code?: string,
  ) {
    super(code ?? String(statusCode));
  }
}

describe('JSON Logic guards', () => {
  it('evaluates conditions over the flow context and treats a missing condition as true', () => {
    const context = contextFor(login, { form: { email: 'a@b.c' }, result: { federationConnections: [] } });
    expect(holds(undefined, context)).toBe(true);
    expect(holds({ var: 'form.email' }, context)).toBe(true);
    expect(holds({ '>': [{ var: 'result.federationConnections.length' }, 0] }, context)).toBe(false);
    expect(evaluate({ cat: ['x-', { var: 'form.email' }] }, context)).toBe('x-a@b.c');
  });

  it('keeps Continue disabled while the e-mail is empty', () => {
    const step = login.steps.USERNAME!;
    expect(submitDisabled(step, contextFor(login, { form: {} }))).toBe(true);
    expect(submitDisabled(step, contextFor(login, { form: { email: '' } }))).toBe(true);
    expect(submitDisabled(step, contextFor(login, { form: { email: 'owner@demo.foyer.test' } }))).toBe(false);
  });

  it('keeps Sign in disabled while the password is empty', () => {
    const step = login.steps.PASSWORD!;
    expect(submitDisabled(step, contextFor(login, { form: { email: 'a@b.c' } }))).toBe(true);
    expect(submitDisabled(step, contextFor(login, { form: { email: 'a@b.c', password: 'x' } }))).toBe(false);
  });
});

describe('login transitions', () => {
  const afterUsername = (result: unknown) =>
    pickTransition(login.steps.USERNAME!.next, contextFor(login, { form: { email: 'a@b.c' }, result }))?.goto;

  it('goes to PASSWORD, FEDERATION-CONNECTIONS or RESET-PASSWORD after the e-mail', () => {
    expect(afterUsername({ hasPassword: true, hasPasskeys: false, federationConnections: [] })).toBe('PASSWORD');
    expect(
      afterUsername({ hasPassword: true, hasPasskeys: false, federationConnections: [{ id: 'c1', name: 'Acme SSO', type: 'saml' }] }),
    ).toBe('FEDERATION-CONNECTIONS');
    expect(afterUsername({ hasPassword: false, hasPasskeys: false, federationConnections: [] })).toBe('RESET-PASSWORD');
  });

  it('routes by mfaState and tenantUserId after the password', () => {
    const next = (result: unknown) => {
      const context = contextFor(login, { form: { email: 'a@b.c', password: 'p' }, result });
      const transition = pickTransition(login.steps.PASSWORD!.next, context)!;
      return transition.error ?? resolveTarget(transition.goto!, context);
    };
    expect(next({ session: false, mfaState: 'DISABLED' })).toBe('WRONG_CREDENTIALS');
    expect(next({ session: true, mfaState: 'REQUIRED', tenantUserId: 't1' })).toEqual({
      kind: 'route',
      path: '/auth/mfa/required',
      state: {},
      replace: false,
    });
    expect(next({ session: true, mfaState: 'SETUP' })).toEqual({ kind: 'route', path: '/auth/mfa/setup', state: {}, replace: false });
    expect(next({ session: true, mfaState: 'DISABLED', tenantUserId: 't1' })).toEqual({
      kind: 'redirect',
      action: 'nav.handover',
      input: { tenantUserId: 't1' },
    });
    expect(next({ session: true, mfaState: 'DISABLED' })).toEqual({ kind: 'route', path: '/auth/choose-user', state: {}, replace: false });
  });

  it('shows the Sign up link only when tenant self-signup is on', () => {
    const signUp = login.steps.USERNAME!.slots!.find((slot) => slot.type === 'link')!;
    expect(holds(signUp.if, contextFor(login, {}, environment({ app: { tenantSelfSignup: true } })))).toBe(true);
    expect(holds(signUp.if, contextFor(login, {}, environment({ app: { tenantSelfSignup: false } })))).toBe(false);
  });
});

describe('FlowRunner on the login flow', () => {
  it('signs in through USERNAME and PASSWORD and hands over the single workspace', async () => {
    const { runner, calls } = harness(login, {
      'auth.credentialsConfig': () => ({ hasPassword: true, hasPasskeys: false, federationConnections: [] }),
      'auth.authenticate': () => ({ session: true, mfaState: 'DISABLED', tenantUserId: 'tu-1' }),
      'nav.handover': () => undefined,
    });
    await runner.start();
    expect(runner.getState()).toMatchObject({ step: 'USERNAME', status: 'idle' });
    await runner.submit({ email: 'admin@acme.demo.foyer.test' });
    expect(runner.getState().step).toBe('PASSWORD');
    runner.setForm({ password: 'Foyer-demo-2026!' });
    await runner.submit();
    expect(calls).toEqual([
      { name: 'auth.credentialsConfig', input: { username: 'admin@acme.demo.foyer.test' } },
      { name: 'auth.authenticate', input: { username: 'admin@acme.demo.foyer.test', password: 'Foyer-demo-2026!' } },
      { name: 'nav.handover', input: { tenantUserId: 'tu-1' } },
    ]);
    expect(runner.getState().status).toBe('leaving');
  });

  it('shows the wrong-credentials text and clears the password, for a refused session and for a 401', async () => {
    for (const refuse of [
      () => ({ session: false, mfaState: 'DISABLED' }),
      () => Promise.reject(new HttpError(401, 'WRONG_CREDENTIALS')),
    ]) {
      const { runner } = harness(login, {
        'auth.credentialsConfig': () => ({ hasPassword: true, hasPasskeys: false, federationConnections: [] }),
        'auth.authenticate': refuse,
      });
      await runner.start();
      await runner.submit({ email: 'a@b.c' });
      const focusBefore = runner.getState().focusKey;
      await runner.submit({ password: 'wrong' });
      const state = runner.getState();
      expect(state.alert).toEqual({ variant: 'danger', title: 'login.errors.title', message: 'login.errors.wrongCredentials' });
      expect(state.form).toEqual({ email: 'a@b.c' });
      expect(state.step).toBe('PASSWORD');
      expect(state.status).toBe('idle');
      expect(state.focusKey).toBeGreaterThan(focusBefore);
    }
  });

  it('shows the generic login error for other failures', async () => {
    const { runner } = harness(login, {
      'auth.credentialsConfig': () => ({ hasPassword: true, hasPasskeys: false, federationConnections: [] }),
      'auth.authenticate': () => Promise.reject(new HttpError(500)),
    });
    await runner.start();
    await runner.submit({ email: 'a@b.c' });
    await runner.submit({ password: 'x' });
    expect(runner.getState().alert?.message).toBe('login.errors.generic');
  });

  it('ignores a submit while the button is disabled', async () => {
    const { runner, calls } = harness(login, {});
    await runner.start();
    await runner.submit({ email: '' });
    expect(calls).toEqual([]);
    expect(runner.getState().step).toBe('USERNAME');
  });

  it("'Try a different email' returns to USERNAME and forgets everything", async () => {
    const { runner } = harness(login, {
      'auth.credentialsConfig': () => ({ hasPassword: true, hasPasskeys: false, federationConnections: [] }),
      'auth.authenticate': () => ({ session: false, mfaState: 'DISABLED' }),
    });
    await runner.start();
    await runner.submit({ email: 'a@b.c' });
    await runner.submit({ password: 'x' });
    const tryAgain = login.steps.PASSWORD!.slots!.find((slot) => slot.type === 'button' && slot.goto === 'USERNAME')!;
    if (tryAgain.type !== 'button') throw new Error('button slot expected');
    await runner.follow(tryAgain.goto, tryAgain.reset);
    expect(runner.getState()).toMatchObject({ step: 'USERNAME', form: {}, result: undefined, alert: null });
  });

  it('auto-selects a single federation connection', async () => {
    const { runner, calls } = harness(login, {
      'auth.credentialsConfig': () => ({
        hasPassword: true,
        hasPasskeys: false,
        federationConnections: [{ id: 'c1', name: 'Acme SSO', type: 'oidc' }],
      }),
      'nav.federation': () => undefined,
    });
    await runner.start();
    await runner.submit({ email: 'a@acme.test' });
    expect(calls.at(-1)).toEqual({ name: 'nav.federation', input: { type: 'oidc', id: 'c1' } });
  });

  it('lists several federation connections and waits for a choice', async () => {
    const connections = [
      { id: 'c1', name: 'Acme SSO', type: 'oidc' },
      { id: 'c2', name: 'Acme SAML', type: 'saml' },
    ];
    const { runner, calls } = harness(login, {
      'auth.credentialsConfig': () => ({ hasPassword: true, hasPasskeys: false, federationConnections: connections }),
      'nav.federation': () => undefined,
    });
    await runner.start();
    await runner.submit({ email: 'a@acme.test' });
    expect(runner.getState()).toMatchObject({ step: 'FEDERATION-CONNECTIONS', status: 'idle' });
    await runner.submit({ connectionId: 'c2', connectionType: 'saml' });
    expect(calls.at(-1)).toEqual({ name: 'nav.federation', input: { type: 'saml', id: 'c2' } });
  });

  it('sends an account without password to the reset screen with the e-mail', async () => {
    const { runner, navigations } = harness(login, {
      'auth.credentialsConfig': () => ({ hasPassword: false, hasPasskeys: false, federationConnections: [] }),
    });
    await runner.start();
    await runner.submit({ email: 'new@b.c' });
    expect(runner.getState().step).toBe('RESET-PASSWORD');
    await runner.submit();
    expect(navigations).toEqual([{ path: '/auth/reset-password', state: { email: 'new@b.c' } }]);
  });

  it('shows the query-string errors, the magic-link one first', async () => {
    for (const [query, message] of [
      [{ error: 'true' }, 'login.errors.query'],
      [{ error: 'true', errorDetails: 'mle' }, 'login.errors.magicLinkExpired'],
      [{ error: 'true', details: 'mle' }, 'login.errors.magicLinkExpired'],
    ] as const) {
      const { runner } = harness(login, {}, environment({ query }));
      await runner.start();
      expect(runner.getState().alert?.message).toBe(message);
    }
    const { runner } = harness(login, {});
    await runner.start();
    expect(runner.getState().alert).toBeNull();
  });

  it('signs a signed-in user out locally when the login opens', async () => {
    const signedIn = harness(login, { 'auth.clear': () => undefined }, environment({ user: { authenticated: true } }));
    await signedIn.runner.start();
    expect(signedIn.calls).toEqual([{ name: 'auth.clear', input: {} }]);
    const anonymous = harness(login, {});
    await anonymous.runner.start();
    expect(anonymous.calls).toEqual([]);
  });
});

describe("a flow's first frame", () => {
  // As flows/reset-password.json: the e-mail handed over by the login, unless the app has no passwords.
  const handedOver = {
    id: 'handed-over',
    routes: ['/reset'],
    title: 'resetPassword.title',
    initial: 'FORM',
    onEnter: [{ if: { '===': [{ var: 'app.passwordEnabled' }, false] }, goto: { route: '/auth/login', replace: true } }],
    steps: { FORM: { form: 'reset-password', defaults: { email: { or: [{ var: 'state.email' }, { var: 'query.email' }, null] } } } },
  } as unknown as Flow;
  const opening = (flow: Flow, env: FlowEnvironment) => harness(flow, {}, env).runner.getState();

  it('holds the first step’s defaults before the flow starts, when nothing has to run first', () => {
    const state = opening(handedOver, environment({ state: { email: 'owner@demo.foyer.test' } }));
    expect(state.form).toEqual({ email: 'owner@demo.foyer.test' });
    expect(state.prefilled).toEqual(['email']);
    expect(state.status).toBe('starting');
  });

  it('leaves them to the start when an onEnter entry holds or the step loads first', () => {
    expect(opening(handedOver, environment({ app: { passwordEnabled: false }, state: { email: 'a@b.c' } })).form).toEqual({});
    const loading = { ...handedOver, steps: { FORM: { ...handedOver.steps.FORM, load: { action: 'gql.GetMe' } } } } as Flow;
    expect(opening(loading, environment({ state: { email: 'a@b.c' } })).form).toEqual({});
  });
});

describe('FlowRunner on the choose-user flow', () => {
  const workspace = (id: string, name: string | null) => ({
    id,
    role: 'OWNER',
    email: 'owner@demo.foyer.test',
    username: 'owner@demo.foyer.test',
    onboarded: true,
    tenant: { id: `t-${id}`, name, locale: 'en', logo: null },
  });

  it('chooses a single workspace automatically unless autoSelect is the text false', async () => {
    for (const [autoSelect, handedOver] of [
      [undefined, true],
      ['true', true],
      ['0', true],
      ['false', false],
    ] as const) {
      const query: Record<string, string> = autoSelect === undefined ? {} : { autoSelect };
      const { runner, calls } = harness(
        chooseUser,
        { 'auth.tenantUsers': () => [workspace('tu-1', 'Acme')], 'nav.handover': () => undefined },
        environment({ query }),
      );
      await runner.start();
      expect(calls.some((call) => call.name === 'nav.handover')).toBe(handedOver);
      if (!handedOver) expect(runner.getState()).toMatchObject({ step: 'PICK', status: 'idle' });
    }
  });

  it('preselects the current workspace only when it is in the list, and hands over the choice', async () => {
    const list = [workspace('tu-1', 'Acme'), workspace('tu-2', 'Globex')];
    const current = harness(
      chooseUser,
      { 'auth.tenantUsers': () => list, 'nav.handover': () => undefined },
      environment({ user: { authenticated: true, tenantUserId: 'tu-2' } }),
    );
    await current.runner.start();
    expect(current.runner.getState().form).toEqual({ tenantUserId: 'tu-2' });

    const stranger = harness(
      chooseUser,
      { 'auth.tenantUsers': () => list, 'nav.handover': () => undefined },
      environment({ user: { authenticated: false, tenantUserId: 'other' } }),
    );
    await stranger.runner.start();
    expect(stranger.runner.getState().form).toEqual({});
    expect(submitDisabled(chooseUser.steps.PICK!, stranger.runner.context())).toBe(true);
    await stranger.runner.submit({ tenantUserId: 'tu-1' });
    expect(stranger.calls.at(-1)).toEqual({ name: 'nav.handover', input: { tenantUserId: 'tu-1' } });
  });

  it('shows the empty state when the user has no workspace', async () => {
    const { runner } = harness(chooseUser, { 'auth.tenantUsers': () => [] });
    await runner.start();
    expect(runner.getState().step).toBe('EMPTY');
  });

  it('shows an error when the workspace list cannot be read', async () => {
    const { runner } = harness(chooseUser, { 'auth.tenantUsers': () => Promise.reject(new HttpError(401)) });
    await runner.start();
    expect(runner.getState()).toMatchObject({
      step: 'PICK',
      status: 'idle',
      alert: { message: 'login.errors.generic', title: 'errors.title' },
    });
  });
});

describe('error mapping', () => {
  it('reads codes and statuses from REST and GraphQL errors', () => {
    expect(errorCodes({ statusCode: 401, code: 'WRONG_CREDENTIALS' })).toEqual(['WRONG_CREDENTIALS', '401']);
    expect(errorCodes({ errors: [{ extensions: { code: 'UNKNOWN_APP', response: { statusCode: 404 } } }] })).toEqual([
      'UNKNOWN_APP',
      '404',
    ]);
    expect(errorCodes(new Error('network'))).toEqual([]);
  });

  it('prefers a mapped code, then the default', () => {
    const map = { title: 'login.errors.title', codes: { '401': 'login.errors.wrongCredentials' }, default: 'login.errors.generic' };
    expect(alertFor({ statusCode: 401 }, map).message).toBe('login.errors.wrongCredentials');
    expect(alertFor({ statusCode: 503 }, map).message).toBe('login.errors.generic');
  });
});
