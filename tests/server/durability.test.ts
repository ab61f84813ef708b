// Crash safety: Foyer is killed with SIGKILL (no shutdown code runs) while members are being created
// through the API from several connections at once, then started again on the same data. Every
// creation the API acknowledged must be there. PGlite in its data folder; PostgreSQL in the
// PostgreSQL pass of the suite (FOYER_TEST_DB=postgres).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import * as client from 'openid-client';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_ENV } from '../../server/testing.ts';
import { spawnFoyer, type ChildFoyer, type ChildOptions } from './support/child-server.ts';
import { authorizationRequest, callbackUri, relyingParty, signIn } from './oidc/sign-in.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An access token of `email` in `workspace`, from a real sign-in on the child. */
async function accessToken(foyer: ChildFoyer, email: string, workspace: string): Promise<string> {
  const user = foyer.demo.users.find((candidate) => candidate.email === email)!;
  const rp = await relyingParty(foyer);
  const pending = await authorizationRequest(rp, callbackUri(foyer));
  const { callback } = await signIn(foyer, {
    authorizeUrl: pending.url,
    redirectUri: callbackUri(foyer),
    email,
    password: user.password,
    workspace,
  });
  return (await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state }))
    .access_token;
}

async function graphql(foyer: ChildFoyer, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${foyer.urls.api}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] } };
}

/**
 * Starts again on the same data at once, as a supervisor restarts a crashed service: the killed
 * process's folder lock names a dead owner and is taken over (server/data-dir-lock.ts).
 */
const restart = (options: ChildOptions): Promise<ChildFoyer> => spawnFoyer(options);

async function storage(): Promise<Omit<ChildOptions, 'ports'>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'foyer-durable-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const serverUrl = process.env[POSTGRES_ENV];
  if (!serverUrl) return { dataDir };
  const name = `foyer_durable_${randomUUID().replace(/-/g, '')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  cleanups.push(async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { dataDir, databaseUrl: url.toString() };
}

describe(`kill -9 during writes (${process.env[POSTGRES_ENV] ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('keeps every member whose creation was acknowledged', { timeout: 150_000 }, async () => {
    const options = await storage();
    const first = await spawnFoyer(options);
    cleanups.push(() => first.kill());
    // Two inviting memberships, each within its hourly invitation limit (100).
    const tokens = [
      await accessToken(first, 'owner@demo.foyer.test', 'Acme'),
      await accessToken(first, 'admin@acme.demo.foyer.test', 'Acme'),
    ];
    const run = randomUUID().slice(0, 8);
    const acknowledged: string[] = [];
    let next = 0;
    let killed = false;
    const KILL_AFTER = 60;

    // Eight connections keep creating until the process is gone; the kill lands mid-flight.
    const writer = async (token: string) => {
      while (!killed) {
        const email = `durable-${run}-${next++}@example.com`;
        try {
          const answer = await graphql(first, token, 'mutation($names: [String!]!) { createUsers(userNames: $names) { email } }', {
            names: [email],
          });
          if (answer.status === 200 && !answer.body.errors) acknowledged.push(email);
        } catch {
          // The connection died with the process: not acknowledged.
        }
        if (acknowledged.length >= KILL_AFTER && !killed) {
          killed = true;
          await first.kill();
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, index) => writer(tokens[index % 2]!)));
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const second = await restart({ ...options, ports: first.ports });
    cleanups.push(() => second.stop());
    const token = await accessToken(second, 'owner@demo.foyer.test', 'Acme');
    const found = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const answer = await graphql(
        second,
        token,
        'query($search: String, $offset: Int) { listUsers(search: $search, offset: $offset, limit: 100) { email } }',
        {
          search: `durable-${run}`,
          offset,
        },
      );
      expect(answer.status).toBe(200);
      const page = answer.body.data!.listUsers as { email: string }[];
      for (const user of page) found.add(user.email);
      if (page.length < 100) break;
    }
    expect(acknowledged.filter((email) => !found.has(email))).toEqual([]);
  });
});
