// Flow-declared attributes in the engine, on a fixture flow: what a step collects reaches the action
// as `collected` (the flow's only way to send it), and a value the server refuses is shown at its
// field, on the step that collected it, with every answer kept.
import { describe, expect, it } from 'vitest';
import collectingFlow from '../../fixtures/engine/collecting.json';
import editingFlow from '../../fixtures/engine/editing-attributes.json';
import { FlowRunner } from '../../../src/flow/engine.ts';
import { ApiError } from '../../../src/http/errors.ts';
import type { Flow } from '../../../src/flow/types.ts';

const flow = collectingFlow as unknown as Flow;

function harness(answer: (input: Record<string, unknown>) => unknown) {
  const calls: Record<string, unknown>[] = [];
  const runner = new FlowRunner({
    flow,
    environment: () => ({ app: {}, config: {}, query: {}, user: {}, tenant: {} }),
    runAction: async (_name, input) => {
      calls.push(input);
      return answer(input);
    },
    navigate: () => undefined,
  });
  return { runner, calls };
}

const refused = (fields: Record<string, string | string[]>) =>
  new ApiError({
    message: 'Some fields are not valid',
    code: 'BAD_USER_INPUT',
    statusCode: 400,
    details: [{ message: 'Some fields are not valid', extensions: { code: 'BAD_USER_INPUT', fields } }],
  });

describe('collected values', () => {
  it('hands the action the collected fields that have a value, and nothing else of the form', async () => {
    const { runner, calls } = harness(() => ({ createTenantAnonymous: { id: 't1' } }));
    await runner.start();
    await runner.submit({ companySize: '11-50', jobTitle: '' });
    expect(runner.getState().step).toBe('FORM');
    await runner.submit({ email: 'new@b.test', team: 'sales', password: 'secret' });
    expect(calls).toEqual([{ tenant: { owner: { email: 'new@b.test' }, attributes: { companySize: '11-50', team: 'sales' } } }]);
    expect(runner.getState().step).toBe('SENT');
  });

  it('goes back to the step that collected a refused value, shows the error there and keeps the answers', async () => {
    const { runner } = harness(() => {
      throw refused({ companySize: ['Choose one of the options'] });
    });
    await runner.start();
    await runner.submit({ companySize: '5000+' });
    await runner.submit({ email: 'new@b.test' });
    const state = runner.getState();
    expect(state.step).toBe('ABOUT');
    expect(state.fieldErrors).toEqual({ companySize: ['Choose one of the options'] });
    expect(state.alert?.message).toBe('signup.errors.generic');
    expect(state.form).toMatchObject({ companySize: '5000+', email: 'new@b.test' });
    expect(state.status).toBe('idle');
  });

  it('places a refused value of the current step on its own field, not under the "*" mapping', async () => {
    const { runner } = harness(() => {
      throw refused({ team: 'Choose one of the options', email: 'Enter a valid e-mail address', size: 'Enter a number' });
    });
    await runner.start();
    await runner.submit({ companySize: '1-10' });
    await runner.submit({ email: 'x', team: 'nobody' });
    const state = runner.getState();
    expect(state.step).toBe('FORM');
    expect(state.fieldErrors).toEqual({
      team: ['Choose one of the options'],
      email: ['Enter a valid e-mail address'],
      'customParams.size': ['Enter a number'],
    });
  });
});

describe('failures the flow has no words for', () => {
  function reporting(error: unknown) {
    const reports: { step: string; codes: string[]; fields: string[] }[] = [];
    const runner = new FlowRunner({
      flow,
      environment: () => ({ app: {}, config: {}, query: {}, user: {}, tenant: {} }),
      runAction: async () => {
        throw error;
      },
      navigate: () => undefined,
      reportUnmapped: ({ step, codes, fields }) => reports.push({ step, codes, fields }),
    });
    return { runner, reports };
  }

  it('reports a code the step does not map, with every code it carries', async () => {
    const { runner, reports } = reporting(new ApiError({ message: 'Nope', code: 'BRAND_NEW_CODE', statusCode: 409 }));
    await runner.start();
    await runner.submit({ companySize: '1-10' });
    await runner.submit({ email: 'new@b.test' });
    expect(runner.getState().alert?.message).toBe('signup.errors.generic');
    expect(reports).toEqual([{ step: 'FORM', codes: ['BRAND_NEW_CODE', '409'], fields: [] }]);
  });

  it('reports server field errors that no field shows, even under a mapped code', async () => {
    const fixture = structuredClone(collectingFlow) as unknown as Flow;
    fixture.steps.FORM!.onError = { default: 'signup.errors.generic', codes: { BAD_USER_INPUT: 'form.errors.invalid' } };
    const reports: { codes: string[]; fields: string[] }[] = [];
    const runner = new FlowRunner({
      flow: fixture,
      environment: () => ({ app: {}, config: {}, query: {}, user: {}, tenant: {} }),
      runAction: async () => {
        throw refused({ plan: 'This app has no such plan' });
      },
      navigate: () => undefined,
      reportUnmapped: ({ codes, fields }) => reports.push({ codes, fields }),
    });
    await runner.start();
    await runner.submit({ companySize: '1-10' });
    await runner.submit({ email: 'new@b.test' });
    expect(reports).toEqual([{ codes: ['BAD_USER_INPUT', '400'], fields: ['plan'] }]);
  });

  it('stays quiet when the step maps the code and places every field', async () => {
    const fixture = structuredClone(collectingFlow) as unknown as Flow;
    fixture.steps.FORM!.onError!.codes = { BAD_USER_INPUT: 'form.errors.invalid' };
    const reports: unknown[] = [];
    const runner = new FlowRunner({
      flow: fixture,
      environment: () => ({ app: {}, config: {}, query: {}, user: {}, tenant: {} }),
      runAction: async () => {
        throw refused({ email: 'Enter a valid e-mail address', size: 'Enter a number' });
      },
      navigate: () => undefined,
      reportUnmapped: (report) => reports.push(report),
    });
    await runner.start();
    await runner.submit({ companySize: '1-10' });
    await runner.submit({ email: 'x' });
    expect(runner.getState().alert?.message).toBe('form.errors.invalid');
    expect(reports).toEqual([]);
  });
});

describe('collected values edited on a settings step', () => {
  it('sends a stored value the person cleared as empty, so the server removes it, and leaves out fields that were never filled', async () => {
    const calls: { name: string; input: Record<string, unknown> }[] = [];
    const runner = new FlowRunner({
      flow: editingFlow as unknown as Flow,
      environment: () => ({ app: {}, config: {}, query: {}, user: {}, tenant: {} }),
      runAction: async (name, input) => {
        calls.push({ name, input });
        return name === 'gql.GetMe' ? { getMe: { identityAttributes: { jobTitle: 'Engineer', team: 'sales' } } } : { updateMe: {} };
      },
      navigate: () => undefined,
    });
    await runner.start();
    expect(runner.getState().form).toEqual({ jobTitle: 'Engineer', team: 'sales' });
    // An emptied field's value is undefined, as RJSF hands it over.
    await runner.submit({ jobTitle: undefined, team: 'marketing' });
    expect(calls.at(-1)).toEqual({ name: 'gql.UpdateMe', input: { user: { attributes: { jobTitle: '', team: 'marketing' } } } });
    expect(runner.getState().step).toBe('SAVED');
  });
});
