// Steps in the address, in the engine: where a fresh start may resume (never past a step whose server
// action has not run), and Back/Forward returning to a step shown before with its answers kept.
import { describe, expect, it } from 'vitest';
import collectingFlow from '../../fixtures/engine/collecting.json';
import loginFlow from '../../fixtures/engine/login.json';
import { canResumeAt, FlowRunner } from '../../../src/flow/engine.ts';
import type { Flow } from '../../../src/flow/types.ts';

const collecting = collectingFlow as unknown as Flow;
const login = loginFlow as unknown as Flow;

function runner(flow: Flow) {
  const calls: string[] = [];
  const flowRunner = new FlowRunner({
    flow,
    environment: () => ({ app: {}, config: {}, query: {}, user: {}, tenant: {} }),
    runAction: async (name) => {
      calls.push(name);
      return {};
    },
    navigate: () => undefined,
  });
  return { flowRunner, calls };
}

describe('resuming at the step in the address', () => {
  it('resumes only past steps that run no action', () => {
    expect(canResumeAt(collecting, 'ABOUT')).toBe(true);
    expect(canResumeAt(collecting, 'FORM')).toBe(true);
    // FORM creates the account: SENT is past a server action.
    expect(canResumeAt(collecting, 'SENT')).toBe(false);
    expect(canResumeAt(collecting, 'NOWHERE')).toBe(false);
    expect(canResumeAt(login, login.initial)).toBe(true);
    for (const step of Object.keys(login.steps).filter((name) => name !== login.initial)) {
      expect(canResumeAt(login, step), step).toBe(false);
    }
  });

  it('opens the step named when it may, the initial step otherwise', async () => {
    const safe = runner(collecting);
    await safe.flowRunner.start('FORM');
    expect(safe.flowRunner.getState().step).toBe('FORM');
    const unsafe = runner(collecting);
    await unsafe.flowRunner.start('SENT');
    expect(unsafe.flowRunner.getState().step).toBe('ABOUT');
    expect(unsafe.calls).toEqual([]);
  });
});

describe('returning to a step shown before', () => {
  it('shows it again with every answer kept and runs nothing, and refuses a step never shown', async () => {
    const { flowRunner, calls } = runner(collecting);
    await flowRunner.start();
    expect(flowRunner.revisit('FORM')).toBe(false);
    await flowRunner.submit({ companySize: '11-50' });
    flowRunner.setForm({ email: 'new@b.test' });
    expect(flowRunner.revisit('ABOUT')).toBe(true);
    expect(flowRunner.getState().step).toBe('ABOUT');
    expect(flowRunner.revisit('FORM')).toBe(true);
    expect(flowRunner.getState()).toMatchObject({ step: 'FORM', form: { companySize: '11-50', email: 'new@b.test' }, status: 'idle' });
    expect(flowRunner.revisit('SENT')).toBe(false);
    expect(calls).toEqual([]);
  });
});
