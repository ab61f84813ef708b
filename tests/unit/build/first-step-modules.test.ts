// The page budget's count of what a server-drawn page loads before it hydrates (scripts/bundle-budget.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstStepModules } from '../../../scripts/first-step-modules.ts';

describe('firstStepModules', () => {
  it("names the login route's first-step form and the components its slots name", () => {
    const modules = firstStepModules({ flowsDir: 'flows', formsDir: 'schema/forms', route: '/auth/login' });
    expect(modules.sort()).toEqual(
      [
        '\0virtual:foyer-forms/login-username',
        path.resolve('src/components/PasskeySignIn.tsx'),
        path.resolve('src/components/SocialButtons.tsx'),
      ].sort(),
    );
  });

  it("adds RJSF's step form when the first step's form is not plain, and nothing of other routes' flows", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'first-step-'));
    mkdirSync(path.join(dir, 'flows'));
    mkdirSync(path.join(dir, 'forms'));
    const flow = (id: string, route: string, form: string) => ({
      id,
      routes: [route],
      initial: 'A',
      steps: { A: { form, component: 'TotpSecret' } },
    });
    writeFileSync(path.join(dir, 'flows', 'a.json'), JSON.stringify(flow('a', '/auth/a', 'choice')));
    writeFileSync(path.join(dir, 'flows', 'b.json'), JSON.stringify(flow('b', '/auth/b', 'other')));
    const choice = { type: 'object', properties: { plan: { type: 'string', title: 'plan', enum: ['a', 'b'] } } };
    writeFileSync(path.join(dir, 'forms', 'choice.json'), JSON.stringify({ schema: choice }));
    expect(firstStepModules({ flowsDir: path.join(dir, 'flows'), formsDir: path.join(dir, 'forms'), route: '/auth/a' }).sort()).toEqual(
      [
        '\0virtual:foyer-forms/choice',
        path.resolve('src/app/screens/flow-screen/RjsfStepForm.tsx'),
        path.resolve('src/components/TotpSecret.tsx'),
      ].sort(),
    );
  });
});
