// `npm start`'s server process on a fresh data folder: migrates, seeds, writes demo.json, serves
// discovery, and stops cleanly on SIGTERM; and the settings it refuses to start with.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../server/testing.ts';

let dataDir: string;
let child: ChildProcess;
let output = '';
const ports = { auth: 0, api: 0, ui: 0 };

function waitFor(text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" in output:\n${output}`)), timeoutMs);
    const poll = setInterval(() => {
      if (output.includes(text)) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      }
    }, 50);
  });
}

/** `server/main.ts` in a process of its own, with `env` over the test's environment; its output gathered. */
function startServer(env: NodeJS.ProcessEnv, onOutput: (chunk: string) => void): ChildProcess {
  const started = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.stdout!.on('data', (chunk) => onOutput(String(chunk)));
  started.stderr!.on('data', (chunk) => onOutput(String(chunk)));
  return started;
}

/** Fresh listener ports for one process. */
async function freshPorts() {
  return { FOYER_AUTH_PORT: String(await freePort()), FOYER_API_PORT: String(await freePort()), FOYER_UI_PORT: String(await freePort()) };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'foyer-start-'));
  ports.auth = await freePort();
  ports.api = await freePort();
  ports.ui = await freePort();
  child = startServer(
    {
      FOYER_ENV: 'development',
      FOYER_DATA_DIR: dataDir,
      FOYER_AUTH_PORT: String(ports.auth),
      FOYER_API_PORT: String(ports.api),
      FOYER_UI_PORT: String(ports.ui),
    },
    (chunk) => (output += chunk),
  );
  await waitFor('Foyer is running', 60_000);
}, 70_000);

afterAll(async () => {
  if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('the start command', () => {
  it('prints the URLs and the demo credentials', () => {
    expect(output).toContain(`http://localhost:${ports.ui}`);
    expect(output).toContain('owner@demo.foyer.test');
  });

  it('writes demo.json with the seeded app, URLs and users (owner first)', async () => {
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo.json'), 'utf8'));
    expect(demo.appId).toMatch(/^[0-9a-f-]{36}$/);
    expect(demo.urls).toEqual({
      auth: `http://localhost:${ports.auth}`,
      api: `http://localhost:${ports.api}`,
      ui: `http://localhost:${ports.ui}`,
    });
    expect(demo.users[0]).toMatchObject({ email: 'owner@demo.foyer.test', workspaces: ['Acme', 'Globex'] });
    expect(demo.users.map((u: { workspaces: string[] }) => u.workspaces)).toEqual([['Acme', 'Globex'], ['Acme'], ['Globex']]);
  });

  it('serves OpenID discovery with the public auth URL as issuer', async () => {
    const response = await fetch(`http://localhost:${ports.auth}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const discovery = await response.json();
    expect(discovery.issuer).toBe(`http://localhost:${ports.auth}`);
    expect(discovery.code_challenge_methods_supported).toContain('S256');
  });

  it('serves the hosted UI and the demo app config', async () => {
    expect((await fetch(`http://localhost:${ports.ui}/auth/login`)).status).toBe(200);
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo.json'), 'utf8'));
    const response = await fetch(`http://localhost:${ports.api}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': demo.appId },
      body: JSON.stringify({ query: '{ getAppAnonymous { name tenantSelfSignup } }' }),
    });
    expect(await response.json()).toEqual({ data: { getAppAnonymous: { name: 'Demo app', tenantSelfSignup: true } } });
  });

  it('refuses a second process on the same data folder, naming DATABASE_URL, and keeps serving', async () => {
    let refusal = '';
    const second = startServer(
      { FOYER_ENV: 'development', FOYER_DATA_DIR: dataDir, ...(await freshPorts()) },
      (chunk) => (refusal += chunk),
    );
    const code = await new Promise<number | null>((resolve) => second.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(1);
    expect(refusal).toContain(`The data folder ${dataDir} is in use by another Foyer process`);
    expect(refusal).toContain('DATABASE_URL');
    expect(refusal).not.toContain('Foyer is running');
    expect((await fetch(`http://localhost:${ports.auth}/.well-known/openid-configuration`)).status).toBe(200);
  }, 60_000);

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM: stopping Foyer');
  }, 20_000);
});

describe('settings the start refuses', () => {
  /**
   * Starts with `env` on a data folder of its own: answers the exit code and the output once the
   * process ends, or `running` once it says it is running (then it is stopped).
   */
  async function attemptStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; running: boolean; output: string }> {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'foyer-refused-'));
    const listeners = await freshPorts();
    let said = '';
    try {
      return await new Promise((resolve) => {
        const attempt = startServer({ FOYER_DATA_DIR: folder, ...env, ...listeners }, (chunk) => {
          said += chunk;
          if (said.includes('Foyer is running')) attempt.kill('SIGKILL');
        });
        attempt.once('exit', (code) => resolve({ code, running: said.includes('Foyer is running'), output: said }));
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  it.each(['Production', 'prod'])(
    'exits 1 on NODE_ENV=%s without FOYER_ENV, before any demo seed or listener',
    async (nodeEnv) => {
      const start = await attemptStart({ NODE_ENV: nodeEnv, FOYER_ENV: '' });
      expect(start.running).toBe(false);
      expect(start.code).toBe(1);
      expect(start.output).toContain(
        `Foyer cannot start: Invalid NODE_ENV: ${nodeEnv} (use production, development or test, or leave it unset)`,
      );
      expect(start.output).not.toContain('owner@demo.foyer.test');
    },
    60_000,
  );

  it('exits 1 on development bound to every interface unless FOYER_ALLOW_DEV_ON_NETWORK=1 asks for it', async () => {
    const start = await attemptStart({ FOYER_ENV: 'development', FOYER_HOST: '0.0.0.0' });
    expect(start.running).toBe(false);
    expect(start.code).toBe(1);
    expect(start.output).toContain('Foyer cannot start: FOYER_HOST=0.0.0.0 is not a loopback address');
    const allowed = await attemptStart({ FOYER_ENV: 'development', FOYER_HOST: '0.0.0.0', FOYER_ALLOW_DEV_ON_NETWORK: '1' });
    expect(allowed.running).toBe(true);
  }, 120_000);
});
