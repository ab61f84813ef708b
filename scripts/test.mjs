// `npm test`: every check the project has, in order, ending with one "N passed, N failed" line.
// Steps: typecheck (after codegen), lint (ESLint and the import boundaries), format (Prettier), flow definitions, unit +
// server integration tests on PGlite, the server integration tests again on a throwaway PostgreSQL 15,
// then the browser tests against a built UI. `npm run test:unit|test:server|test:e2e` run one part (node scripts/test.mjs unit|server|e2e).
// What the steps need beyond npm (Debian's Chromium, PostgreSQL 15's server binaries) is installed
// here when missing and apt can run as root; otherwise the run says what to install.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PARTS = ['unit', 'server', 'e2e'];
const only = process.argv[2];
if (only !== undefined && !PARTS.includes(only)) {
  console.error(`Unknown part "${only}": use one of ${PARTS.join(', ')}, or nothing for everything.`);
  process.exit(2);
}
const wants = (part) => only === undefined || only === part;

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

/** The machine tools a part needs: there, installed with apt, or named with how to point at them. */
function ensureTools(tools) {
  const missing = tools.filter((tool) => !existsSync(tool.path));
  if (missing.length === 0) return true;
  const packages = missing.map((tool) => tool.debianPackage);
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canInstall) {
    console.log(`\n== installing ${packages.join(', ')} (Debian packages)`);
    const installed =
      run('apt-get', ['update', '-qq']) &&
      run('apt-get', ['install', '-y', '-qq', ...packages], { DEBIAN_FRONTEND: 'noninteractive' }) &&
      missing.every((tool) => existsSync(tool.path));
    if (installed) return true;
  }
  for (const tool of missing) {
    console.log(
      `Missing ${tool.path}: install Debian's ${tool.debianPackage} (apt-get install ${tool.debianPackage}), or set ${tool.variable} to ${tool.what}.`,
    );
  }
  failed += 1;
  return false;
}

const chromium = {
  path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  debianPackage: 'chromium',
  variable: 'CHROMIUM_PATH',
  what: 'a Chromium executable',
};
const postgres = {
  path: path.join(process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin', 'initdb'),
  debianPackage: 'postgresql-15',
  variable: 'PG_BIN',
  what: "the folder of PostgreSQL 15's server binaries",
};

// Auth.js sits in a package of its own (tests/server/oidc/authjs/package.json says why).
const authJs = 'tests/server/oidc/authjs';
if (wants('server') && !existsSync(path.join(authJs, 'node_modules'))) {
  check('Auth.js test package', 'npm', ['ci', '--prefix', authJs, '--no-audit', '--no-fund']);
}
check('typecheck', 'npm', ['run', '-s', 'typecheck']);
check('lint (ESLint and the import boundaries)', 'npm', ['run', '-s', 'lint']);
check('format (Prettier)', 'npm', ['run', '-s', 'format:check']);
if (only === undefined) check('flows:check', 'npm', ['run', '-s', 'flows:check']);
if (wants('unit') && wants('server')) vitest('unit and server (PGlite)', ['--project', 'unit', '--project', 'server']);
else if (wants('unit')) vitest('unit', ['--project', 'unit']);
else if (wants('server')) vitest('server (PGlite)', ['--project', 'server']);
if (wants('server') && ensureTools([postgres])) vitest('server (PostgreSQL 15)', ['--project', 'server'], { FOYER_TEST_DB: 'postgres' });
if (wants('e2e') && ensureTools([chromium])) {
  check('build', 'npm', ['run', '-s', 'build']);
  vitest('browser', ['--project', 'e2e']);
}

rmSync(reportDir, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
