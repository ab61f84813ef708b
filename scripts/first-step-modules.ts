// The modules a server-drawn page loads lazily before the runtime hydrates its first step (src/start.tsx
// firstStepLoaded): for each flow of the route, its first step's form (virtual:foyer-forms/<form>, and
// RJSF's step form when the form is not plain) and every component the step names (src/components/
// registry.ts: one module per name). The page budget counts their chunks (scripts/bundle-budget.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { plainFieldsOf } from '../src/flow/plain-form.ts';

interface FlowFile {
  routes: string[];
  initial: string;
  steps: Record<string, { form?: string; component?: string; slots?: { type: string; component?: string }[] }>;
}

const RJSF_STEP_FORM = 'src/app/screens/flow-screen/RjsfStepForm.tsx';

/** Module ids, as the bundle names them: virtual modules with their \0 prefix, files as absolute paths. */
export function firstStepModules(options: { flowsDir: string; formsDir: string; route: string }): string[] {
  const modules = new Set<string>();
  for (const file of readdirSync(options.flowsDir).filter((name) => name.endsWith('.json'))) {
    const flow = JSON.parse(readFileSync(path.join(options.flowsDir, file), 'utf8')) as FlowFile;
    if (!flow.routes.includes(options.route)) continue;
    const step = flow.steps[flow.initial];
    if (!step) continue;
    if (step.form) {
      modules.add(`\0virtual:foyer-forms/${step.form}`);
      const form = JSON.parse(readFileSync(path.join(options.formsDir, `${step.form}.json`), 'utf8')) as {
        schema: unknown;
        uiSchema?: unknown;
      };
      if (!plainFieldsOf(form.schema, form.uiSchema ?? {})) modules.add(path.resolve(RJSF_STEP_FORM));
    }
    const components = [step.component, ...(step.slots ?? []).map((slot) => (slot.type === 'component' ? slot.component : undefined))];
    for (const name of components) if (name) modules.add(path.resolve(`src/components/${name}.tsx`));
  }
  return [...modules];
}
