// @vitest-environment node
// The import boundaries of .dependency-cruiser.cjs, shown to catch what they forbid: each case lays
// out a small tree shaped like the repository in a temporary folder and cruises it with the
// project's own rules. (`npm run boundaries` checks the real tree in `npm test`.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise, type IFlattenedRuleSet } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as { forbidden: IFlattenedRuleSet['forbidden'] };
const folders: string[] = [];

/** Cruises a tree of files (path → the paths it imports) and answers the broken rules, as "rule: from → to". */
async function violations(tree: Record<string, string[]>): Promise<string[]> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'foyer-boundaries-'));
  folders.push(root);
  for (const [file, imports] of Object.entries(tree)) {
    mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    const lines = imports.map((target, index) => {
      let relative = path.relative(path.dirname(file), target);
      if (!relative.startsWith('.')) relative = `./${relative}`;
      return `import { value as value${index} } from '${relative}';\nconsole.log(value${index});`;
    });
    writeFileSync(path.join(root, file), `${lines.join('\n')}\nexport const value = 1;\n`);
  }
  const tops = [...new Set(Object.keys(tree).map((file) => file.split('/')[0]!))];
  const result = await cruise(tops, { validate: true, ruleSet: { forbidden: config.forbidden }, baseDir: root });
  if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text');
  return result.output.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`);
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('import boundaries', () => {
  it('refuses a server import of the runtime', async () => {
    expect(await violations({ 'server/auth/routes.ts': ['src/flow/engine.ts'], 'src/flow/engine.ts': [] })).toContain(
      'server-not-browser: server/auth/routes.ts → src/flow/engine.ts',
    );
  });

  it('refuses a server import of the configurator, and the browser side importing the server', async () => {
    const found = await violations({
      'server/admin/service.ts': ['configurator/api/client.ts'],
      'configurator/api/client.ts': ['server/db/schema.ts'],
      'server/db/schema.ts': [],
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'server-not-browser: server/admin/service.ts → configurator/api/client.ts',
        'browser-not-server: configurator/api/client.ts → server/db/schema.ts',
      ]),
    );
  });

  it('keeps common/ free of every side', async () => {
    expect(await violations({ 'common/roles.ts': ['src/access/rules.ts'], 'src/access/rules.ts': [] })).toContain(
      'common-stands-alone: common/roles.ts → src/access/rules.ts',
    );
  });

  it('keeps the React SDK apart from the runtime, the configurator and the server, and lets it bundle common/', async () => {
    const found = await violations({
      'sdk/react/src/client.ts': ['src/auth/oauth/oauth-client.ts', 'server/auth/oidc/claims.ts', 'common/roles.ts'],
      'src/auth/oauth/oauth-client.ts': [],
      'server/auth/oidc/claims.ts': [],
      'common/roles.ts': [],
    });
    expect(found).toEqual([
      'sdk-stands-alone: sdk/react/src/client.ts → server/auth/oidc/claims.ts',
      'sdk-stands-alone: sdk/react/src/client.ts → src/auth/oauth/oauth-client.ts',
    ]);
  });

  it("keeps the example host app on the SDK's package, off Foyer's source", async () => {
    const found = await violations({
      'examples/host-app/src/App.tsx': ['sdk/react/src/react.tsx', 'common/roles.ts'],
      'sdk/react/src/react.tsx': [],
      'common/roles.ts': [],
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'examples-use-the-sdk-package: examples/host-app/src/App.tsx → sdk/react/src/react.tsx',
        'examples-use-the-sdk-package: examples/host-app/src/App.tsx → common/roles.ts',
      ]),
    );
  });

  it('keeps components below the app shell', async () => {
    expect(await violations({ 'src/components/Table.tsx': ['src/app/router.tsx'], 'src/app/router.tsx': [] })).toContain(
      'components-not-app-shell: src/components/Table.tsx → src/app/router.tsx',
    );
  });

  it('refuses two capability folders importing each other, wherever the cycle runs', async () => {
    const found = await violations({
      'server/auth/session/routes.ts': ['server/oidc/provider.ts'],
      'server/oidc/provider.ts': ['server/auth/memberships.ts'],
      'server/auth/memberships.ts': [],
    });
    expect(found.filter((line) => line.startsWith('no-folder-cycles'))).not.toEqual([]);
  });

  it('refuses two files importing each other, even within one folder', async () => {
    expect(
      await violations({
        'server/auth/callers.ts': ['server/auth/legacy-tokens.ts'],
        'server/auth/legacy-tokens.ts': ['server/auth/callers.ts'],
      }),
    ).toContain('no-file-cycles: server/auth/callers.ts → server/auth/legacy-tokens.ts');
  });

  it('lets a capability register its own steps, which use its shared parts', async () => {
    expect(
      await violations({
        'server/auth/plugin.ts': ['server/auth/session/routes.ts'],
        'server/auth/session/routes.ts': ['server/auth/memberships.ts'],
        'server/auth/memberships.ts': [],
        'src/app/App.tsx': ['src/components/Table.tsx'],
        'src/components/Table.tsx': [],
      }),
    ).toEqual([]);
  });
});
