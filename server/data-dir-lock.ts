// The embedded database is one process's: a second one on the same folder would corrupt it. The
// lock (proper-lockfile: a folder whose time the owner refreshes) counts as stale 10 s after a crash;
// beside it the owner records its process id, so a supervisor restarting Foyer right after a crash
// finds the owner dead and takes the lock at once instead of failing for those 10 s.
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

const STALE_MS = 10_000;

/** The lock folders this process holds. */
const held = new Set<string>();

interface LockOwner {
  pid: number;
  host: string;
  /** The lock folder's inode when the owner took it: a record left from an earlier lock never names a newer one. */
  lock: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(file, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.lock === 'number'
      ? (owner as LockOwner)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when the lock's recorded owner is a process of this machine that no longer runs. An owner
 * with this process's own id that this process does not hold is gone too (a container restarted
 * under the same id). Another machine's process (a shared folder) cannot be asked: its lock ages out.
 */
async function ownerIsGone(lockPath: string, ownerPath: string): Promise<boolean> {
  const owner = await readOwner(ownerPath);
  if (!owner || owner.host !== os.hostname()) return false;
  const current = await stat(lockPath).catch(() => undefined);
  if (current?.ino !== owner.lock) return false;
  return owner.pid === process.pid ? !held.has(lockPath) : !isAlive(owner.pid);
}

/** Takes the data folder's lock; answers its release. Fails with code ELOCKED while another live process holds it. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, 'foyer.lock');
  const ownerPath = path.join(dataDir, 'foyer.lock.owner');
  const take = () => lockfile.lock(dataDir, { lockfilePath: lockPath, stale: STALE_MS });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || !(await ownerIsGone(lockPath, ownerPath))) throw error;
    await rm(lockPath, { recursive: true, force: true });
    // Another process restarting at the same moment may win it: then this one is refused (ELOCKED).
    release = await take();
  }
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), lock: (await stat(lockPath)).ino };
  await writeFile(ownerPath, JSON.stringify(owner));
  held.add(lockPath);
  return async () => {
    held.delete(lockPath);
    await rm(ownerPath, { force: true });
    await release();
  };
}
