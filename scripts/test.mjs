// `npm test`: every check the project has, in order, ending with one "N passed, N failed" line.
// Steps: typecheck, flow definitions, unit + server integration tests on PGlite, the server
// integration tests again on a throwaway PostgreSQL 15, then the browser tests against a built UI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const reportDir = mkdtempSync(path.join(os.tmpdir(), 'foyer-test-'));
let passed = 0;
let failed = 0;

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function check(name, command, args, env) {
  console.log(`\n== ${name}`);
  if (run(command, args, env)) passed += 1;
  else {
    failed += 1;
    console.log(`FAILED: ${name}`);
  }
}

function vitest(name, args, env) {
  console.log(`\n== ${name}`);
  const report = path.join(reportDir, `${name.replace(/\W+/g, '-')}.json`);
  const ok = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], env);
  try {
    const results = JSON.parse(readFileSync(report, 'utf8'));
    passed += results.numPassedTests;
    failed += results.numFailedTests;
    if (!ok && results.numFailedTests === 0) failed += 1;
  } catch {
    failed += 1;
  }
  if (!ok) console.log(`FAILED: ${name}`);
}

// Auth.js sits in a package of its own (tests/server/oidc/authjs/package.json says why).
const authJs = 'tests/server/oidc/authjs';
if (!existsSync(path.join(authJs, 'node_modules'))) check('Auth.js test package', 'npm', ['ci', '--prefix', authJs, '--no-audit', '--no-fund']);
check('codegen', 'npm', ['run', '-s', 'codegen']);
check('typecheck', 'npm', ['run', '-s', 'typecheck']);
check('flows:check', 'npm', ['run', '-s', 'flows:check']);
vitest('unit and server (PGlite)', ['--project', 'unit', '--project', 'server']);
vitest('server (PostgreSQL 15)', ['--project', 'server'], { FOYER_TEST_DB: 'postgres' });
check('build', 'npm', ['run', '-s', 'build']);
vitest('browser', ['--project', 'e2e']);

rmSync(reportDir, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
