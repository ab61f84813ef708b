// The developer's edit issue 15 promises needs no TypeScript: a copy of the shipped flows, forms and
// English texts in a temporary folder, where signup gains a "Company size" select before its form
// (a step with `collect`, a form file and the texts). Server tests point Foyer's flowsDir/formsDir at
// it; browser tests also build the runtime from it (FOYER_FLOWS_DIR, FOYER_FORMS_DIR, FOYER_LOCALES_DIR).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '200+'] as const;

export interface FlowsCopy {
  root: string;
  flowsDir: string;
  formsDir: string;
  localesDir: string;
  remove(): void;
}

function editJson(file: string, edit: (value: Record<string, unknown>) => void): void {
  const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(value);
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Copies the flows and adds the Company size step. `alsoCollect` adds fields stored on the person
 * (jobTitle) and on the membership (team) to the same step, for the server's tests of every target.
 */
export function companySizeFlows(options: { alsoCollect?: boolean } = {}): FlowsCopy {
  const root = mkdtempSync(path.join(tmpdir(), 'foyer-flows-'));
  const copy: FlowsCopy = {
    root,
    flowsDir: path.join(root, 'flows'),
    formsDir: path.join(root, 'forms'),
    localesDir: path.join(root, 'locales'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
  cpSync('flows', copy.flowsDir, { recursive: true });
  cpSync('schema/forms', copy.formsDir, { recursive: true });
  cpSync('src/i18n/locales', copy.localesDir, { recursive: true });

  const collect: Record<string, string> = { companySize: 'tenant' };
  const properties: Record<string, unknown> = {
    companySize: { type: 'string', title: 'companySize.label', enum: [...COMPANY_SIZES] },
  };
  if (options.alsoCollect) {
    collect.jobTitle = 'user';
    collect.team = 'membership';
    properties.jobTitle = { type: 'string', title: 'companySize.jobTitle', maxLength: 50 };
    properties.team = { type: 'string', title: 'companySize.team', enum: ['sales', 'engineering'] };
  }
  writeFileSync(
    path.join(copy.formsDir, 'company-size.json'),
    JSON.stringify({ schema: { type: 'object', required: ['companySize'], properties }, uiSchema: {} }, null, 2),
  );
  editJson(path.join(copy.flowsDir, 'signup.json'), (flow) => {
    const steps = flow.steps as Record<string, unknown>;
    flow.initial = 'COMPANY';
    flow.steps = {
      COMPANY: {
        heading: 'companySize.heading',
        form: 'company-size',
        collect,
        submit: { label: 'actions.continue', disabledIf: { '!': { var: 'form.companySize' } } },
        next: [{ goto: 'FORM' }],
      },
      ...steps,
    };
  });
  editJson(path.join(copy.localesDir, 'en.json'), (texts) => {
    texts.companySize = { heading: 'About your company', label: 'Company size', jobTitle: 'Job title', team: 'Team' };
  });
  return copy;
}

/**
 * A copy of the flows where the settings show collected attributes: the profile edits the person's
 * job title (profile form, `collect` user) and the membership's team (`collect` membership), the
 * workspace settings its company size (workspace form,
 * `collect` tenant). Flow, form and en line only, as a deployment would.
 */
export function settingsAttributeFlows(): FlowsCopy {
  const copy = companySizeFlows();
  const addField = (form: string, name: string, schema: Record<string, unknown>) =>
    editJson(path.join(copy.formsDir, `${form}.json`), (file) => {
      const properties = (file.schema as { properties: Record<string, unknown> }).properties;
      properties[name] = schema;
      const uiSchema = file.uiSchema as { 'ui:order'?: string[] };
      if (uiSchema['ui:order']) uiSchema['ui:order'] = [...uiSchema['ui:order'], name];
    });
  const collectAt = (flowFile: string, name: string, target: string, defaultFrom: string) =>
    editJson(path.join(copy.flowsDir, flowFile), (flow) => {
      const step = (flow.steps as Record<string, Record<string, Record<string, unknown>>>)[flow.initial as string]!;
      step.collect = { ...(step.collect as Record<string, string> | undefined), [name]: target };
      step.defaults = { ...step.defaults, [name]: { var: defaultFrom } };
    });
  addField('profile', 'jobTitle', { type: 'string', title: 'companySize.jobTitle', maxLength: 50 });
  collectAt('profile.json', 'jobTitle', 'user', 'result.getMe.identityAttributes.jobTitle');
  addField('profile', 'team', { type: 'string', title: 'companySize.team', maxLength: 50 });
  collectAt('profile.json', 'team', 'membership', 'result.getMe.attributes.team');
  addField('workspace', 'companySize', { type: 'string', title: 'companySize.label', enum: [...COMPANY_SIZES] });
  collectAt('workspace.json', 'companySize', 'tenant', 'result.getTenant.attributes.companySize');
  editJson(path.join(copy.localesDir, 'en.json'), (texts) => {
    texts.companySize = { heading: 'About your company', label: 'Company size', jobTitle: 'Job title', team: 'Team' };
  });
  return copy;
}
