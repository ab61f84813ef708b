// Test ports (server/testing.ts freePort): free, outside the range the kernel hands to outgoing
// connections, where a connection opened before the test's listen could take one
// (tests/server/two-instances.test.ts failed a full run with EADDRINUSE), never handed out twice, and
// each test worker's from a slice of its own (tests/server/management/settings.test.ts failed CI with
// EADDRINUSE on a port below that range).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, freePortRange } from '../../server/testing.ts';

/** Linux, as the test machines: the first port of the range outgoing connections are given. */
async function outgoingPortsStart(): Promise<number> {
  return Number((await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')).trim().split(/\s+/)[0]);
}

describe('a free port for a test', () => {
  it('lies below the ports of outgoing connections, and a server can listen on it', async () => {
    const below = await outgoingPortsStart();
    for (let i = 0; i < 20; i += 1) {
      const port = await freePort();
      expect(port).toBeLessThan(below);
      await new Promise<void>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
      });
    }
  });

  it('never hands one port out twice in a process, though the first is not listened on yet', async () => {
    // startFoyer takes four ports before any listens; two alike failed a full run with EADDRINUSE.
    const ports = new Set<number>();
    for (let i = 0; i < 600; i += 1) ports.add(await freePort());
    expect(ports.size).toBe(600);
  });

  it("gives each of a run's test workers ports of its own", async () => {
    const below = await outgoingPortsStart();
    const ranges = Array.from({ length: 16 }, (_, i) => freePortRange(i + 1, below));
    for (const [i, range] of ranges.entries()) {
      // Above 10080, the last of the ports fetch refuses ("bad port", the Fetch standard's port
      // blocking): users-list.test.ts failed a full run on it once workers' slices began at 10000.
      expect(range.from).toBeGreaterThan(10_080);
      expect(range.to).toBeLessThanOrEqual(below);
      expect(range.to - range.from).toBeGreaterThan(1_000);
      for (const other of ranges.slice(i + 1)) expect(other.from >= range.to || other.to <= range.from).toBe(true);
    }
    const mine = freePortRange(Number(process.env.VITEST_POOL_ID), below);
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(mine.from);
    expect(port).toBeLessThan(mine.to);
  });
});
