// Once per test run: migrate one template database that every test file clones. With
// FOYER_TEST_DB=postgres, start a throwaway PostgreSQL 15 server from the machine's binaries instead.
import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { pgliteHandle, pgliteOptions, postgresHandle } from '../../server/db/client.ts';
import { POSTGRES_ENV, TEMPLATE_ENV } from '../../server/testing.ts';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

async function startPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  // Outside /root so the postgres user can read it.
  const dir = await mkdtemp(path.join('/tmp', 'foyer-pg-'));
  await chmod(dir, 0o777);
  const port = 55000 + Math.floor(Math.random() * 5000);
  const asPostgres = (cmd: string, args: string[]) =>
    os.userInfo().uid === 0
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(PG_BIN, cmd), args, { stdio: 'pipe' });
  asPostgres('initdb', ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust']);
  asPostgres('pg_ctl', [
    '-D',
    `${dir}/data`,
    '-w',
    '-l',
    `${dir}/log`,
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      asPostgres('pg_ctl', ['-D', `${dir}/data`, '-w', '-m', 'immediate', 'stop']);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A throwaway PostgreSQL 15 with the migrated template database that openTestDatabase (server/testing.ts) copies. */
export async function startTestPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const server = await startPostgres();
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('CREATE DATABASE foyer_template');
  await admin.end();
  const template = postgresHandle(server.url.replace(/\/postgres$/, '/foyer_template'));
  await template.migrate();
  await template.close();
  return server;
}

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.FOYER_TEST_DB === 'postgres') {
    const server = await startTestPostgres();
    process.env[POSTGRES_ENV] = server.url;
    return () => server.stop();
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'foyer-template-'));
  const client = await PGlite.create(pgliteOptions);
  await pgliteHandle(client).migrate();
  const file = path.join(dir, 'template.tar.gz');
  await writeFile(file, Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer()));
  await client.close();
  process.env[TEMPLATE_ENV] = file;
  return () => rm(dir, { recursive: true, force: true });
}
