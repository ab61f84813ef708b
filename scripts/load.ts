// `npm run load [-- --seconds N] [-- --users N]`: a bounded load run against a Foyer of its own on
// loopback (a child process, `npm start`'s server on a throwaway data folder). Each virtual user
// repeats a password sign-in (POST /auth/authenticate), a token refresh (POST /token, rotating) and
// a GraphQL read of the users page; the run stops by itself after --seconds (default 60) and prints
// throughput, p50/p99 per operation and every error. Exits 1 when any request failed. Not part of
// `npm test`: it measures the machine as much as the code.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import * as client from 'openid-client';
import { spawnFoyer, type ChildFoyer } from '../tests/server/support/child-server.ts';
import { Browser } from '../tests/server/oidc/browser.ts';
import { authorizationRequest, callbackUri, relyingParty, signIn } from '../tests/server/oidc/sign-in.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, users: { type: 'string', default: '8' } },
});
const seconds = Number(values.seconds);
const virtualUsers = Number(values.users);
if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) throw new Error('--seconds takes 1 to 3600');
if (!Number.isInteger(virtualUsers) || virtualUsers < 1 || virtualUsers > 64) throw new Error('--users takes 1 to 64');

type Operation = 'password sign-in' | 'token refresh' | 'GraphQL users page';
const samples: Record<Operation, number[]> = { 'password sign-in': [], 'token refresh': [], 'GraphQL users page': [] };
const errors: { operation: Operation; detail: string }[] = [];

const USERS_PAGE = '{ listUsers(limit: 20, sortBy: NAME) { id email role } countUsers getTenant { name } }';

async function timed(operation: Operation, work: () => Promise<Response>): Promise<Response | null> {
  const started = performance.now();
  try {
    const response = await work();
    const text = await response.clone().text();
    if (response.status >= 400 || (operation === 'GraphQL users page' && text.includes('"errors"'))) {
      errors.push({ operation, detail: `${response.status} ${text.slice(0, 200)}` });
      return null;
    }
    samples[operation].push(performance.now() - started);
    return response;
  } catch (error) {
    errors.push({ operation, detail: String(error) });
    return null;
  }
}

/** One virtual user: signs in once through the authorization code flow, then loops until the deadline. */
async function virtualUser(foyer: ChildFoyer, index: number, deadline: number): Promise<void> {
  const user = foyer.demo.users[index % foyer.demo.users.length]!;
  const workspace = user.workspaces[0]!;
  const rp = await relyingParty(foyer);
  const pending = await authorizationRequest(rp, callbackUri(foyer));
  const { callback } = await signIn(foyer, {
    authorizeUrl: pending.url,
    redirectUri: callbackUri(foyer),
    email: user.email,
    password: user.password,
    workspace,
  });
  const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
  let refreshToken = tokens.refresh_token!;
  let accessToken = tokens.access_token;

  while (performance.now() < deadline) {
    const browser = new Browser();
    await timed('password sign-in', () =>
      browser.request(`${foyer.urls.auth}/auth/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-app-id': foyer.demo.appId },
        body: JSON.stringify({ username: user.email, password: user.password }),
        origin: foyer.urls.ui,
      }),
    );
    const refreshed = await timed('token refresh', () =>
      fetch(`${foyer.urls.auth}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: refreshToken }),
      }),
    );
    if (refreshed) {
      const body = (await refreshed.json()) as { access_token: string; refresh_token: string };
      refreshToken = body.refresh_token;
      accessToken = body.access_token;
    }
    await timed('GraphQL users page', () =>
      fetch(`${foyer.urls.api}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
        body: JSON.stringify({ query: USERS_PAGE }),
      }),
    );
  }
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

function report(elapsedSeconds: number): string {
  const lines = [['operation', 'requests', 'per second', 'p50 ms', 'p99 ms', 'errors']];
  let total = 0;
  for (const [operation, list] of Object.entries(samples) as [Operation, number[]][]) {
    const sorted = [...list].sort((a, b) => a - b);
    total += list.length;
    lines.push([
      operation,
      String(list.length),
      (list.length / elapsedSeconds).toFixed(1),
      percentile(sorted, 0.5).toFixed(1),
      percentile(sorted, 0.99).toFixed(1),
      String(errors.filter((error) => error.operation === operation).length),
    ]);
  }
  lines.push(['all', String(total), (total / elapsedSeconds).toFixed(1), '', '', String(errors.length)]);
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  const render = (line: string[]) => `| ${line.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [render(lines[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...lines.slice(1).map(render)].join('\n');
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'foyer-load-'));
let foyer: ChildFoyer | undefined;
let failed = true;
try {
  process.stderr.write(`load: starting Foyer on loopback (data in ${dataDir})…\n`);
  foyer = await spawnFoyer({ dataDir });
  for (const url of Object.values(foyer.urls)) {
    if (new URL(url).hostname !== 'localhost') throw new Error(`Not loopback: ${url}`);
  }
  process.stderr.write(`load: ${virtualUsers} virtual users for ${seconds} s…\n`);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const runs = await Promise.allSettled(Array.from({ length: virtualUsers }, (_, index) => virtualUser(foyer!, index, deadline)));
  for (const run of runs) {
    if (run.status === 'rejected')
      errors.push({ operation: 'password sign-in', detail: `virtual user could not sign in: ${String(run.reason)}` });
  }
  const elapsed = (performance.now() - started) / 1000;
  process.stdout.write(`${report(elapsed)}\n`);
  for (const error of errors.slice(0, 10)) process.stdout.write(`error: ${error.operation}: ${error.detail}\n`);
  failed = errors.length > 0;
} finally {
  await foyer?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
