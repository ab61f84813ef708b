// The two-factor flows (setup wizard, security code, recovery) run by the real engine on the real
// flow files, with the answers and errors the auth service gives.
import { describe, expect, it } from 'vitest';
import mfaSetupFlow from '../../../flows/mfa-setup.json';
import mfaRequiredFlow from '../../../flows/mfa-required.json';
import mfaRecoverFlow from '../../../flows/mfa-recover.json';
import en from '../../../src/i18n/locales/en.json';
import { ApiError, UnauthenticatedError } from '../../../src/http/errors.ts';
import { FlowRunner, submitDisabled } from '../../../src/flow/engine.ts';
import { evaluateMapping } from '../../../src/flow/logic.ts';
import type { Flow, FlowEnvironment, Step } from '../../../src/flow/types.ts';
import { stepNameWhere } from './walk.ts';

const setup = mfaSetupFlow as unknown as Flow;
const required = mfaRequiredFlow as unknown as Flow;
const recoverFlow = mfaRecoverFlow as unknown as Flow;

/** The flows' steps named by what they show or do (tests/unit/flow/walk.ts), so the flows may rename or add steps. */
type Submit = { action?: string; input?: { method?: string } };
const submitOf = (step: Step) => (step.submit ?? {}) as Submit;
const SETUP = {
  method: stepNameWhere(setup, (step) => !step.form),
  phone: stepNameWhere(setup, (step) => step.form === 'mfa-phone'),
  code: stepNameWhere(setup, (step) => submitOf(step).action === 'auth.finishMfaUserSetup'),
  totp: stepNameWhere(setup, (step) => submitOf(step).action === 'auth.finishTotpSetup'),
  recoveryCode: stepNameWhere(setup, (step) => step.form === 'mfa-recovery-code-shown'),
};
const REQUIRED = {
  method: stepNameWhere(required, (step) => step.load?.action === 'auth.mfaMethods'),
  code: stepNameWhere(required, (step) => submitOf(step).input?.method === 'sms'),
  totp: stepNameWhere(required, (step) => submitOf(step).input?.method === 'totp'),
  resend: stepNameWhere(required, (step) => step.load?.action === 'auth.resendMfaCode'),
};
const RECOVER = { recoveryCode: stepNameWhere(recoverFlow, (step) => step.form === 'mfa-recovery-code') };

const environment: FlowEnvironment = {
  app: { mfaEnabled: true },
  config: { handoverRoute: '/' },
  query: {},
  user: { authenticated: false },
  tenant: {},
  params: {},
  state: {},
  path: '/',
};

type Answers = Record<string, (input: Record<string, unknown>) => unknown>;

function run(subject: Flow, answers: Answers) {
  const calls: { name: string; input: Record<string, unknown> }[] = [];
  const navigations: string[] = [];
  const runner = new FlowRunner({
    flow: subject,
    environment: () => environment,
    runAction: async (name, input) => {
      calls.push({ name, input });
      const answer = answers[name];
      if (!answer) throw new Error(`unexpected action ${name}`);
      return answer(input);
    },
    navigate: (path) => navigations.push(path),
  });
  return { runner, calls, navigations };
}

const wrong = (code: string) => new UnauthenticatedError({ message: 'Wrong', code, statusCode: 401 });
const text = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en);

describe('mfa-setup', () => {
  it('goes method, phone number, code, recovery code shown once, then the workspace picker', async () => {
    const { runner, calls, navigations } = run(setup, {
      'auth.startMfaUserSetup': () => undefined,
      'auth.finishMfaUserSetup': () => ({ backupCode: 'ABCD-EFGH-JKMN-PQRS' }),
    });
    await runner.start();
    expect(runner.getState().step).toBe(SETUP.method);
    await runner.follow(SETUP.phone);
    expect(submitDisabled(setup.steps[SETUP.phone]!, runner.context())).toBe(true);
    runner.setForm({ phoneNumber: '+46701234567' });
    expect(submitDisabled(setup.steps[SETUP.phone]!, runner.context())).toBe(false);
    await runner.submit();
    expect(calls[0]).toEqual({ name: 'auth.startMfaUserSetup', input: { phoneNumber: '+46701234567' } });
    expect(runner.getState().step).toBe(SETUP.code);
    expect(submitDisabled(setup.steps[SETUP.code]!, runner.context())).toBe(true);
    await runner.submit({ mfaCode: '123456' });
    expect(calls[1]).toEqual({ name: 'auth.finishMfaUserSetup', input: { mfaCode: '123456' } });
    expect(runner.getState()).toMatchObject({ step: SETUP.recoveryCode, form: { backupCode: 'ABCD-EFGH-JKMN-PQRS' } });
    await runner.submit();
    expect(navigations).toEqual(['/auth/choose-user']);
    expect(calls).toHaveLength(2);
  });

  it('shows the phone setup text when the server refuses the number', async () => {
    const { runner } = run(setup, {
      'auth.startMfaUserSetup': () => Promise.reject(new ApiError({ message: 'E.164', code: 'INVALID_PHONE_NUMBER', statusCode: 400 })),
    });
    await runner.start();
    await runner.follow(SETUP.phone);
    await runner.submit({ phoneNumber: '0701234567' });
    expect(runner.getState()).toMatchObject({ step: SETUP.phone, alert: { message: 'mfa.errors.phone' } });
    expect(text('mfa.errors.phone')).toBe(
      "There was an error when trying to setup your phone number. Try again and make sure you're using the correct format, otherwise contact support.",
    );
    expect(text('fields.phoneNumberPlaceholder')).toBe('+46...');
  });

  it('tells a wrong code from other failures, and clears the field', async () => {
    let failure: Error = wrong('WRONG_MFA_CODE');
    const { runner } = run(setup, { 'auth.startMfaUserSetup': () => undefined, 'auth.finishMfaUserSetup': () => Promise.reject(failure) });
    await runner.start();
    await runner.follow(SETUP.phone);
    await runner.submit({ phoneNumber: '+46701234567' });
    await runner.submit({ mfaCode: '000000' });
    expect(runner.getState()).toMatchObject({ step: SETUP.code, alert: { message: 'mfa.errors.wrongCode' } });
    expect(runner.getState().form.mfaCode).toBeUndefined();
    failure = wrong('MFA_CODE_EXPIRED');
    await runner.submit({ mfaCode: '000000' });
    expect(runner.getState().alert).toMatchObject({ message: 'login.errors.generic' });
  });
});

describe('mfa-setup with an authenticator app', () => {
  const totpSetup = {
    secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    otpauthUrl: 'otpauth://totp/x',
    qrCodeDataUrl: 'data:image/png;base64,AA',
  };

  it('shows the new secret, verifies a code, shows the recovery code, then the workspace picker', async () => {
    const { runner, calls, navigations } = run(setup, {
      'auth.startTotpSetup': () => totpSetup,
      'auth.finishTotpSetup': () => ({ backupCode: 'ABCD-EFGH-JKMN-PQRS' }),
    });
    await runner.start();
    await runner.follow(SETUP.totp);
    expect(calls).toEqual([{ name: 'auth.startTotpSetup', input: {} }]);
    const secretSlot = setup.steps[SETUP.totp]!.slots!.find((slot) => slot.type === 'component')!;
    expect(evaluateMapping((secretSlot as { props: Record<string, unknown> }).props, runner.context())).toEqual({
      secret: totpSetup.secret,
      qrCodeDataUrl: totpSetup.qrCodeDataUrl,
    });
    expect(submitDisabled(setup.steps[SETUP.totp]!, runner.context())).toBe(true);
    await runner.submit({ mfaCode: '123456' });
    expect(calls[1]).toEqual({ name: 'auth.finishTotpSetup', input: { mfaCode: '123456' } });
    expect(runner.getState()).toMatchObject({ step: SETUP.recoveryCode, form: { backupCode: 'ABCD-EFGH-JKMN-PQRS' } });
    await runner.submit();
    expect(navigations).toEqual(['/auth/choose-user']);
  });

  it('tells a wrong code from other failures, and starts over with a new secret from the method choice', async () => {
    let failure: Error = wrong('WRONG_MFA_CODE');
    const { runner, calls } = run(setup, { 'auth.startTotpSetup': () => totpSetup, 'auth.finishTotpSetup': () => Promise.reject(failure) });
    await runner.start();
    await runner.follow(SETUP.totp);
    await runner.submit({ mfaCode: '000000' });
    expect(runner.getState()).toMatchObject({ step: SETUP.totp, alert: { message: 'mfa.errors.wrongCode' } });
    expect(runner.getState().form.mfaCode).toBeUndefined();
    failure = wrong('MFA_CODE_EXPIRED');
    await runner.submit({ mfaCode: '000000' });
    expect(runner.getState().alert).toMatchObject({ message: 'login.errors.generic' });
    await runner.follow(SETUP.method);
    await runner.follow(SETUP.totp);
    expect(calls.filter((call) => call.name === 'auth.startTotpSetup')).toHaveLength(2);
  });
});

describe('mfa-required', () => {
  const methods =
    (...names: string[]) =>
    () => ({ methods: names });

  it('goes straight to the texted code when the user has only a phone, and commits it', async () => {
    const { runner, calls, navigations } = run(required, { 'auth.mfaMethods': methods('sms'), 'auth.commitMfaCode': () => undefined });
    await runner.start();
    expect(runner.getState().step).toBe(REQUIRED.code);
    expect(submitDisabled(required.steps[REQUIRED.code]!, runner.context())).toBe(true);
    await runner.submit({ mfaCode: '123456' });
    expect(calls).toEqual([
      { name: 'auth.mfaMethods', input: {} },
      { name: 'auth.commitMfaCode', input: { mfaCode: '123456', method: 'sms' } },
    ]);
    expect(navigations).toEqual(['/auth/choose-user']);
  });

  it('goes straight to the app code when the user has only an authenticator app', async () => {
    const { runner, calls, navigations } = run(required, { 'auth.mfaMethods': methods('totp'), 'auth.commitMfaCode': () => undefined });
    await runner.start();
    expect(runner.getState().step).toBe(REQUIRED.totp);
    await runner.submit({ mfaCode: '654321' });
    expect(calls[1]).toEqual({ name: 'auth.commitMfaCode', input: { mfaCode: '654321', method: 'totp' } });
    expect(navigations).toEqual(['/auth/choose-user']);
  });

  it('lets a user with both pick one, texting a code only when SMS is picked', async () => {
    const { runner, calls } = run(required, {
      'auth.mfaMethods': methods('totp', 'sms'),
      'auth.resendMfaCode': () => undefined,
      'auth.commitMfaCode': () => undefined,
    });
    await runner.start();
    expect(runner.getState().step).toBe(REQUIRED.method);
    await runner.follow(REQUIRED.totp);
    expect(runner.getState().step).toBe(REQUIRED.totp);
    await runner.follow(REQUIRED.method);
    await runner.follow(REQUIRED.resend);
    expect(runner.getState().step).toBe(REQUIRED.code);
    expect(calls.map((call) => call.name)).toEqual(['auth.mfaMethods', 'auth.mfaMethods', 'auth.resendMfaCode']);
    await runner.submit({ mfaCode: '123456' });
    expect(calls.at(-1)).toEqual({ name: 'auth.commitMfaCode', input: { mfaCode: '123456', method: 'sms' } });
  });

  it('says wrong security code for WRONG_MFA_CODE and the login error otherwise', async () => {
    let failure: Error = wrong('WRONG_MFA_CODE');
    const { runner } = run(required, { 'auth.mfaMethods': methods('sms'), 'auth.commitMfaCode': () => Promise.reject(failure) });
    await runner.start();
    await runner.submit({ mfaCode: '000000' });
    expect(runner.getState().alert).toMatchObject({ message: 'mfa.errors.wrongCode' });
    expect(text('mfa.errors.wrongCode')).toBe('Wrong security code, please try again.');
    failure = new Error('network');
    await runner.submit({ mfaCode: '000000' });
    expect(runner.getState().alert).toMatchObject({ message: 'login.errors.generic' });
  });

  it('asks for a new code and comes back to the code step', async () => {
    const { runner, calls } = run(required, { 'auth.mfaMethods': methods('sms'), 'auth.resendMfaCode': () => undefined });
    await runner.start();
    await runner.follow(REQUIRED.resend);
    expect(calls).toEqual([
      { name: 'auth.mfaMethods', input: {} },
      { name: 'auth.resendMfaCode', input: {} },
    ]);
    expect(runner.getState().step).toBe(REQUIRED.code);
  });
});

describe('mfa-recover', () => {
  it('resets two-factor with the recovery code and goes to setup', async () => {
    const { runner, calls, navigations } = run(recoverFlow, { 'auth.resetUserMfaSetup': () => undefined });
    await runner.start();
    expect(submitDisabled(recoverFlow.steps[RECOVER.recoveryCode]!, runner.context())).toBe(true);
    await runner.submit({ backupCode: 'ABCD-EFGH-JKMN-PQRS' });
    expect(calls).toEqual([{ name: 'auth.resetUserMfaSetup', input: { backupCode: 'ABCD-EFGH-JKMN-PQRS' } }]);
    expect(navigations).toEqual(['/auth/mfa/setup']);
  });

  it('says wrong recovery code, or the recovery error for other failures', async () => {
    let failure: Error = wrong('WRONG_RECOVERY_CODE');
    const { runner } = run(recoverFlow, { 'auth.resetUserMfaSetup': () => Promise.reject(failure) });
    await runner.start();
    await runner.submit({ backupCode: 'nope' });
    expect(runner.getState().alert).toMatchObject({ message: 'mfa.errors.wrongRecoveryCode' });
    expect(text('mfa.errors.wrongRecoveryCode')).toBe('Wrong recovery code, please try again.');
    failure = new ApiError({ message: 'Too many', code: 'TOO_MANY_REQUESTS', statusCode: 429 });
    await runner.submit({ backupCode: 'nope' });
    expect(runner.getState().alert).toMatchObject({ message: 'mfa.errors.recover' });
    expect(text('mfa.errors.recover')).toBe('There was an error when recovering. Try again, otherwise contact support.');
  });
});
