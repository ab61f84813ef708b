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

const CONTEXT_LIST = 'app, config, query, form, collected, result, results, user, tenant, params, state, path, step, error';
const WIDGET_LIST =
  'consent, text, email, password, textarea, select, checkbox, checkboxes, radio, hidden, updown, range, uri, url, date, time, datetime, color, file';

const file = (fixture: string) => `tests/fixtures/flows/${fixture}/broken.json`;

describe('flows:check', () => {
  it('passes the flows and forms of the repository', () => {
    const { problems, flowCount, formCount } = checkFlows();
    expect(problems.map(formatProblem)).toEqual([]);
    expect(flowCount).toBeGreaterThanOrEqual(2);
    expect(formCount).toBeGreaterThanOrEqual(2);
  });

  it('reports a goto to an unknown step', () => {
    expect(problemsOf('unknown-step')).toEqual([
      `${file('unknown-step')}#/steps/FIRST/next/0/goto: Step "SECOND" does not exist in this flow.`,
    ]);
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

  it('reports translation keys missing from en.json, naming the file', () => {
    expect(problemsOf('missing-translation')).toEqual([
      `${file('missing-translation')}#/steps/FIRST/heading: Translation key "login.noSuchHeading" is missing from src/i18n/locales/en.json.`,
      `${file('missing-translation')}#/steps/FIRST/subheading/key: Translation key "login.noSuchSubheading" is missing from src/i18n/locales/en.json.`,
    ]);
  });

  it('suggests the closest name for a typo, and checks what JSON Logic reads', () => {
    expect(problemsOf('typos')).toEqual([
      `${file('typos')}#/steps/EMAIL/submit/label: Translation key "actions.continu" is missing from src/i18n/locales/en.json. Did you mean "actions.continue"?`,
      `${file('typos')}#/steps/EMAIL/submit/action: Action "auth.credentialConfig" is not registered. Did you mean "auth.credentialsConfig"?`,
      `${file('typos')}#/steps/EMAIL/next/0/goto: Step "PASWORD" does not exist in this flow. Did you mean "PASSWORD"?`,
      `${file('typos')}#/steps/EMAIL/submit/input/username/var: "form.emial" reads the form field "emial", which no form of this flow defines. Did you mean "email"?`,
      `${file('typos')}#/steps/EMAIL/submit/disabledIf/!/var: "from.email" reads "from", which flows do not have (known: ${CONTEXT_LIST}). Did you mean "form"?`,
      `${file('typos')}#/steps/EMAIL/next/0/if/var: "results.EMAL.hasPassword" reads the answer of step "EMAL", which does not exist in this flow. Did you mean "EMAIL"?`,
    ]);
  });

  it("checks a GraphQL action's input names against its operation's variables", () => {
    expect(problemsOf('action-input')).toEqual([
      `${file('action-input')}#/steps/FORM/submit/input/tenant.ownr.email: Input "tenant.ownr.email" does not fit gql.CreateTenantAnonymous: CreateTenantInput has no field "ownr". Did you mean "owner"?`,
      `${file('action-input')}#/steps/FORM/submit/input/tenant.companySize: Input "tenant.companySize" does not fit gql.CreateTenantAnonymous: CreateTenantInput has no field "companySize".`,
      `${file('action-input')}#/steps/FORM/submit/input/tennant.name: Input "tennant.name" does not fit gql.CreateTenantAnonymous: the operation has no variable "tennant" (it has $tenant). Did you mean "tenant"?`,
    ]);
  });

  it("checks a registered action's input (an action step, a redirect) against the action's declared input", () => {
    expect(problemsOf('registered-action-input')).toEqual([
      `${file('registered-action-input')}#/steps/FORM/submit/input/pasword: Input "pasword" is not an input of auth.authenticate (it takes username, password). Did you mean "password"?`,
      `${file('registered-action-input')}#/steps/FORM/submit: auth.authenticate needs the input "password".`,
      `${file('registered-action-input')}#/steps/FORM/next/0/goto/input/tenantUser: Input "tenantUser" is not an input of nav.handover (it takes tenantUserId). Did you mean "tenantUserId"?`,
      `${file('registered-action-input')}#/steps/FORM/next/0/goto: nav.handover needs the input "tenantUserId".`,
    ]);
  });

  it('reports every problem of a file, a schema error among them', () => {
    expect(problemsOf('schema-and-more')).toEqual([
      `${file('schema-and-more')}#/steps/FIRST: Value has unknown property "colour".`,
      `${file('schema-and-more')}#/steps/FIRST/next/0/goto: Step "SECOND" does not exist in this flow.`,
    ]);
  });

  it('reports unregistered widgets with a suggestion, and option titles missing from en.json (a language may be named in itself)', () => {
    const formsDir = path.resolve('tests/fixtures/forms/widget-typo');
    const problems = checkFlows({ flowsDir: path.join(formsDir, 'no-flows'), formsDir }).problems.map(formatProblem);
    expect(problems).toEqual([
      'tests/fixtures/forms/widget-typo/broken.json#/schema/properties/size/oneOf/1/title: Translation key "sizes.large" is missing from src/i18n/locales/en.json.',
      'tests/fixtures/forms/widget-typo/broken.json#/schema/properties/language/oneOf/1/title: Translation key "Svenska" is missing from src/i18n/locales/en.json.',
      `tests/fixtures/forms/widget-typo/broken.json#/uiSchema/secret/ui:widget: Widget "pasword" is not registered (known: ${WIDGET_LIST}). Did you mean "password"?`,
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
      `${file('unknown-form')}#/steps/FIRST/form: Form "not-shipped" has no file schema/forms/not-shipped.json.`,
    ]);
  });

  it("reports collected fields the step's form does not define, and collecting without a form", () => {
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
