// The login flow's sign-in options, run by the real engine on flows/login.json: passwords switched off
// skip the password step, social providers show their buttons, and the federation error explains
// itself. Steps are named by what they show (tests/unit/flow/walk.ts), so the flow may rename or add
// steps. The action runner answers like the auth service does.
import { describe, expect, it } from 'vitest';
import loginFlow from '../../../flows/login.json';
import { buildContext, FlowRunner, initialState, stepOf } from '../../../src/flow/engine.ts';
import { holds } from '../../../src/flow/logic.ts';
import type { Flow, FlowEnvironment } from '../../../src/flow/types.ts';
import { stepNameShowing } from './walk.ts';

const login = loginFlow as unknown as Flow;
/** The e-mail step, the password step and the enterprise connections' step, whatever the flow calls them. */
const EMAIL_STEP = stepNameShowing(login, { form: 'login-username' });
const PASSWORD_STEP = stepNameShowing(login, { form: 'login-password' });
const CONNECTIONS_STEP = stepNameShowing(login, { component: 'FederationConnections' });

function environment(
  app: Record<string, unknown>,
  query: Record<string, string> = {},
  config: Record<string, unknown> = {},
): FlowEnvironment {
  return {
    app,
    config: { authLegacy: false, ...config },
    query,
    user: { authenticated: false },
    tenant: {},
    params: {},
    state: {},
    path: '/auth/login',
  };
}

function run(env: FlowEnvironment, credentials = { hasPassword: true, hasPasskeys: false, federationConnections: [] as unknown[] }) {
  const navigations: { path: string; state: Record<string, unknown> }[] = [];
  const runner = new FlowRunner({
    flow: login,
    environment: () => env,
    runAction: async (name) => {
      if (name === 'auth.credentialsConfig') return credentials;
      throw new Error(`unexpected action ${name}`);
    },
    navigate: (path, options) => navigations.push({ path, state: options.state }),
  });
  return { runner, navigations };
}

/** The e-mail step's component slots that show in `env`. */
function shownComponents(env: FlowEnvironment): { component: string; props?: unknown }[] {
  const context = buildContext(env, initialState(login));
  return (stepOf(login, EMAIL_STEP).slots ?? [])
    .filter((slot) => slot.type === 'component' && holds(slot.if, context))
    .map((slot) => slot as { component: string; props?: unknown });
}

describe('passwords switched off', () => {
  it('sends the e-mail to the magic link screen instead of the password step when magic links are on', async () => {
    const { runner, navigations } = run(environment({ passwordEnabled: false, magicLinkEnabled: true }));
    await runner.start();
    await runner.submit({ email: 'ada@example.test' });
    expect(navigations).toEqual([{ path: '/auth/magic-link', state: { email: 'ada@example.test' } }]);
  });

  it('says password sign-in is not available when nothing else takes the e-mail', async () => {
    const { runner } = run(environment({ passwordEnabled: false, magicLinkEnabled: false }));
    await runner.start();
    await runner.submit({ email: 'ada@example.test' });
    expect(runner.getState().step).toBe(EMAIL_STEP);
    expect(runner.getState().alert).toEqual({ variant: 'danger', title: 'login.errors.title', message: 'login.errors.passwordDisabled' });
  });

  it('still follows the e-mail to its federation connections', async () => {
    const connections = [
      { id: 'c1', name: 'Acme SSO', type: 'saml' },
      { id: 'c2', name: 'Acme OIDC', type: 'oidc' },
    ];
    const { runner } = run(environment({ passwordEnabled: false }), {
      hasPassword: false,
      hasPasskeys: false,
      federationConnections: connections,
    });
    await runner.start();
    await runner.submit({ email: 'ada@acme.test' });
    expect(runner.getState().step).toBe(CONNECTIONS_STEP);
  });

  it('never shows the password step, even when asked to open it', async () => {
    const atPassword = new FlowRunner({
      flow: { ...login, initial: PASSWORD_STEP },
      environment: () => environment({ passwordEnabled: false }),
      runAction: async () => undefined,
      navigate: () => undefined,
    });
    await atPassword.start();
    expect(atPassword.getState().step).toBe(EMAIL_STEP);
  });

  it("shows 'Forgot password?' on the password step only while passwords are on", () => {
    const forgotShown = (app: Record<string, unknown>) => {
      const context = buildContext(environment(app), initialState(login));
      return (stepOf(login, PASSWORD_STEP).slots ?? []).some(
        (slot) => slot.type === 'button' && slot.label === 'login.forgotPassword' && holds(slot.if, context),
      );
    };
    expect(forgotShown({ passwordEnabled: false })).toBe(false);
    expect(forgotShown({ passwordEnabled: true })).toBe(true);
    expect(forgotShown({})).toBe(true);
  });

  it('keeps the password step when the app leaves passwords on or does not say', async () => {
    for (const app of [{ passwordEnabled: true }, {}]) {
      const { runner } = run(environment(app));
      await runner.start();
      await runner.submit({ email: 'ada@example.test' });
      expect(runner.getState().step).toBe(PASSWORD_STEP);
    }
  });
});

describe('social buttons', () => {
  it('show the enabled providers on the e-mail step, except in legacy mode or without providers', () => {
    expect(shownComponents(environment({ socialProviders: ['google', 'github'] }))).toEqual([
      {
        type: 'component',
        if: expect.anything(),
        component: 'SocialButtons',
        props: { providers: { var: 'app.socialProviders' }, mode: 'signIn' },
      },
    ]);
    expect(shownComponents(environment({ socialProviders: ['google'] }, {}, { authLegacy: true }))).toEqual([]);
    expect(shownComponents(environment({ socialProviders: [] }))).toEqual([]);
    expect(shownComponents(environment({ socialProviders: null }))).toEqual([]);
  });
});

describe('the federation error', () => {
  it('explains that the provider is not available yet', async () => {
    const { runner } = run(environment({}, { error: 'federation', errorDetails: 'unavailable' }));
    await runner.start();
    expect(runner.getState().alert).toEqual({
      variant: 'danger',
      title: 'login.errors.title',
      message: 'login.errors.federationUnavailable',
    });
  });
});
