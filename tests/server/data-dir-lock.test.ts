// The data folder's lock (server/data-dir-lock.ts): a second process is refused while the owner
// lives, and a supervisor's immediate restart after a crash takes the lock at once, because the
// owner it names is dead, instead of waiting for the lock to go stale.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../server/data-dir-lock.ts';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'foyer-lock-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

/** Another process holding the folder's lock until it is killed. */
async function holderProcess(folder: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      // It stays until killed, as a running Foyer does: the lock's refresh timer alone keeps no process alive.
      `import('./server/data-dir-lock.ts').then((m) => m.lockDataDir(${JSON.stringify(folder)})).then(() => { process.stdout.write('locked'); setInterval(() => {}, 60_000); });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code} before locking`)));
  });
  return child;
}

/** Kills `child` without a chance to release anything, as in a crash. */
async function crash(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('the data folder lock', () => {
  it('refuses a second holder while the owner lives', async () => {
    const release = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toMatchObject({ code: 'ELOCKED' });
    await release();
    await (
      await lockDataDir(dataDir)
    )();
  });

  it('refuses while another live process holds it', async () => {
    const holder = await holderProcess(dataDir);
    try {
      await expect(lockDataDir(dataDir)).rejects.toMatchObject({ code: 'ELOCKED' });
    } finally {
      await crash(holder);
    }
  }, 30_000);

  it('is taken at once after its owner crashed, not 10 s later', async () => {
    await crash(await holderProcess(dataDir));
    expect(existsSync(path.join(dataDir, 'foyer.lock'))).toBe(true);
    const release = await lockDataDir(dataDir);
    // The new owner holds it as firmly as the first did.
    await expect(lockDataDir(dataDir)).rejects.toMatchObject({ code: 'ELOCKED' });
    await release();
  }, 30_000);
});
