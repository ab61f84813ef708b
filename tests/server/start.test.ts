// `npm start`'s server process on a fresh data folder: migrates, seeds, writes demo.json, serves
// discovery, and stops cleanly on SIGTERM.
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

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'foyer-start-'));
  ports.auth = await freePort();
  ports.api = await freePort();
  ports.ui = await freePort();
  child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      FOYER_ENV: 'development',
      FOYER_DATA_DIR: dataDir,
      FOYER_AUTH_PORT: String(ports.auth),
      FOYER_API_PORT: String(ports.api),
      FOYER_UI_PORT: String(ports.ui),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
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
    const second = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        FOYER_ENV: 'development',
        FOYER_DATA_DIR: dataDir,
        FOYER_AUTH_PORT: String(await freePort()),
        FOYER_API_PORT: String(await freePort()),
        FOYER_UI_PORT: String(await freePort()),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let refusal = '';
    second.stdout!.on('data', (chunk) => (refusal += chunk));
    second.stderr!.on('data', (chunk) => (refusal += chunk));
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
