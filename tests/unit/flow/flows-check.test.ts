// @vitest-environment node
// flows:check over the real flows and over broken fixtures: each problem names its file and pointer.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkFlows, formatProblem } from '../../../scripts/flows-check.ts';
import { COMPONENT_NAMES } from '../../../src/flow/registry-names.ts';

const fixtures = path.resolve('tests/fixtures/flows');

function problemsOf(fixture: string): string[] {
  return checkFlows({ flowsDir: path.join(fixtures, fixture) }).problems.map(formatProblem);
}

const file = (fixture: string) => `tests/fixtures/flows/${fixture}/broken.json`;

describe('flows:check', () => {
  it('passes the flows and forms of the repository', () => {
    const { problems, flowCount, formCount } = checkFlows();
    expect(problems.map(formatProblem)).toEqual([]);
    expect(flowCount).toBeGreaterThanOrEqual(2);
    expect(formCount).toBeGreaterThanOrEqual(2);
  });

  it('reports a goto to an unknown step', () => {
    expect(problemsOf('unknown-step')).toEqual([`${file('unknown-step')}#/steps/FIRST/next/0/goto: Step "SECOND" does not exist in this flow.`]);
  });

  it('reports unregistered actions and unknown GraphQL operations', () => {
    expect(problemsOf('unknown-action')).toEqual([
      `${file('unknown-action')}#/steps/FIRST/load/action: Action "gql.NoSuchOperation" names no GraphQL operation in src/graphql.`,
      `${file('unknown-action')}#/steps/FIRST/submit/action: Action "auth.teleport" is not registered.`,
    ]);
  });

  it('reports an unregistered component', () => {
    expect(problemsOf('unknown-component')).toEqual([
      `${file('unknown-component')}#/steps/FIRST/component: Component "Carousel" is not registered (known: ${COMPONENT_NAMES.join(', ')}).`,
    ]);
  });

  it('reports translation keys missing from en.json', () => {
    expect(problemsOf('missing-translation')).toEqual([
      `${file('missing-translation')}#/steps/FIRST/heading: Translation key "login.noSuchHeading" is missing from en.json.`,
      `${file('missing-translation')}#/steps/FIRST/subheading/key: Translation key "login.noSuchSubheading" is missing from en.json.`,
    ]);
  });

  it('reports meta-schema violations', () => {
    expect(problemsOf('schema-violation')).toEqual([
      `${file('schema-violation')}#/routes/0: Value must match pattern "^/[A-Za-z0-9/_:*-]*$".`,
      `${file('schema-violation')}#/steps/FIRST: Value has unknown property "colour".`,
    ]);
  });

  it('reports a missing form file', () => {
    expect(problemsOf('unknown-form')).toEqual([
      `${file('unknown-form')}#/steps/FIRST/form: Form "company-size" has no file schema/forms/company-size.json.`,
    ]);
  });

  it('reports collected fields the step\'s form does not define, and collecting without a form', () => {
    expect(problemsOf('uncollectable')).toEqual([
      `${file('uncollectable')}#/steps/FIRST/collect/companySize: Field "companySize" is not a field of form schema/forms/login-username.json, so the server could not check it.`,
      `${file('uncollectable')}#/steps/SECOND/collect: Step "SECOND" collects values but shows no form.`,
    ]);
  });

  it('reports an unknown place to store a collected value', () => {
    expect(problemsOf('collect-target')).toEqual([
      `${file('collect-target')}#/steps/FIRST/collect/email: Value must be one of "user", "membership", "tenant".`,
    ]);
  });

  it('reports a form naming an unregistered custom field', () => {
    const formsDir = path.resolve('tests/fixtures/forms/unknown-field');
    const problems = checkFlows({ flowsDir: path.join(formsDir, 'no-flows'), formsDir }).problems.map(formatProblem);
    expect(problems).toEqual([
      'tests/fixtures/forms/unknown-field/broken.json#/uiSchema/size/ui:field: Form field "Slider" is not registered (known: CustomParams).',
    ]);
  });

  it('exits non-zero from the command line and prints each problem', async () => {
    const run = promisify(execFile);
    const failure = await run(process.execPath, ['--import', 'tsx', 'scripts/flows-check.ts', path.join(fixtures, 'unknown-step')]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`${file('unknown-step')}#/steps/FIRST/next/0/goto: Step "SECOND" does not exist in this flow.`);
  });
});
